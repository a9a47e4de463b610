// Entry point of the integration suite, loaded inside a real VS Code extension host: by
// @vscode/test-electron (test/desktop/runTest.ts) or by code-server's test driver (scripts/test-e2e.sh).
// It runs every compiled `*.test.js` next to it with mocha and rejects when a test fails.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export interface SuiteResult {
  passed: number;
  failed: number;
  pending: number;
  failures: { title: string; error: string }[];
}

/** Prefix of every report line: the driver picks these out of the browser console. */
export const REPORT_PREFIX = 'rbench-e2e| ';

/**
 * A spec-like reporter that logs whole, already formatted lines: the extension host forwards console
 * calls to the window without applying `%s` formats, which garbles mocha's own spec reporter.
 */
class LineReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    let depth = 0;
    const print = (line: string) => console.log(`${REPORT_PREFIX}${'  '.repeat(depth)}${line}`);
    runner.on('suite', (suite) => {
      if (suite.title) print(suite.title);
      depth++;
    });
    runner.on('suite end', () => depth--);
    runner.on('pass', (test) => print(`✔ ${test.title} (${test.duration ?? 0} ms)`));
    runner.on('pending', (test) => print(`- ${test.title} (pending)`));
    runner.on('fail', (test, error: Error) => print(`✖ ${test.title}: ${error?.message ?? error}`));
  }
}

export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    // The window needs a few seconds to settle before the first test; later tests are quick.
    timeout: Number(process.env.RBENCH_E2E_TEST_TIMEOUT ?? 20_000),
    grep: process.env.RBENCH_E2E_GREP || undefined,
    reporter: LineReporter,
  });
  const files = readdirSync(__dirname)
    .filter((file) => file.endsWith('.test.js'))
    .sort();
  for (const file of files) mocha.addFile(path.join(__dirname, file));

  return new Promise((resolve, reject) => {
    const result: SuiteResult = { passed: 0, failed: 0, pending: 0, failures: [] };
    try {
      const runner = mocha.run((failures) => {
        // The node-side driver reads this file for the `N passed, N failed` line (the exit code
        // alone cannot tell how many tests ran).
        const file = process.env.RBENCH_E2E_RESULT_FILE;
        if (file) {
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, JSON.stringify(result, null, 2));
        }
        console.log(`${REPORT_PREFIX}${result.passed} passed, ${result.failed} failed, ${result.pending} pending`);
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else resolve();
      });
      runner.on('pass', () => result.passed++);
      runner.on('pending', () => result.pending++);
      runner.on('fail', (test, error: Error) => {
        result.failed++;
        result.failures.push({ title: test.fullTitle(), error: String(error?.stack ?? error) });
      });
    } catch (error) {
      reject(error);
    }
  });
}
