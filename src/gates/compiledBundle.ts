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

/** Compiles `code` as the CommonJS file `file` (its cache when V8 takes it). */
export function compileBundle(file: string, code: BundleCode): CompiledBundle {
  // The module wrapper Node itself puts around a CommonJS file.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${code.source}\n})`;
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
