// Entry point of an engine worker thread: runs its share of the connections (WorkerLoad) and talks to
// the main thread (workerThreads.ts). Bundled by esbuild to dist/worker.js; tsc puts it next to workerThreads.js.
import { parentPort, workerData } from 'node:worker_threads';
import { openClientPath } from './clientPaths';
import type { MainToWorker, WorkerConfig, WorkerToMain } from './workerMessages';
import { WorkerLoad } from './workerLoad';

async function main(): Promise<void> {
  if (!parentPort) throw new Error('the RBench engine worker must run in a worker thread');
  const port = parentPort;
  const config = workerData as WorkerConfig;
  const path = openClientPath(config);
  const load = new WorkerLoad(config, (message: WorkerToMain) => port.postMessage(message), path.factory);
  // Cluster paths: one routing state shared by this thread's connections.
  const cluster = path.cluster();
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
