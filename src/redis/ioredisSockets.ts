// ioredis's sockets get the same late-error listener as RBench's own (clientSocket.ts). ioredis listens
// with `once('error')`: a TLS socket's second error (after a failed certificate check) would end the
// process. Every ioredis socket is made by its two connectors; their `connect` is wrapped once, so every
// client, a Cluster's and a Sentinel's own among them, gets the listener before its first event.
import { withLateErrorSink } from './clientSocket';

interface ConnectorModule {
  default: { prototype: { connect(this: unknown, ...args: unknown[]): Promise<NodeJS.EventEmitter> } };
}

/** Once, before the first ioredis client connects: by the reply gate's install (replyGuard.ts), which runs once. */
export function installLateErrorSink(): void {
  // Required here, not imported: the control connection loads ioredis only when it opens (control.ts).
  /* eslint-disable @typescript-eslint/no-require-imports */
  const connectors = [
    require('ioredis/built/connectors/StandaloneConnector') as ConnectorModule,
    require('ioredis/built/connectors/SentinelConnector') as ConnectorModule,
  ];
  /* eslint-enable @typescript-eslint/no-require-imports */
  for (const { default: connector } of connectors) {
    const connect = connector.prototype.connect;
    connector.prototype.connect = function (this: unknown, ...args: unknown[]) {
      return connect.apply(this, args).then(withLateErrorSink);
    };
  }
}
