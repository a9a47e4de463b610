// The engine's four client paths, chosen in one place: the client (fast: RBench's own RESP sockets;
// ioredis: the library, as an application would use it) × the target (one node, or a Redis Cluster).
// The fast single-node path is part of the worker itself. The other three are modules loaded only when a
// load uses them: a fast-path thread does not pay for evaluating ioredis. esbuild builds each of them as
// a file of its own from clientPathModules.json, placed relative to dist/worker.js as tsc places it
// relative to out/src/engine/worker.js, so one require serves both builds.
import { join } from 'node:path';
import type { ClientPath } from '../scenario/plan';
import modules from './clientPathModules.json';
import type { ClientPathModule, PathConnections } from './connection';
import * as connectOnly from './fast/connectOnlyConnection';
import * as fastSingleNode from './fast/fastConnection';
import type { WorkerConfig } from './workerMessages';
import { isReplyDrivenTest } from '../scenario/replyForms';

/** Per client and target: the path's module inside the worker, or the module to load (relative to the worker). */
const CLIENT_PATHS: Record<ClientPath, Record<'single' | 'cluster', ClientPathModule | string>> = {
  fast: { single: fastSingleNode, cluster: modules.fastCluster },
  ioredis: { single: modules.ioredis, cluster: modules.ioredisCluster },
};

/** `connect-only on`: raw sockets to the target, or to a cluster's masters in turn. */
const CONNECT_ONLY: Record<'single' | 'cluster', ClientPathModule | string> = { single: connectOnly, cluster: modules.connectOnlyCluster };

/** The connections of the path this thread's load uses. */
export function openClientPath(config: WorkerConfig): PathConnections {
  // A test with a reply-driven command encodes each request from earlier replies: a path of its own, so the others keep their pre-encoded batches.
  // `connect-only on` sends no command of its own: raw sockets whatever the client, as for idle connections.
  const path = config.connectOnly
    ? CONNECT_ONLY[config.cluster ? 'cluster' : 'single']
    : isReplyDrivenTest(config.test)
      ? modules.replyDriven
      : CLIENT_PATHS[config.client][config.cluster ? 'cluster' : 'single'];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const module = typeof path === 'string' ? (require(join(__dirname, path)) as ClientPathModule) : path;
  return module.openClientPath(config);
}
