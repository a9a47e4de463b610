// The `rbench` command, dist/cli.js: runs the runner's bundle, dist/cli-main.js, from V8's code cache of it
// (dist/cli-main.cache, written by the build: scripts/codeCache.mjs), so that a start does not parse and
// compile 1.2 MB of JavaScript again: 15–30 ms of CPU of every command, which at deep pipelines shows in
// the client CPU per request. The cache is taken only when it was made from these very bytes (its first
// 20 bytes are the bundle's SHA-1: V8 itself checks little more than the source's length); without it, or
// when V8 refuses it (another Node or other flags), the bundle compiles as any script does.
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Script } from 'node:vm';
import { readBundle } from '../gates/codeCache';
import { compileBundle } from '../gates/compiledBundle';

export const MAIN_BUNDLE = 'cli-main.js';
export const CODE_CACHE = 'cli-main.cache';

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
  const code = readBundle(dir, MAIN_BUNDLE, CODE_CACHE);
  const compiled = compileBundle(join(dir, MAIN_BUNDLE), code);
  return { script: compiled.script, digest: code.digest, cached: compiled.cached, run: () => void compiled.run() };
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
