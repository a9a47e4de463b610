// Runs the integration suite (test/integration) in a real VS Code without a desktop build: starts
// code-server on a free loopback port, opens its workbench in headless chromium through playwright-core
// with the smoke-test-driver payload (extensionDevelopmentPath + extensionTestsPath), and exits with
// the suite's exit code. Started by scripts/test-e2e.sh, which installs the tools and passes their
// paths in the environment (see scripts/e2e-setup.sh). Recipe: docs/testing.md.
// Starting and stopping code-server and chromium: test/e2e/codeServer.ts (shared with test/ui).
//
// Environment (set by scripts/test-e2e.sh):
//   RBENCH_E2E_CODE_SERVER   code-server launcher       RBENCH_E2E_NODE24_BIN  folder with Node 24's `node`
//   RBENCH_E2E_CHROMIUM      chromium executable        RBENCH_E2E_PLAYWRIGHT  playwright-core package folder
//   RBENCH_E2E_SCRATCH       empty folder for HOME, TMPDIR, profiles (deleted by the caller)
//   RBENCH_E2E_ARTIFACTS     folder for logs and a screenshot (kept)
//   RBENCH_E2E_EXTENSION_ENV optional JSON object of extra environment variables for the extension host
//   RBENCH_E2E_TIMEOUT       seconds for the whole suite (default 600)
//   RBENCH_E2E_VERBOSE=1     also print the workbench's own log lines
//   RBENCH_E2E_ALL_BUILTINS=1  keep every built-in extension enabled (see UNNEEDED_BUILTINS in codeServer.ts)
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import {
  killGroup,
  launchChromium,
  loadPlaywright,
  OFFLINE_NOISE,
  required,
  startServer,
  stopServer,
  tail,
  writeUserSettings,
  type Playwright,
} from './codeServer';

interface SuiteResult {
  passed: number;
  failed: number;
  pending: number;
  failures: { title: string; error: string }[];
}

const repo = path.resolve(__dirname, '../../..');
const scratch = required('RBENCH_E2E_SCRATCH');
const artifacts = process.env.RBENCH_E2E_ARTIFACTS ?? path.join(repo, 'out/e2e');
// A guard against a suite that hangs, not a speed budget: each test has its own timeout (test/integration/index.ts).
// The suite took ~100 s on a quiet machine and past 130 s on a busy one, where a 120 s guard ended it mid-run.
const suiteTimeoutMs = Number(process.env.RBENCH_E2E_TIMEOUT ?? 600) * 1000;
const verbose = process.env.RBENCH_E2E_VERBOSE === '1';
const started = Date.now();
/** Must match test/integration/index.ts. */
const REPORT_PREFIX = 'rbench-e2e| ';
const serverLog = path.join(artifacts, 'code-server.log');
const browserLog = path.join(artifacts, 'browser-console.log');
const resultFile = path.join(artifacts, 'result.json');

function say(message: string): void {
  console.log(`[e2e ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${message}`);
}

async function startCodeServer(): Promise<{ child: ChildProcess; port: number }> {
  const userDataDir = path.join(scratch, 'user-data');
  writeUserSettings(userDataDir);
  return startServer({ scratch, log: serverLog, userDataDir, extensionsDir: path.join(scratch, 'extensions'), say });
}

function extensionEnvironment(): Record<string, string> {
  const extra = process.env.RBENCH_E2E_EXTENSION_ENV ? (JSON.parse(process.env.RBENCH_E2E_EXTENSION_ENV) as Record<string, string>) : {};
  const passed: Record<string, string> = { RBENCH_E2E_RESULT_FILE: resultFile };
  for (const name of ['RBENCH_E2E_GREP', 'RBENCH_E2E_TEST_TIMEOUT']) {
    if (process.env[name]) passed[name] = process.env[name]!;
  }
  return { ...passed, ...extra };
}

