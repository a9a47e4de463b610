// Runs the integration suite (test/integration) in a real VS Code without a desktop build: starts
// code-server on a free loopback port, opens its workbench in headless chromium through playwright-core
// with the smoke-test-driver payload (extensionDevelopmentPath + extensionTestsPath), and exits with
// the suite's exit code. Started by scripts/test-e2e.sh, which installs the tools and passes their
// paths in the environment (see scripts/e2e-setup.sh). Recipe: /work/shared/notes/vscode-e2e.md.
//
// Environment (set by scripts/test-e2e.sh):
//   RBENCH_E2E_CODE_SERVER   code-server launcher       RBENCH_E2E_NODE24_BIN  folder with Node 24's `node`
//   RBENCH_E2E_CHROMIUM      chromium executable        RBENCH_E2E_PLAYWRIGHT  playwright-core package folder
//   RBENCH_E2E_SCRATCH       empty folder for HOME, TMPDIR, profiles (deleted by the caller)
//   RBENCH_E2E_ARTIFACTS     folder for logs and a screenshot (kept)
//   RBENCH_E2E_EXTENSION_ENV optional JSON object of extra environment variables for the extension host
//   RBENCH_E2E_TIMEOUT       seconds for the whole suite (default 120)
//   RBENCH_E2E_VERBOSE=1     also print the workbench's own log lines
//   RBENCH_E2E_ALL_BUILTINS=1  keep every built-in extension enabled (see UNNEEDED_BUILTINS)
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

type Playwright = typeof import('playwright-core');

