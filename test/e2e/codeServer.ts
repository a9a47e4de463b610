// code-server + headless chromium, shared by the tests that run in a real VS Code: the integration
// suite's driver (test/e2e/driver.ts, scripts/test-e2e.sh) and the UI test that drives the packaged
// extension as a person would (test/ui/driver.ts, scripts/test-ui.sh). The tools come from
// scripts/e2e-setup.sh, passed in the environment. Recipe: docs/testing.md.
//
// Environment (set by the scripts):
//   RBENCH_E2E_CODE_SERVER   code-server launcher       RBENCH_E2E_NODE24_BIN  folder with Node 24's `node`
//   RBENCH_E2E_CHROMIUM      chromium executable        RBENCH_E2E_PLAYWRIGHT  playwright-core package folder
//   RBENCH_E2E_ALL_BUILTINS=1  keep every built-in extension enabled (see UNNEEDED_BUILTINS)
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import type { BrowserContext } from 'playwright-core';

export type Playwright = typeof import('playwright-core');

export interface CodeServer {
  child: ChildProcess;
  port: number;
}

export interface CodeServerOptions {
  /** Scratch folder: HOME, TMPDIR and XDG_* of code-server go under it, and `code-server.pid`. */
  scratch: string;
  /** code-server's output is appended here. */
  log: string;
  userDataDir: string;
  extensionsDir: string;
  /** Progress lines. */
  say?: (message: string) => void;
  /**
   * `--vscode-option enable-smoke-test-driver` (default true): needed for the integration suite's
   * payload, but it also stops notifications from showing as toasts, so the UI test turns it off.
   */
  smokeTestDriver?: boolean;
}

