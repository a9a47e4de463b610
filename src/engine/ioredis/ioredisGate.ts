// The network gate on the ioredis path's Cluster client. ioredis learns nodes by itself (CLUSTER SLOTS on
// connect and after MOVED, MOVED and ASK replies) and opens their sockets lazily: every node's client is
// built with this connector, which refuses to open a socket to a node the gate does not approve (its
// commands fail with the refusal), and tells the load, which ends with the refusal.
import type { ClusterOptions } from 'ioredis';
import { StandaloneConnector } from 'ioredis/built/connectors';
import type { StandaloneConnectionOptions } from 'ioredis/built/connectors/StandaloneConnector';
import { NodeRefusedError, type ApprovedNodes } from '../../gates/network';

type ConnectorClass = NonNullable<NonNullable<ClusterOptions['redisOptions']>['Connector']>;

/** A connector class for ioredis's `Connector` option: it connects only to nodes `approved` allows, and hands `refused` the refusal of any other. */
export function gatedConnector(approved: ApprovedNodes, refused: (message: string) => void): ConnectorClass {
  return class GatedConnector extends StandaloneConnector {
    // ioredis hands a connector the node client's options (host and port among them).
    constructor(options: unknown) {
      super(options as StandaloneConnectionOptions);
    }

    override connect(...args: Parameters<StandaloneConnector['connect']>): ReturnType<StandaloneConnector['connect']> {
      const { host, port } = this.options as StandaloneConnectionOptions & { host?: string; port?: number };
      const refusal = approved.check(host ?? 'localhost', port ?? 6379, 'the cluster client was about to connect to');
      if (refusal) {
        refused(refusal);
        return Promise.reject(new NodeRefusedError(refusal));
      }
      return super.connect(...args);
    }
  };
}

/** ioredis's `dnsLookup` that keeps host names as written: the gate compares the names the user gave, not what they resolve to. */
export function keepHostNames(hostname: string, callback: (error: null, address: string) => void): void {
  callback(null, hostname);
}
