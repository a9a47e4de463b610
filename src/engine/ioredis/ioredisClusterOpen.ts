// Connecting the ioredis path's Cluster client, with a bounded wait: ioredis's connect() never settles when
// its ready check fails and it reconnects (its 'ready' and 'end' events still tell). A node refusing TLS ends the wait at once (and, once the load
// runs, the load): that never mends, while ioredis retries each request sent to it 16 times, seconds each.
import type { Cluster, Redis } from 'ioredis';
import { address, describeConnectionError, errorPlace } from '../../redis/errors';
import type { ConnectionOptions } from '../../redis/types';
import { LoadError } from '../errors';
import type { ClusterState } from '../cluster/clusterState';
import { nodeTlsRefusal } from '../cluster/nodeTls';

/** Tries to reach the cluster (ioredis's clusterRetryStrategy), 100 ms × try apart. */
const CONNECT_TRIES = 4;

export function clusterRetryStrategy(times: number): number | null {
  return times >= CONNECT_TRIES ? null : 100 * times;
}

/** Every try up to the connect timeout, and the pauses between them. */
function openLimitMs(connectTimeoutMs: number): number {
  let pauses = 0;
  for (let times = 1; times < CONNECT_TRIES; times++) pauses += clusterRetryStrategy(times) ?? 0;
  return CONNECT_TRIES * connectTimeoutMs + pauses;
}

/**
 * Connects `client` (started with lazyConnect) to the cluster `seed` names; a LoadError with a plain message
 * when it cannot. After that, a node refusing TLS is handed to `refusedLater`.
 */
export async function connectCluster(client: Cluster, seed: ConnectionOptions, cluster: ClusterState, refusedLater: (message: string) => void): Promise<void> {
  let lastError: Error | undefined;
  const onError = (error: Error) => (lastError = error);
  client.on('error', onError);
  let refused: ((message: string) => void) | undefined;
  let connected = false;
  client.on('node error', (error: Error, key: string) => {
    const refusal = nodeTlsRefusal(seed, cluster, key, error);
    if (refusal && refused) refused(refusal);
    else if (refusal && connected) refusedLater(refusal);
  });
  const limitMs = openLimitMs(seed.connectTimeoutMs);
  let timer: NodeJS.Timeout | undefined;
  let onEnd: (() => void) | undefined;
  let onReady: (() => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      refused = (message) => reject(new LoadError(message));
      // Ready after a reconnect of ioredis's own: its first connect() promise stays pending then.
      client.once('ready', (onReady = resolve));
      client.once('end', (onEnd = () => reject(lastError ?? new Error('Connection is closed.'))));
      timer = setTimeout(() => reject(new LoadError(notReadyMessage(seed, limitMs, lastError))), limitMs);
      client.connect().then(resolve, reject);
    });
    connected = true;
  } catch (error) {
    client.disconnect();
    throw error instanceof LoadError ? error : new LoadError(describeConnectionError(lastError ?? error, errorPlace(seed)));
  } finally {
    clearTimeout(timer);
    refused = undefined;
    if (onEnd) client.off('end', onEnd);
    if (onReady) client.off('ready', onReady);
    client.off('error', onError);
  }
}

function notReadyMessage(seed: ConnectionOptions, limitMs: number, lastError: Error | undefined): string {
  const cause = lastError ? `: ${describeConnectionError(lastError, errorPlace(seed))}` : '';
  return `the cluster at ${address(seed)} was not ready within ${limitMs} ms${cause} — check that every node is up and reachable`;
}

/** Opens the links of `client`'s `role` nodes that ioredis has not opened yet (it opens one when a command first goes there). */
export async function linkNodes(client: Cluster, role: 'master' | 'all'): Promise<void> {
  await Promise.all(client.nodes(role).map(linkReady));
}

function linkReady(node: Redis): Promise<void> {
  if (node.status === 'ready') return Promise.resolve();
  if (node.status === 'wait') return node.connect();
  return new Promise((resolve, reject) => {
    const ready = () => {
      node.off('end', ended);
      resolve();
    };
    const ended = () => {
      node.off('ready', ready);
      reject(new Error(`the link to ${address({ host: node.options.host ?? 'localhost', port: node.options.port ?? 6379 })} closed while opening`));
    };
    node.once('ready', ready);
    node.once('end', ended);
  });
}
