// The load's worker threads, seen from the main thread: starts one per WorkerConfig, starts them together
// once all are connected, stops them on cancellation or a failure, merges their reports into the
// timeline and the progress ticks, and hands their results over when the last one is in.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { ClusterTracker } from './cluster/tracker';
import { LoadError } from './errors';
import type { AssemblyParts } from './resultAssembly';
import { TimelineMerge } from './timelineMerge';
import type { LoadOptions, LoadRequest, LoadResult, LoadStatus } from './types';
import type { WorkerConfig, WorkerResult, WorkerToMain } from './workerMessages';

/** After a stop request, workers that have not answered within this are terminated. */
const STOP_GRACE_MS = 800;

/** The worker script: next to this module, both in the esbuild bundle (dist/) and in tsc output (src/engine/). */
export function workerScriptPath(): string {
  const path = join(__dirname, 'worker.js');
  if (!existsSync(path)) throw new LoadError(`the engine worker script is missing (${path}): rebuild RBench`);
  return path;
}

/** What the threads' run needs of the load besides their configs. */
export interface WorkerRun {
  plan: LoadRequest['phase']['load'];
  options: LoadOptions;
  startedAt: string;
  /** performance.now() when the load began. */
  loadStart: number;
  cluster: ClusterTracker | undefined;
  /** The LoadResult of the load as it ended. */
  result(status: LoadStatus, parts: Pick<AssemblyParts, 'error' | 'workers' | 'timeline' | 'cpuPercent' | 'measuredFrom'>): LoadResult;
}

