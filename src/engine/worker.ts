// Entry point of an engine worker thread: runs its share of the connections (WorkerLoad) and talks to
// the main thread (load.ts). Bundled by esbuild to dist/worker.js; tsc puts it next to load.js.
import { parentPort, workerData } from 'node:worker_threads';
import { approvedNodes } from '../gates/network';
import { ClusterState } from './cluster/clusterState';
import { FastConnection } from './fast/fastConnection';
import type { MainToWorker, WorkerConfig, WorkerToMain } from './workerMessages';
import { WorkerLoad, type ConnectionFactory } from './workerLoad';

async function main(): Promise<void> {
  if (!parentPort) throw new Error('the RBench engine worker must run in a worker thread');
  const port = parentPort;
  const config = workerData as WorkerConfig;
  let factory: ConnectionFactory = (index, load) => new FastConnection(index, load);
  if (config.client === 'ioredis') {
    // Loaded only when used: the fast path does not pay for evaluating ioredis in every worker.
    const { IoredisConnection } = await import('./ioredis/ioredisConnection');
    factory = (index, load) => new IoredisConnection(index, load);
  }
  let cluster: ClusterState | undefined;
  if (config.cluster) {
    const plan = config.cluster;
    // Loaded only when used, like ioredis; one routing state shared by this thread's connections.
    const state = (load: WorkerLoad) => (cluster ??= new ClusterState(plan, load.stats, approvedNodes(config.connection)));
    if (config.client === 'ioredis') {
      const { IoredisClusterConnection } = await import('./ioredis/ioredisClusterConnection');
      factory = (index, load) => new IoredisClusterConnection(index, load, state(load));
    } else {
      const { ClusterConnection } = await import('./fast/fastClusterConnection');
      factory = (index, load) => new ClusterConnection(index, load, state(load));
    }
  }
  const load = new WorkerLoad(config, (message: WorkerToMain) => port.postMessage(message), factory);
  load.cluster = cluster;
  let started = false;
  let stopped = false;
  port.on('message', (message: MainToWorker) => {
    if (message.type === 'start' && !started && !stopped) {
      started = true;
      load.start();
    } else if (message.type === 'topology') {
      // A layout naming a node the network gate refuses is not taken, and ends the load.
      const refusal = cluster?.apply(message.topology);
      if (refusal) load.fail(refusal);
    } else if (message.type === 'stop' && !stopped) {
      stopped = true;
      load.stop();
    }
  });
  await load.open();
}

void main();