async function runSuite(playwright: Playwright, port: number): Promise<number> {
  const workspace = path.join(scratch, 'workspace');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(path.join(workspace, 'README.md'), 'Scratch workspace of the RBench integration tests.\n');
  const remote = (file: string) => `vscode-remote://127.0.0.1:${port}${file}`;
  const payload = [
    ['extensionDevelopmentPath', remote(repo)],
    ['extensionTestsPath', remote(path.join(repo, 'out/test/integration/index'))],
    ['extensionEnvironment', JSON.stringify(extensionEnvironment())],
    ['skipWelcome', 'true'],
    ['skipReleaseNotes', 'true'],
  ];
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    context = await launchChromium(playwright, path.join(scratch, 'chromium-profile'));
    say(`chromium started (${context.browser()?.version() ?? 'persistent context'})`);
    page = context.pages()[0] ?? (await context.newPage());

    let exit!: (code: number) => void;
    const exited = new Promise<number>((resolve) => (exit = resolve));
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
      const text = (Array.isArray(args) ? args : [args]).map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' ');
      appendFileSync(browserLog, `[workbench ${type}] ${text}\n`);
      if (verbose || (type === 'error' && !OFFLINE_NOISE.test(text))) say(`workbench ${type}: ${text.split('\n')[0]}`);
    });
    await page.exposeFunction('codeAutomationExit', (code: number, logs?: { relativePath: string; contents: string }[]) => {
      for (const log of logs ?? []) {
        const file = path.join(artifacts, 'vscode-logs', log.relativePath);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, log.contents);
      }
      exit(code);
    });
    page.on('console', (message) => {
      const text = message.text();
      appendFileSync(browserLog, `[console.${message.type()}] ${text}\n`);
      // The suite's report (test/integration/index.ts) comes through the extension host's console.
      const at = text.indexOf(REPORT_PREFIX);
      if (at >= 0) console.log(`  ${text.slice(at + REPORT_PREFIX.length)}`);
    });
    page.on('pageerror', (error) => appendFileSync(browserLog, `[pageerror] ${error.stack ?? error.message}\n`));
    page.on('crash', () => {
      appendFileSync(browserLog, '[crash] the page crashed\n');
      exit(98);
    });

    say('opening the workbench; the suite starts once the extension host is up');
    await page.goto(url, { timeout: 30_000 });
    const timedOut = new Promise<number>((resolve) => {
      timer = setTimeout(() => resolve(-1), suiteTimeoutMs);
    });
    const code = await Promise.race([exited, timedOut]);
    if (code === -1) {
      const shot = path.join(artifacts, 'timeout.png');
      await page.screenshot({ path: shot, timeout: 5000 }).catch(() => undefined);
      console.error(`\ne2e: the suite did not finish within ${suiteTimeoutMs / 1000} s (RBENCH_E2E_TIMEOUT). Screenshot: ${shot}`);
      return 1;
    }
    return code;
  } finally {
    clearTimeout(timer);
    await context?.close().catch(() => undefined);
  }
}

async function main(): Promise<number> {
  mkdirSync(artifacts, { recursive: true });
  for (const stale of ['timeout.png', 'vscode-logs']) rmSync(path.join(artifacts, stale), { recursive: true, force: true });
  for (const file of [serverLog, browserLog, resultFile]) writeFileSync(file, '');
  const playwright = await loadPlaywright();

  let server: { child: ChildProcess; port: number } | undefined;
  let code: number;
  const stop = () => {
    if (server?.child.pid) killGroup(server.child.pid, 'SIGKILL');
    process.exit(130);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    server = await startCodeServer();
    say('code-server is up');
    code = await runSuite(playwright, server.port);
  } catch (error) {
    console.error(`e2e: ${error instanceof Error ? error.message : String(error)}`);
    code = 1;
  } finally {
    await stopServer(server?.child);
  }

  let result: SuiteResult | undefined;
  try {
    result = JSON.parse(readFileSync(resultFile, 'utf8')) as SuiteResult;
  } catch {
    // the suite never reported: it did not start, crashed or timed out
  }
  if (result) {
    for (const failure of result.failures) console.error(`\nFAILED: ${failure.title}\n${failure.error}`);
    if (code === 0 && result.failed > 0) code = 1;
    if (code !== 0 && result.failed === 0) result.failed = 1; // the run failed outside the tests (e.g. the host crashed after them)
  } else {
    console.error(`--- last lines of the browser console (${browserLog}):\n${tail(browserLog, 20)}`);
    console.error(`--- last lines of code-server's log (${serverLog}):\n${tail(serverLog, 20)}`);
    console.error(`e2e: the suite reported no result (exit ${code}); logs in ${artifacts}`);
    if (code === 0) code = 1;
  }
  const total = process.env.RBENCH_E2E_STARTED ? `, ${Math.round(Date.now() / 1000 - Number(process.env.RBENCH_E2E_STARTED))} s in all` : '';
  say(`done, exit ${code}${total}; logs in ${path.relative(process.cwd(), artifacts) || artifacts}`);
  // The closing line CI reads.
  console.log(`${result?.passed ?? 0} passed, ${result?.failed ?? 1} failed, ${result?.pending ?? 0} skipped`);
  return code;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
