// Runs one thread's share of a load in this process (WorkerLoad has no worker-specific code), so a test
// can set WorkerConfig fields only code may set (testHooks) and read the assembled result.
import { testLabels, workerConfigs } from '../../../src/engine/loadPlan';
import { openClientPath } from '../../../src/engine/clientPaths';
import { assembleResult } from '../../../src/engine/resultAssembly';
import type { LoadRequest, LoadResult } from '../../../src/engine/types';
import type { WorkerConfig, WorkerToMain } from '../../../src/engine/workerMessages';
import { WorkerLoad } from '../../../src/engine/workerLoad';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

export async function runInProcess(request: LoadRequest, extra: Partial<WorkerConfig> = {}): Promise<LoadResult> {
  const { labels, labelIndexes } = testLabels(request.test);
  const seed = request.seed ?? 1;
  const [config] = workerConfigs(request, {}, { seed, threads: 1, labels, labelIndexes });
  const startedAt = new Date().toISOString();
  return new Promise<LoadResult>((resolve, reject) => {
    const post = (message: WorkerToMain) => {
      if (message.type === 'connect-failed') reject(new Error(message.message));
      else if (message.type === 'ready') load.start();
      else if (message.type === 'result') {
        resolve(assembleResult(request, { status: message.result.status, startedAt, seed, threads: 1, labels, workers: [message.result] }));
      }
    };
    const full = { ...config, ...extra };
    const load = new WorkerLoad(full, post, openClientPath(full).factory);
    load.open().catch(reject);
  });
}

/**
 * runInProcess in a worker thread of its own (inProcessLoadWorker.ts): what the load's thread does is measured
 * apart from this process's heap, which grows with every test the suite ran before.
 */
export function runInOwnThread(request: LoadRequest, extra: Partial<WorkerConfig> = {}): Promise<LoadResult> {
  return new Promise<LoadResult>((resolve, reject) => {
    const worker = new Worker(join(__dirname, 'inProcessLoadWorker.js'), { workerData: { request, extra } });
    worker.once('message', (message: { result?: LoadResult; error?: string }) => {
      void worker.terminate();
      if (message.result) resolve(message.result);
      else reject(new Error(message.error));
    });
    worker.once('error', reject);
  });
}
