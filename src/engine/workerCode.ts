// The engine's bundle for a thread about to start (dist/ only): dist/worker-main.js and V8's cache of it, read and
// checked on the main thread (gates/codeCache.ts) and handed to the thread in its workerData, so that the thread
// compiles those very bytes from the cache without reading or hashing them itself (workerLaunch.ts).
import { dirname } from 'node:path';
import type { BundleCode } from '../gates/compiledBundle';

/** The engine's bundle in dist/ (src/engine/worker.ts) and its code cache; dist/worker.js is workerLaunch.ts. */
export const WORKER_BUNDLE = 'worker-main.js';
export const WORKER_CACHE = 'worker-main.cache';

/**
 * The bundle beside `script` with its checked cache (unless `withCache` is false); undefined where there is none (tsc's build, whose worker.js is
 * the engine itself) or it cannot be read: the thread then loads its bundle as a module, without the cache.
 */
export function workerCode(script: string, { withCache = true } = {}): (BundleCode & { digest: Buffer }) | undefined {
  try {
    // Required when called: dist/worker.js, which an engine thread runs, takes this module's names, and a thread must
    // not load the file gate and node:crypto it never uses (~4 ms of its start).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { readBundle } = require('../gates/codeCache') as typeof import('../gates/codeCache');
    return readBundle(dirname(script), WORKER_BUNDLE, withCache ? WORKER_CACHE : undefined);
  } catch {
    return undefined;
  }
}
