// Writes dist/cli-main.cache, the code cache dist/cli.js starts the runner from (src/cli/launch.ts): the
// runner is compiled, checks the shipped examples (so the language's functions are compiled too, not only
// the bundle's top level), and at exit V8's cache of everything compiled is written after the bundle's SHA-1.
// Run by esbuild.mjs after each build, in a `node` of its own with no flags: V8 refuses a cache made under other flags.
import { readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const dist = resolve('dist');
const { compileMain, CODE_CACHE } = createRequire(import.meta.url)(join(dist, 'cli.js'));
const main = compileMain(dist);
const examples = readdirSync('examples').filter((name) => name.endsWith('.rbench')).map((name) => join('examples', name));
process.argv = [process.argv[0], join(dist, 'cli.js'), 'check', ...examples];
process.on('exit', () => {
  writeFileSync(join(dist, CODE_CACHE), Buffer.concat([main.digest, main.script.createCachedData()]));
  process.exitCode = 0;
});
main.run();
