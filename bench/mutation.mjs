// Mutation testing of the gate modules (issue 18): StrykerJS with bench/stryker.conf.mjs.
//   node bench/mutation.mjs [--gate NAME] [MODULE[:FROM-TO] …] [--tests out/test/….test.js,…] [--concurrency N]
// --gate picks a gate of the table below (default: classification); modules and tests named on the
// command line replace the gate's.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const tests = option('--tests');
const concurrency = option('--concurrency');

/** The gate modules of issue 18 and the unit tests that pin each down: one table, `--gate NAME` picks one. */
const GATES = {
  classification: {
    modules: ['src/scenario/commands.ts', 'src/scenario/keyEffects.ts', 'src/runner/keyGlobs.ts', 'src/runner/ownKeys.ts', 'src/runner/safety.ts'],
    tests: [
      'out/test/unit/scenario/commands.test.js',
      'out/test/unit/scenario/keyEffects.test.js',
      'out/test/unit/runner/ownKeys.test.js',
      'out/test/unit/scenario/commands.property.test.js',
      'out/test/unit/runner/keyGlobs.test.js',
      'out/test/unit/runner/destructive.test.js',
      'out/test/unit/runner/safety.test.js',
    ],
  },
  consent: { modules: ['src/runner/consent.ts'], tests: ['out/test/unit/runner/consent.test.js'] },
  files: { modules: ['src/gates/files.ts'], tests: ['out/test/unit/gates/files.test.js'] },
  network: { modules: ['src/gates/network.ts'], tests: ['out/test/unit/gates/network.test.js'] },
  sockets: { modules: ['src/redis/clientSocket.ts', 'src/redis/ioredisSockets.ts'], tests: ['out/test/unit/gates/lateTlsError.test.js'] },
  data: { modules: ['src/gates/plainData.ts'], tests: ['out/test/unit/gates/plainData.test.js'] },
  output: { modules: ['src/gates/output.ts'], tests: ['out/test/unit/gates/output.test.js'] },
  // The pass/fail logic (issue 20): `expect` lines, the regression gate, the run's verdict. Pure functions.
  thresholds: {
    modules: ['src/results/thresholds.ts'],
    tests: [
      'out/test/unit/results/thresholds.test.js',
      'out/test/unit/results/results.test.js',
      'out/test/unit/results/percentiles.test.js',
      'out/test/unit/results/verdict.test.js',
    ],
  },
  regression: {
    modules: ['src/results/regression.ts'],
    tests: ['out/test/unit/results/regression.test.js', 'out/test/unit/compare/regression.test.js', 'out/test/unit/compare/serverSide.test.js'],
  },
  verdict: { modules: ['src/results/verdict.ts'], tests: ['out/test/unit/results/verdictRules.test.js', 'out/test/unit/results/verdict.test.js'] },
};
/** All three pass/fail modules in one run, each mutant against all their tests. */
const passFail = ['thresholds', 'regression', 'verdict'].map((name) => GATES[name]);
GATES.passfail = { modules: passFail.flatMap((g) => g.modules), tests: [...new Set(passFail.flatMap((g) => g.tests))] };
const gate = option('--gate') ?? 'classification';
if (!GATES[gate]) {
  console.error(`no gate named ${gate}; the gates are: ${Object.keys(GATES).join(', ')}`);
  process.exit(2);
}
const modules = args.length > 0 ? args : GATES[gate].modules;
const defaultTests = GATES[gate].tests;
const env = {
  ...process.env,
  RBENCH_MUTATE: modules.join(','),
  RBENCH_MUTATION_TESTS: tests ?? defaultTests.join(','),
  ...(concurrency ? { RBENCH_MUTATION_CONCURRENCY: concurrency } : {}),
};
console.log(`mutating ${env.RBENCH_MUTATE}\ntests ${env.RBENCH_MUTATION_TESTS}`);
const result = spawnSync('npx', ['stryker', 'run', 'bench/stryker.conf.mjs'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
