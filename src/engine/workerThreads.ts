// The load's worker threads, seen from the main thread: starts one per WorkerConfig, starts them together
// once all are connected, stops them on cancellation or a failure, merges their reports into the
// timeline and the progress ticks, and hands their results over when the last one is in.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ClusterTracker } from './cluster/tracker';
import { InThreadLoad } from './inThreadLoad';
import { loadEnded, loadStarting } from './optimizeWhileLoading';
import type { HostedLoad, SharedThreads } from './sharedThreads';
import { LoadError } from './errors';
import type { AssemblyParts } from './resultAssembly';
import { TimelineMerge } from './timelineMerge';
import { hostOnWarmThread } from './warmThreads';
import { RampSteps } from './measure/rampSteps';
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
  /** A small load: its one config runs on this thread (inThreadLoad.ts), not in a worker. */
  inThread?: boolean;
  /** The phase's shared engine threads: this load's configs run on them (sharedThreads.ts), not on workers of its own. */
  shared?: SharedThreads;
  /** The LoadResult of the load as it ended. */
  result(status: LoadStatus, parts: Pick<AssemblyParts, 'error' | 'workers' | 'timeline' | 'cpuPercent' | 'measuredFrom' | 'ramp'>): LoadResult;
}

/** Runs the threads to the end of the load; rejects with a LoadError when they cannot all connect. */
export function runWorkers(configs: WorkerConfig[], run: WorkerRun): Promise<LoadResult> {
  const script = workerScriptPath();
  return new Promise<LoadResult>((resolve, reject) => new LoadThreads(configs, script, run, resolve, reject));
}

type ThreadsPhase = 'connecting' | 'running' | 'stopping' | 'done';

/** One load's threads from start to result: connecting, running, stopping, done (each entered once). */
class LoadThreads {
  private readonly workers: (InThreadLoad | HostedLoad)[];
  private readonly results: (WorkerResult | undefined)[];
  private readonly exited: boolean[];
  private readonly progress: { requests: number; errors: number }[];
  private readonly timeline: TimelineMerge;
  private readonly steps: RampSteps | undefined;
  private readonly warmupTicker: NodeJS.Timeout;
  private readonly onAbort = () => this.abort();
  private ready = 0;
  private phase: ThreadsPhase = 'connecting';
  private measuringSince: number | undefined;
  private cpuStart: NodeJS.CpuUsage | undefined;
  private cpuEnd: NodeJS.CpuUsage | undefined;
  private measuringEnded: number | undefined;
  private failure: string | undefined;
  private cancelled = false;
  private stopTimer: NodeJS.Timeout | undefined;

  constructor(
    configs: WorkerConfig[],
    script: string,
    private readonly run: WorkerRun,
    private readonly resolve: (result: LoadResult) => void,
    private readonly reject: (error: LoadError) => void,
  ) {
    const { plan, options, cluster } = run;
    loadStarting();
    // A shared thread hosts loads of any client path, so it keeps V8's default heap (workerHeap.ts sizes one path's).
    this.workers = run.shared
      ? run.shared.host(script, configs)
      : configs.map((config) => (run.inThread ? new InThreadLoad(script, config) : hostOnWarmThread(script, config)));
    this.results = this.workers.map(() => undefined);
    this.exited = this.workers.map(() => false);
    this.progress = this.workers.map(() => ({ requests: 0, errors: 0 }));
    this.timeline = new TimelineMerge(
      this.workers.length,
      plan.durationMs === undefined,
      cluster ? { onMoved: () => cluster.refresh((topology) => this.workers.forEach((w) => w.postMessage({ type: 'topology', topology }))) } : undefined,
      (this.steps = plan.ramp ? new RampSteps(plan.ramp) : undefined),
    );
    this.warmupTicker = setInterval(() => {
      if (this.phase === 'running' && this.measuringSince === undefined) {
        options.onTick?.({ elapsedMs: performance.now() - run.loadStart, requests: 0, errors: 0, warmingUp: true });
      }
    }, 1000);
    options.signal?.addEventListener('abort', this.onAbort);
    this.workers.forEach((worker, w) => {
      worker.on('message', (message: WorkerToMain) => this.received(w, message));
      worker.on('exit', (code) => {
        if (this.results[w] !== undefined || this.phase === 'done') return;
        this.workerFailed(w, `the engine worker stopped unexpectedly (exit code ${code})`, true);
      });
      // A load on this thread (inThreadLoad.ts) is told a fault thrown here while it ran: it may not be the engine's own.
      const fault = run.inThread ? 'a fault while the load ran' : 'the engine worker crashed';
      worker.on('error', (error) => this.workerFailed(w, `${fault}: ${crashLine(error)}`, false));
    });
  }

