// StrykerJS over the gate modules (issue 18): mutate the modules named in RBENCH_MUTATE (comma-separated,
// `path` or `path:startLine-endLine`), build with tsc into out/, and run the compiled unit tests named in
// RBENCH_MUTATION_TESTS. Started by bench/mutation.mjs; too slow for npm test.
//
// The command test runner, not @stryker-mutator/mocha-runner: the latter's releases for Node 20 (Stryker 9)
// accept mocha < 12 only, and this project uses mocha 12. Each mutant therefore runs the listed test files
// in a fresh mocha process (no per-test coverage): keep the list to the modules' own unit tests.
const mutate = (process.env.RBENCH_MUTATE ?? 'src/scenario/commands.ts,src/runner/safety.ts,src/runner/keyGlobs.ts').split(',').filter(Boolean);
const tests = (process.env.RBENCH_MUTATION_TESTS ?? '').split(',').filter(Boolean);

export default {
  mutate,
  testRunner: 'command',
  commandRunner: { command: `node node_modules/mocha/bin/mocha.js --no-config --timeout 30000 ${tests.join(' ')}` },
  buildCommand: 'npx tsc -p . --outDir out',
  coverageAnalysis: 'off',
  checkers: [],
  concurrency: Number(process.env.RBENCH_MUTATION_CONCURRENCY ?? 2),
  timeoutMS: 20000,
  ignorePatterns: ['dist', 'out', '.rbench', '.e2e-cache', '.vscode-test', 'bench/results', 'reports', '*.vsix', 'webview/node_modules'],
  tempDirName: '.stryker-tmp',
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'bench/results/mutation.html' },
  thresholds: { high: 95, low: 90, break: null },
};
