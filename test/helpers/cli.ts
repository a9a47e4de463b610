// Runs the built `rbench` command (dist/cli.js) as a user would, in a scratch folder.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunFile } from '../../src/results/runFile';

export const repoRoot = resolve(__dirname, '..', '..', '..');
export const cliPath = join(repoRoot, 'dist', 'cli.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRun {
  /** Resolves when the process exits. */
  done: Promise<CliResult>;
  /** Sends a signal (SIGINT to cancel). */
  kill(signal: NodeJS.Signals): void;
  /** Resolves once stderr or stdout has printed text matching the pattern. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Everything printed so far (stdout, then stderr). */
  output(): string;
}

/** How a test starts the CLI. `launcher`: a command it is started through (a CPU cap's, test/helpers/cpuCap.ts), which execs it; `cli`: another build's cli.js (a copy of dist/). */
export interface CliOptions {
  cwd: string;
  env?: Record<string, string>;
  launcher?: string[];
  cli?: string;
}

export function startCli(args: string[], options: CliOptions): CliRun {
  const cli = options.cli ?? cliPath;
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
  const [command, ...prefix] = [...(options.launcher ?? []), process.execPath];
  const child = spawn(command, [...prefix, cli, ...args], { cwd: options.cwd, env: { ...process.env, ...options.env } });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(stdout + stderr)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  child.stdout.on('data', (chunk) => ((stdout += chunk), check()));
  child.stderr.on('data', (chunk) => ((stderr += chunk), check()));
  const done = new Promise<CliResult>((resolveDone) => child.on('close', (code) => resolveDone({ code, stdout, stderr })));
  return {
    done,
    kill: (signal) => child.kill(signal),
    output: () => stdout + stderr,
    waitFor: (pattern, timeoutMs = 15_000) =>
      new Promise<void>((resolveWait, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; output so far:\n${stdout}${stderr}`)), timeoutMs);
        waiters.push({ pattern, resolve: () => (clearTimeout(timer), resolveWait()) });
        check();
      }),
  };
}

export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  return startCli(args, options).done;
}

/** A scratch folder with helpers to write scenario files and read the run files written into it. */
export class Scratch {
  readonly dir = mkdtempSync(join(tmpdir(), 'rbench-cli-test-'));

  write(name: string, text: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, text);
    return path;
  }

  runFiles(folder = '.rbench/runs'): RunFile[] {
    const path = join(this.dir, folder);
    if (!existsSync(path)) return [];
    return readdirSync(path)
      .filter((name) => name.endsWith('.rbench-run.json'))
      .sort()
      .map((name) => JSON.parse(readFileSync(join(path, name), 'utf8')) as RunFile);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Call inside a `describe`: a fresh scratch folder for every test, removed after it. The returned object
 * always stands for the current test's folder.
 */
export function useScratch(): Pick<Scratch, 'dir' | 'write' | 'runFiles'> {
  let current: Scratch | undefined;
  beforeEach(() => (current = new Scratch()));
  afterEach(() => {
    current?.remove();
    current = undefined;
  });
  const now = (): Scratch => {
    if (!current) throw new Error('the scratch folder exists only while a test runs (use it inside a test or hook)');
    return current;
  };
  return {
    get dir() {
      return now().dir;
    },
    write: (name, text) => now().write(name, text),
    runFiles: (folder) => now().runFiles(folder),
  };
}