interface SuiteResult {
  passed: number;
  failed: number;
  pending: number;
  failures: { title: string; error: string }[];
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (run this through scripts/test-e2e.sh)`);
  return value;
}

const repo = path.resolve(__dirname, '../../..');
const scratch = required('RBENCH_E2E_SCRATCH');
const artifacts = process.env.RBENCH_E2E_ARTIFACTS ?? path.join(repo, 'out/e2e');
const suiteTimeoutMs = Number(process.env.RBENCH_E2E_TIMEOUT ?? 120) * 1000;
const verbose = process.env.RBENCH_E2E_VERBOSE === '1';
const started = Date.now();
/** Must match test/integration/index.ts. */
const REPORT_PREFIX = 'rbench-e2e| ';
/**
 * Built-in extensions that start eagerly or spawn language servers and that no test needs: the
 * suite starts only after eager extensions activate (git alone takes seconds on a busy machine).
 * RBENCH_E2E_ALL_BUILTINS=1 keeps them.
 */
const UNNEEDED_BUILTINS = [
  'vscode.git', 'vscode.git-base', 'vscode.github', 'vscode.github-authentication', 'vscode.microsoft-authentication',
  'GitHub.copilot-chat', 'vscode.typescript-language-features', 'vscode.json-language-features', 'vscode.npm',
  'vscode.emmet', 'vscode.configuration-editing', 'vscode.extension-editing', 'vscode.merge-conflict',
  'vscode.debug-auto-launch', 'vscode.tunnel-forwarding', 'vscode.references-view', 'ms-vscode.js-debug',
];
/** Errors the workbench logs because it is offline: harmless, not printed (they stay in browser-console.log). */
const OFFLINE_NOISE = /open-vsx\.org|authentication provider 'github'|ERR_NAME_NOT_RESOLVED|ENOTFOUND|vsda/;

const serverLog = path.join(artifacts, 'code-server.log');
const browserLog = path.join(artifacts, 'browser-console.log');
const resultFile = path.join(artifacts, 'result.json');

function say(message: string): void {
  console.log(`[e2e ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${message}`);
}

function tail(file: string, lines = 40): string {
  if (!existsSync(file)) return `(no ${file})`;
  return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Kills code-server's whole process group: killing only the top process leaves watchers and the extension host behind. */
async function stopServer(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) {
    if (child?.pid) killGroup(child.pid, 'SIGKILL');
    return;
  }
  killGroup(child.pid, 'SIGTERM');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  if ((await Promise.race([exited.then(() => true), sleep(3000).then(() => false)])) === false) killGroup(child.pid, 'SIGKILL');
  killGroup(child.pid, 'SIGKILL'); // stragglers that ignored SIGTERM
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

async function startServer(): Promise<{ child: ChildProcess; port: number }> {
  const userData = path.join(scratch, 'user-data');
  mkdirSync(path.join(userData, 'User'), { recursive: true });
  writeFileSync(
    path.join(userData, 'User/settings.json'),
    JSON.stringify({
      'workbench.startupEditor': 'none',
      'chat.disableAIFeatures': true,
      'telemetry.telemetryLevel': 'off',
      'extensions.autoUpdate': false,
      'extensions.autoCheckUpdates': false,
      'update.mode': 'none',
      'workbench.enableExperiments': false,
      'security.workspace.trust.enabled': false,
    }, null, 2),
  );
  const home = path.join(scratch, 'home');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${required('RBENCH_E2E_NODE24_BIN')}${path.delimiter}${process.env.PATH}`,
    HOME: home,
    TMPDIR: path.join(scratch, 'tmp'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_RUNTIME_DIR: path.join(scratch, 'run'),
    // The server leaves these out of its extension scan (the server's `disable-extension` option does
    // not reach the browser workbench, which decides what runs).
    VSCODE_SKIP_BUILTIN_EXTENSIONS: process.env.RBENCH_E2E_ALL_BUILTINS === '1' ? undefined : UNNEEDED_BUILTINS.join(','),
    // code-server reads these; make sure none from the caller leak in.
    PASSWORD: undefined,
    HASHED_PASSWORD: undefined,
    VSCODE_PROXY_URI: undefined,
  };
  for (const dir of [home, env.TMPDIR!, env.XDG_CONFIG_HOME!, env.XDG_DATA_HOME!, env.XDG_CACHE_HOME!, env.XDG_RUNTIME_DIR!]) mkdirSync(dir, { recursive: true, mode: 0o700 });

  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    appendFileSync(serverLog, `--- attempt ${attempt}: port ${port}\n`);
    const out = openSync(serverLog, 'a');
    const child = spawn(
      required('RBENCH_E2E_CODE_SERVER'),
      [
        '--auth', 'none',
        '--bind-addr', `127.0.0.1:${port}`,
        '--user-data-dir', userData,
        '--extensions-dir', path.join(scratch, 'extensions'),
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        '--disable-file-downloads',
        '--vscode-option', 'enable-smoke-test-driver',
      ],
      // detached = setsid: code-server leads its own process group, so it can be killed as a whole.
      { env, cwd: scratch, detached: true, stdio: ['ignore', out, out] },
    );
    writeFileSync(path.join(scratch, 'code-server.pid'), String(child.pid));
    say(`code-server starting on 127.0.0.1:${port} (pid ${child.pid})`);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) });
        if (response.ok) return { child, port };
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    await stopServer(child);
    const log = tail(serverLog);
    if (attempt < 3 && /EADDRINUSE/.test(log)) continue; // lost the port to someone else: try another
    throw new Error(`code-server did not answer /healthz within 30 s (exit ${child.exitCode ?? child.signalCode ?? 'none'}). Last lines of ${serverLog}:\n${log}`);
  }
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
    context = await playwright.chromium.launchPersistentContext(path.join(scratch, 'chromium-profile'), {
      executablePath: required('RBENCH_E2E_CHROMIUM'),
      headless: true,
      timeout: 30_000,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
      viewport: { width: 1280, height: 800 },
    });
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
  const playwright = (await import(process.env.RBENCH_E2E_PLAYWRIGHT ?? 'playwright-core')) as Playwright;

  let server: { child: ChildProcess; port: number } | undefined;
  let code: number;
  const stop = () => {
    if (server?.child.pid) killGroup(server.child.pid, 'SIGKILL');
    process.exit(130);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    server = await startServer();
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
  console.log(`${result?.passed ?? 0} passed, ${result?.failed ?? 1} failed`);
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