  private received(w: number, message: WorkerToMain): void {
    switch (message.type) {
      case 'ready':
        if (++this.ready === this.workers.length && this.phase === 'connecting') {
          const together = this.run.options.startTogether;
          if (together) void together.barrier.arrive(together.index).then(() => this.start());
          else this.start();
        }
        break;
      case 'connect-failed':
        if (this.phase === 'connecting') this.refuse(message.message);
        break;
      case 'measuring':
        if (this.measuringSince === undefined) {
          this.measuringSince = performance.now();
          this.cpuStart = process.cpuUsage();
        }
        break;
      case 'second': {
        this.progress[w] = { requests: message.requests, errors: message.errors };
        if (this.timeline.add(message.second)) {
          const lastSecond = this.timeline.close(message.second.t);
          this.run.options.onTick?.({
            elapsedMs: performance.now() - this.run.loadStart,
            requests: this.measured(),
            errors: this.progress.reduce((sum, p) => sum + p.errors, 0),
            fraction: this.fraction(),
            lastSecond,
            lastSecondLatency: this.timeline.takeLatency(),
            warmingUp: false,
          });
        }
        break;
      }
      case 'result':
        this.results[w] = message.result;
        if (message.lastSecond) this.timeline.add(message.lastSecond);
        if (message.result.status === 'failed') {
          this.failure ??= message.result.error;
          this.stopAll();
        }
        if (this.allAccountedFor()) {
          this.cpuEnd = process.cpuUsage(this.cpuStart);
          this.measuringEnded = performance.now();
          this.finish();
        }
        break;
    }
  }

  /** A worker that dies while connecting fails the load; later, the others stop and what they measured is kept. */
  private workerFailed(w: number, message: string, hasExited: boolean): void {
    if (this.phase === 'connecting') {
      this.refuse(message);
      return;
    }
    this.failure ??= message;
    if (hasExited) this.exited[w] = true;
    if (hasExited && this.allAccountedFor()) this.finish();
    else this.stopAll();
  }

  /** Every thread has sent its result or exited. */
  private allAccountedFor(): boolean {
    return this.results.every((r, i) => r !== undefined || this.exited[i]);
  }

  /** The load never started: it ends as a LoadError with this message. */
  private refuse(message: string): void {
    this.phase = 'done';
    this.cleanup();
    this.reject(new LoadError(message));
  }

  /** All threads connected (and, with a start barrier, every load of it): they start sending. */
  private start(): void {
    if (this.phase !== 'connecting') return; // cancelled or failed while waiting at the barrier
    this.phase = 'running';
    for (const each of this.workers) each.postMessage({ type: 'start' });
  }

  private abort(): void {
    this.cancelled = true;
    if (this.phase === 'connecting') {
      this.phase = 'done';
      this.cleanup();
      this.resolve(this.run.result('cancelled', {}));
      return;
    }
    this.stopAll();
  }

  private stopAll(): void {
    if (this.phase === 'done' || this.phase === 'stopping') return;
    this.phase = 'stopping';
    for (const worker of this.workers) worker.postMessage({ type: 'stop' });
    // A worker that does not answer in time is terminated; what it measured is lost, the rest is kept.
    this.stopTimer = setTimeout(() => this.finish(), STOP_GRACE_MS);
  }

  /** Called once, however the load ends. */
  private cleanup(): void {
    loadEnded();
    clearInterval(this.warmupTicker);
    if (this.stopTimer) clearTimeout(this.stopTimer);
    this.run.options.signal?.removeEventListener('abort', this.onAbort);
    for (const worker of this.workers) void worker.terminate();
  }

  private measured(): number {
    return this.progress.reduce((sum, p) => sum + p.requests, 0);
  }

  private fraction(): number {
    const plan = this.run.plan;
    if (plan.requests !== undefined) return plan.requests === 0 ? 1 : Math.min(1, this.measured() / plan.requests);
    if (this.measuringSince === undefined) return 0;
    return Math.min(1, (performance.now() - this.measuringSince) / plan.durationMs!);
  }

  private finish(): void {
    if (this.phase === 'done') return;
    this.phase = 'done';
    const { options, startedAt, loadStart } = this.run;
    this.cpuEnd ??= process.cpuUsage(this.cpuStart);
    this.measuringEnded ??= performance.now();
    const merged = this.timeline.finish();
    this.cleanup();
    const done = this.results.filter((r): r is WorkerResult => r !== undefined);
    const failed = done.find((r) => r.status === 'failed');
    const status: LoadStatus = this.failure || failed ? 'failed' : this.cancelled || done.length < this.workers.length ? 'cancelled' : 'complete';
    const wall = this.measuringSince !== undefined ? this.measuringEnded - this.measuringSince : 0;
    const cpuPercent = this.cpuEnd && wall > 0 ? ((this.cpuEnd.user + this.cpuEnd.system) / 1000 / wall) * 100 : 0;
    const loadResult = this.run.result(status, {
      error: this.failure ?? failed?.error,
      workers: done,
      timeline: merged,
      ...(this.steps ? { ramp: this.steps.results() } : {}),
      cpuPercent,
      // Wall-clock start of measuring, so that runs from several machines line up (rbench merge).
      measuredFrom: this.measuringSince !== undefined ? new Date(Date.parse(startedAt) + (this.measuringSince - loadStart)).toISOString() : undefined,
    });
    options.onTick?.({
      elapsedMs: performance.now() - loadStart,
      requests: loadResult.total.requests,
      errors: loadResult.total.errors,
      fraction: status === 'complete' ? 1 : this.fraction(),
      lastSecond: merged[merged.length - 1],
      lastSecondLatency: this.timeline.takeLatency(),
      warmingUp: false,
    });
    this.resolve(loadResult);
  }
}

/** A crash as one plain line: its message and where it was thrown (the first frame), never the whole stack. */
export function crashLine(error: Error): string {
  const frame = error.stack
    ?.split('\n')
    .map((line) => line.trim())
    .find((line) => line.startsWith('at '));
  const firstLine = error.message.split('\n')[0] ?? '';
  return frame === undefined ? firstLine : `${firstLine} (${frame})`;
}