export function required(name: string, script = 'scripts/test-e2e.sh'): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (run this through ${script})`);
  return value;
}

/**
 * Built-in extensions that start eagerly or spawn language servers and that no test needs: tests start
 * only after eager extensions activate (git alone takes seconds on a busy machine).
 * RBENCH_E2E_ALL_BUILTINS=1 keeps them.
 */
export const UNNEEDED_BUILTINS = [
  'vscode.git',
  'vscode.git-base',
  'vscode.github',
  'vscode.github-authentication',
  'vscode.microsoft-authentication',
  'GitHub.copilot-chat',
  'vscode.typescript-language-features',
  'vscode.json-language-features',
  'vscode.npm',
  'vscode.emmet',
  'vscode.configuration-editing',
  'vscode.extension-editing',
  'vscode.merge-conflict',
  'vscode.debug-auto-launch',
  'vscode.tunnel-forwarding',
  'vscode.references-view',
  'ms-vscode.js-debug',
];

/** Errors the workbench logs because it is offline: harmless, not printed. */
export const OFFLINE_NOISE = /open-vsx\.org|authentication provider 'github'|ERR_NAME_NOT_RESOLVED|ENOTFOUND|vsda/;

/** User settings that keep the workbench quiet: nothing steals focus or goes online. */
export const QUIET_USER_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'chat.disableAIFeatures': true,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'update.mode': 'none',
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function tail(file: string, lines = 40): string {
  if (!existsSync(file)) return `(no ${file})`;
  return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
}

export function freePort(): Promise<number> {
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

export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Kills code-server's whole process group: killing only the top process leaves watchers and the extension host behind. */
export async function stopServer(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) {
    if (child?.pid) killGroup(child.pid, 'SIGKILL');
    return;
  }
  killGroup(child.pid, 'SIGTERM');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  if ((await Promise.race([exited.then(() => true), sleep(3000).then(() => false)])) === false) killGroup(child.pid, 'SIGKILL');
  killGroup(child.pid, 'SIGKILL'); // stragglers that ignored SIGTERM
}

/** code-server's environment: Node 24 first on PATH, HOME/TMPDIR/XDG_* inside the scratch folder (created). */
export function codeServerEnv(scratch: string): NodeJS.ProcessEnv {
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
  for (const dir of [home, env.TMPDIR!, env.XDG_CONFIG_HOME!, env.XDG_DATA_HOME!, env.XDG_CACHE_HOME!, env.XDG_RUNTIME_DIR!])
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  return env;
}

/** Writes the profile's user settings: QUIET_USER_SETTINGS plus `extra`. */
export function writeUserSettings(userDataDir: string, extra: Record<string, unknown> = {}): void {
  mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  writeFileSync(path.join(userDataDir, 'User/settings.json'), JSON.stringify({ ...QUIET_USER_SETTINGS, ...extra }, null, 2));
}

/** `code-server --install-extension x.vsix` into `extensionsDir` (offline; a .vsix needs no marketplace). */
export function installExtension(options: Omit<CodeServerOptions, 'say' | 'smokeTestDriver'> & { vsix: string }): Promise<void> {
  const out = openSync(options.log, 'a');
  const child = spawn(
    required('RBENCH_E2E_CODE_SERVER'),
    ['--user-data-dir', options.userDataDir, '--extensions-dir', options.extensionsDir, '--install-extension', options.vsix],
    { env: codeServerEnv(options.scratch), cwd: options.scratch, detached: true, stdio: ['ignore', out, out] },
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      if (child.pid) killGroup(child.pid, 'SIGKILL');
      reject(new Error(`code-server --install-extension did not finish within 60 s; see ${options.log}`));
    }, 60_000);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (child.pid) killGroup(child.pid, 'SIGKILL');
      if (code === 0) resolve();
      else reject(new Error(`code-server --install-extension exited with ${code ?? signal}. Last lines of ${options.log}:\n${tail(options.log, 15)}`));
    });
  });
}

/** Starts code-server on a free loopback port and waits for /healthz (retries on a lost port race). */
export async function startServer(options: CodeServerOptions): Promise<CodeServer> {
  const say = options.say ?? (() => undefined);
  const env = codeServerEnv(options.scratch);
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    appendFileSync(options.log, `--- attempt ${attempt}: port ${port}\n`);
    const out = openSync(options.log, 'a');
    const child = spawn(
      required('RBENCH_E2E_CODE_SERVER'),
      [
        '--auth',
        'none',
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--user-data-dir',
        options.userDataDir,
        '--extensions-dir',
        options.extensionsDir,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        '--disable-file-downloads',
        ...(options.smokeTestDriver === false ? [] : ['--vscode-option', 'enable-smoke-test-driver']),
      ],
      // detached = setsid: code-server leads its own process group, so it can be killed as a whole.
      { env, cwd: options.scratch, detached: true, stdio: ['ignore', out, out] },
    );
    writeFileSync(path.join(options.scratch, 'code-server.pid'), String(child.pid));
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
    const log = tail(options.log);
    if (attempt < 3 && /EADDRINUSE/.test(log)) continue; // lost the port to someone else: try another
    throw new Error(
      `code-server did not answer /healthz within 30 s (exit ${child.exitCode ?? child.signalCode ?? 'none'}). Last lines of ${options.log}:\n${log}`,
    );
  }
}

/** Headless chromium (the Debian one) with a fresh profile in `profileDir`. */
/** `showScrollbars`: keep the page's native scrollbars, which headless chromium hides, for screenshots a reader scrolls in. */
export async function launchChromium(
  playwright: Playwright,
  profileDir: string,
  viewport = { width: 1280, height: 800 },
  showScrollbars = false,
): Promise<BrowserContext> {
  return playwright.chromium.launchPersistentContext(profileDir, {
    ignoreDefaultArgs: showScrollbars ? ['--hide-scrollbars'] : undefined,
    executablePath: required('RBENCH_E2E_CHROMIUM'),
    headless: true,
    timeout: 30_000,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
    viewport,
  });
}

/** playwright-core from RBENCH_E2E_PLAYWRIGHT (the setup script's copy) or the checkout's node_modules. */
export async function loadPlaywright(): Promise<Playwright> {
  return (await import(process.env.RBENCH_E2E_PLAYWRIGHT ?? 'playwright-core')) as Playwright;
}
