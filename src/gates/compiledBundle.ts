// A bundle of dist/ compiled as Node compiles a CommonJS file, from V8's code cache of it when given one
// (read and checked by codeCache.ts). Apart from the reading so that an engine thread, which compiles what its main
// thread read and checked, loads neither the file gate nor node:crypto (~4 ms of its start).
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** A bundle's bytes read from dist/, and its code cache when one of these very bytes is there. */
export interface BundleCode {
  /** The bundle, latin1 (esbuild.mjs keeps the bundles ASCII). */
  source: string;
  /** V8's cache of it: checked against the bundle's SHA-1 where it was read (codeCache.ts). */
  cachedData?: Uint8Array;
}

/** A bundle compiled as Node compiles a CommonJS file. */
export interface CompiledBundle {
  script: Script;
  /** Whether a cache was given and V8 took it. */
  cached: boolean;
  /** Runs the bundle's top level (again at each call: new closures, the same compiled functions); its exports. */
  run(): unknown;
}

/**
 * The module wrapper Node itself puts around a CommonJS file. The build writes it into the bundles it runs this way
 * (esbuild.mjs): V8 then compiles and keeps the file's one string, not a second copy with the wrapper added (0.8–1.1
 * MB for dist/cli-main.js, kept to the process's end: issue 46, peak RSS).
 */
export const MODULE_WRAPPER = { head: '(function (exports, require, module, __filename, __dirname) {', tail: '\n})' };

/** Compiles `code` as the CommonJS file `file` (its cache when V8 takes it). */
export function compileBundle(file: string, code: BundleCode): CompiledBundle {
  const wrapped = isWrapped(code.source) ? code.source : `${MODULE_WRAPPER.head} ${code.source}${MODULE_WRAPPER.tail}`;
  const cachedData = code.cachedData ? Buffer.from(code.cachedData.buffer, code.cachedData.byteOffset, code.cachedData.byteLength) : undefined;
  const script = new Script(wrapped, { filename: file, ...(cachedData ? { cachedData } : {}) });
  return {
    script,
    cached: cachedData !== undefined && !script.cachedDataRejected,
    run() {
      const module = { exports: {} };
      (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file));
      return module.exports;
    },
  };
}

/**
 * The bundle `file` compiled without a cache, where none was read (its read failed): as `require` would load it, but
 * understanding the build's wrapper, which `require` would only evaluate (a function made and dropped).
 */
export function requireBundle(file: string): unknown {
  // Required here: the file gate is for this rare path only, not for every engine thread's start.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { readBoundedFile } = require('./files') as typeof import('./files');
  const source = readBoundedFile(file, { root: dirname(file), maxBytes: 64 * 1024 * 1024 }).toString('latin1');
  return compileBundle(file, { source }).run();
}

/** Whether `source` came wrapped from the build (esbuild.mjs: the head as its banner, the tail as its footer, before the source map's comment). */
function isWrapped(source: string): boolean {
  return source.startsWith(MODULE_WRAPPER.head);
}