/** Runs the threads to the end of the load; rejects with a LoadError when they cannot all connect. */
export function runWorkers(configs: WorkerConfig[], run: WorkerRun): Promise<LoadResult> {
  const { plan, options, startedAt, loadStart, cluster, result } = run;
  const script = workerScriptPath();
  return new Promise<LoadResult>((resolve, reject) => {
    const workers = configs.map((config) => new Worker(script, { workerData: config }));
    const results: (WorkerResult | undefined)[] = workers.map(() => undefined);
    const exited = workers.map(() => false);
    const progress = workers.map(() => ({ requests: 0, errors: 0 }));
    const timeline = new TimelineMerge(
      workers.length,
      plan.durationMs === undefined,
      cluster ? { onMoved: () => cluster.refresh((topology) => workers.forEach((w) => w.postMessage({ type: 'topology', topology }))) } : undefined,
    );
    let ready = 0;
    let phaseName: 'connecting' | 'running' | 'stopping' | 'done' = 'connecting';
    let measuringSince: number | undefined;
    let cpuStart: NodeJS.CpuUsage | undefined;
    let cpuEnd: NodeJS.CpuUsage | undefined;
    let measuringEnded: number | undefined;
    let failure: string | undefined;
    let cancelled = false;
    let stopTimer: NodeJS.Timeout | undefined;

    const warmupTicker = setInterval(() => {
      if (phaseName === 'running' && measuringSince === undefined) {
        options.onTick?.({ elapsedMs: performance.now() - loadStart, requests: 0, errors: 0, warmingUp: true });
      }
    }, 1000);

    const cleanup = () => {
      clearInterval(warmupTicker);
      if (stopTimer) clearTimeout(stopTimer);
      options.signal?.removeEventListener('abort', onAbort);
      for (const worker of workers) void worker.terminate();
    };

    const stopAll = () => {
      if (phaseName === 'done' || phaseName === 'stopping') return;
      phaseName = 'stopping';
      for (const worker of workers) worker.postMessage({ type: 'stop' });
      // A worker that does not answer in time is terminated; what it measured is lost, the rest is kept.
      stopTimer = setTimeout(() => finish(), STOP_GRACE_MS);
    };

    const onAbort = () => {
      cancelled = true;
      if (phaseName === 'connecting') {
        phaseName = 'done';
        cleanup();
        resolve(result('cancelled', {}));
        return;
      }
      stopAll();
    };
    options.signal?.addEventListener('abort', onAbort);

    const measured = () => progress.reduce((sum, p) => sum + p.requests, 0);
    const fraction = () => {
      if (plan.requests !== undefined) return plan.requests === 0 ? 1 : Math.min(1, measured() / plan.requests);
      if (measuringSince === undefined) return 0;
      return Math.min(1, (performance.now() - measuringSince) / plan.durationMs!);
    };

    const finish = () => {
      if (phaseName === 'done') return;
      phaseName = 'done';
      cpuEnd ??= process.cpuUsage(cpuStart);
      measuringEnded ??= performance.now();
      const merged = timeline.finish();
      cleanup();
      const done = results.filter((r): r is WorkerResult => r !== undefined);
      const failed = done.find((r) => r.status === 'failed');
      const status: LoadStatus = failure || failed ? 'failed' : cancelled || done.length < workers.length ? 'cancelled' : 'complete';
      const wall = measuringSince !== undefined ? measuringEnded - measuringSince : 0;
      const cpuPercent = cpuEnd && wall > 0 ? ((cpuEnd.user + cpuEnd.system) / 1000 / wall) * 100 : 0;
      const loadResult = result(status, {
        error: failure ?? failed?.error,
        workers: done,
        timeline: merged,
        cpuPercent,
        // Wall-clock start of measuring, so that runs from several machines line up (rbench merge).
        measuredFrom: measuringSince !== undefined ? new Date(Date.parse(startedAt) + (measuringSince - loadStart)).toISOString() : undefined,
      });
      options.onTick?.({
        elapsedMs: performance.now() - loadStart,
        requests: loadResult.total.requests,
        errors: loadResult.total.errors,
        fraction: status === 'complete' ? 1 : fraction(),
        lastSecond: merged[merged.length - 1],
        warmingUp: false,
      });
      resolve(loadResult);
    };

    workers.forEach((worker, w) => {
      worker.on('message', (message: WorkerToMain) => {
        switch (message.type) {
          case 'ready':
            if (++ready === workers.length && phaseName === 'connecting') {
              phaseName = 'running';
              for (const each of workers) each.postMessage({ type: 'start' });
            }
            break;
          case 'connect-failed':
            if (phaseName === 'connecting') {
              phaseName = 'done';
              cleanup();
              reject(new LoadError(message.message));
            }
            break;
          case 'measuring':
            if (measuringSince === undefined) {
              measuringSince = performance.now();
              cpuStart = process.cpuUsage();
            }
            break;
          case 'second': {
            progress[w] = { requests: message.requests, errors: message.errors };
            if (timeline.add(message.second)) {
              const lastSecond = timeline.close(message.second.t);
              options.onTick?.({
                elapsedMs: performance.now() - loadStart,
                requests: measured(),
                errors: progress.reduce((sum, p) => sum + p.errors, 0),
                fraction: fraction(),
                lastSecond,
                warmingUp: false,
              });
            }
            break;
          }
          case 'result':
            results[w] = message.result;
            if (message.lastSecond) timeline.add(message.lastSecond);
            if (message.result.status === 'failed') {
              failure ??= message.result.error;
              stopAll();
            }
            if (results.every((r, i) => r !== undefined || exited[i])) {
              cpuEnd = process.cpuUsage(cpuStart);
              measuringEnded = performance.now();
              finish();
            }
            break;
        }
      });
      // A worker that dies while connecting fails the load; later, the others stop and what they measured is kept.
      const workerFailed = (message: string, hasExited: boolean) => {
        if (phaseName === 'connecting') {
          phaseName = 'done';
          cleanup();
          reject(new LoadError(message));
          return;
        }
        failure ??= message;
        if (hasExited) exited[w] = true;
        if (hasExited && workers.every((_, i) => results[i] !== undefined || exited[i])) finish();
        else stopAll();
      };
      worker.on('exit', (code) => {
        if (results[w] !== undefined || phaseName === 'done') return;
        workerFailed(`the engine worker stopped unexpectedly (exit code ${code})`, true);
      });
      worker.on('error', (error) => workerFailed(`the engine worker crashed: ${error.stack ?? error.message}`, false));
    });
  });
}
