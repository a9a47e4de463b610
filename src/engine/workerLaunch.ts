// dist/worker.js: an engine thread's script, and the module a small load on the main thread requires (inThreadLoad.ts).
// It runs the engine's bundle, dist/worker-main.js (src/engine/worker.ts), from V8's code cache of it, which the build
// makes (scripts/codeCache.mjs): each thread's start compiled again every function a load calls (10–16 ms of an
// engine thread's CPU, issue 46). A thread compiles the bytes and cache its main thread read and checked (workerCode.ts,
// handed over in its workerData by sharedThreads.ts); given none, it loads the bundle as a module, without a cache.
// tsc's build has no such file: its worker.js is the engine itself.
import { join } from 'node:path';
import { compileBundle, requireBundle, type BundleCode, type CompiledBundle } from '../gates/compiledBundle';
import { threadsModule } from './threadsModule';
import { WORKER_BUNDLE, workerCode } from './workerCode';
import type { LoadPort } from './worker';
import type { WorkerConfig } from './workerMessages';

/** scripts/codeCache.mjs writes the engine's cache under this name, from compiledEngine(). */
export { WORKER_CACHE } from './workerCode';

type Engine = typeof import('./worker');

const bundle = join(__dirname, WORKER_BUNDLE);

if (require.main === module) {
  const data = threadsModule().workerData as { code?: BundleCode } | undefined;
  const code = data?.code;
  // The thread keeps its workerData: the bundle's text and cache (~0.35 MB) would stay with it.
  if (data) delete data.code;
  const engine = (code ? compileBundle(bundle, code).run() : requireBundle(bundle)) as Engine;
  engine.startThread();
}

/** The engine on the main thread; `compiled` and `digest` when it was compiled here (the build writes its cache from them). */
interface MainThreadEngine {
  engine: Engine;
  compiled?: CompiledBundle;
  digest?: Buffer;
}
let onMainThread: MainThreadEngine | undefined;

/** The bundle as compiled on the main thread, once (for small loads). */
export function compiledEngine(): MainThreadEngine {
  if (!onMainThread) {
    const code = workerCode(__filename, { withCache: false });
    // Without the cache: V8 refuses it under the flag the CLI's launcher sets (src/cli/launch.ts), and taken (the
    // flag reset around the compile) it cost a 100-request run ~15 ms more on a V8 helper thread than it saved
    // (issue 46, 20 A B rounds), a 400,000-request one ~7 ms less.
    const compiled = code ? compileBundle(bundle, code) : undefined;
    const engine = (compiled ? compiled.run() : requireBundle(bundle)) as Engine;
    onMainThread = { engine, ...(compiled && code ? { compiled, digest: code.digest } : {}) };
  }
  return onMainThread;
}

/** A load starting on the caller's thread (inThreadLoad.ts), as worker.ts beforeNextLoad. */
export function beforeNextLoad(flagLock: Int32Array, othersRunning: boolean): void {
  compiledEngine().engine.beforeNextLoad(flagLock, othersRunning);
}

/** A load on the caller's thread (inThreadLoad.ts), as worker.ts serveLoad. */
export function serveLoad(port: LoadPort, config: WorkerConfig): () => void {
  return compiledEngine().engine.serveLoad(port, config);
}
