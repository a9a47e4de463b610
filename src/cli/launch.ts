// The `rbench` command, dist/cli.js: runs the runner's bundle, dist/cli-main.js, from V8's code cache of it
// (dist/cli-main.cache, written by the build: scripts/codeCache.mjs), so that a start does not parse and
// compile 1.2 MB of JavaScript again: 15–30 ms of CPU of every command, which at deep pipelines shows in
// the client CPU per request. The cache is taken only when it was made from these very bytes (its first
// 20 bytes are the bundle's SHA-1: V8 itself checks little more than the source's length); without it, or
// when V8 refuses it (another Node or other flags), the bundle compiles as any script does.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { readBoundedFile } from '../gates/files';

export const MAIN_BUNDLE = 'cli-main.js';
export const CODE_CACHE = 'cli-main.cache';
const DIGEST_BYTES = 20;
/** Far above the bundle (1.3 MB) and its cache (0.7 MB). */
const MAX_BYTES = 64 * 1024 * 1024;

export interface CompiledMain {
  script: Script;
  /** The bundle's SHA-1, which a cache made of it starts with. */
  digest: Buffer;
  /** Whether a cache of these bytes was found and V8 took it. */
  cached: boolean;
  run(): void;
}

/** Compiles dist/cli-main.js (in `dir`) as Node compiles a CommonJS module, from the code cache when it fits. */
export function compileMain(dir: string): CompiledMain {
  const file = join(dir, MAIN_BUNDLE);
  const source = readBoundedFile(file, { root: dir, maxBytes: MAX_BYTES });
  const digest = createHash('sha1').update(source).digest();
  const cachedData = cacheOf(join(dir, CODE_CACHE), digest);
  // The module wrapper Node itself puts around a CommonJS file; the bundle is ASCII (esbuild.mjs), so latin1 reads it whole.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source.toString('latin1')}\n})`;
  const script = new Script(wrapped, { filename: file, cachedData });
  return {
    script,
    digest,
    cached: cachedData !== undefined && !script.cachedDataRejected,
    run() {
      const module = { exports: {} };
      script.runInThisContext()(module.exports, createRequire(file), module, file, dir);
    },
  };
}

function cacheOf(path: string, digest: Buffer): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readBoundedFile(path, { root: join(path, '..'), maxBytes: MAX_BYTES });
  } catch {
    return undefined; // none (a development build in watch mode makes none): the bundle compiles without it
  }
  return bytes.length > DIGEST_BYTES && bytes.subarray(0, DIGEST_BYTES).equals(digest) ? bytes.subarray(DIGEST_BYTES) : undefined;
}

if (require.main === module) {
  let main: CompiledMain | undefined;
  try {
    main = compileMain(__dirname);
  } catch (error) {
    process.stderr.write(`rbench: cannot start: ${(error as Error).message} — reinstall RBench (or run \`npm run build\` in its checkout)\n`);
    process.exitCode = 70;
  }
  keepNewSpaceSmall();
  main?.run();
}

/**
 * V8 doubles the young generation when many objects survive a scavenge, as while the bundle's top level runs,
 * and keeps it (16 MB here) for the rest of the process, whose steady state allocates little: ~5 MiB of peak RSS
 * of every run (issue 46, bench/memory-flat.mjs; the CPU of 8 A B pairs of runs was the same). Set after the code
 * cache was checked: V8 checks a cache against the flags it was made under.
 */
function keepNewSpaceSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}
