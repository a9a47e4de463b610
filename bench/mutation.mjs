// Mutation testing of the gate modules (issue 18): StrykerJS with bench/stryker.conf.mjs.
//   node bench/mutation.mjs [MODULE[:FROM-TO] …] [--tests out/test/….test.js,…] [--concurrency N]
// Default modules: the command classification (src/scenario/commands.ts, src/runner/keyGlobs.ts, and
// src/runner/safety.ts up to the consent question). Default tests: their unit tests, compiled to out/.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const tests = option('--tests');
const concurrency = option('--concurrency');

/** safety.ts up to the consent question (remoteQuestion and below belong to the consent gate). */
function classificationPartOfSafety() {
  const lines = readFileSync('src/runner/safety.ts', 'utf8').split('\n');
  const end = lines.findIndex((line) => line.startsWith('export interface RemoteQuestion'));
  return `src/runner/safety.ts:1-${end === -1 ? lines.length : end}`;
}

const modules = args.length > 0 ? args : ['src/scenario/commands.ts', 'src/runner/keyGlobs.ts', classificationPartOfSafety()];
const defaultTests = [
  'out/test/unit/scenario/commands.test.js',
  'out/test/unit/scenario/commands.property.test.js',
  'out/test/unit/runner/keyGlobs.test.js',
  'out/test/unit/runner/destructive.test.js',
  'out/test/unit/runner/safety.test.js',
];
const env = {
  ...process.env,
  RBENCH_MUTATE: modules.join(','),
  RBENCH_MUTATION_TESTS: tests ?? defaultTests.join(','),
  ...(concurrency ? { RBENCH_MUTATION_CONCURRENCY: concurrency } : {}),
};
console.log(`mutating ${env.RBENCH_MUTATE}\ntests ${env.RBENCH_MUTATION_TESTS}`);
const result = spawnSync('npx', ['stryker', 'run', 'bench/stryker.conf.mjs'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
