// A worker thread that runs runInProcess and posts the result back: a load whose own heap is the worker's, so a
// forced collection (testHooks.gcStormEveryMs) costs what the engine's heap costs, not the test process's.
import { parentPort, workerData } from 'node:worker_threads';
import type { LoadRequest } from '../../../src/engine/types';
import type { WorkerConfig } from '../../../src/engine/workerMessages';
import { runInProcess } from './inProcessLoad';

const { request, extra } = workerData as { request: LoadRequest; extra: Partial<WorkerConfig> };
runInProcess(request, extra).then(
  (result) => parentPort!.postMessage({ result }),
  (error: Error) => parentPort!.postMessage({ error: error.message }),
);
