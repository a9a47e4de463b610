// Shared helpers for the bench scripts: a throwaway redis-server, running commands, medians.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const cli = join(root, 'dist', 'cli.js');

/**
 * RBENCH_BENCH_PIN=1: the server on the first core, each measured client on the last (taskset), both tools alike.
 * On the 2-core VM a 100-request run's CPU then varied ±5 ms from round to round instead of ±50: nothing migrates,
 * and server and client no longer take each other's core (issue 46, sixth pass). A client's helper threads share
 * its core: compare rows measured the same way.
 */
const pinned = process.env.RBENCH_BENCH_PIN === '1' && existsSync('/usr/bin/taskset') && availableParallelism() >= 2;

/** [command, args] on `core` ('server' or 'client') when pinned; as given otherwise. */
export function onCore(core, command, args) {
  if (!pinned) return [command, args];
  const cpu = core === 'server' ? 0 : availableParallelism() - 1;
  return ['/usr/bin/taskset', ['-c', String(cpu), command, ...args]];
}

export function ensureBuilt() {
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stdout}${result.stderr}`);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Starts redis-server with persistence off and `extra` arguments; returns { port, pid, flush, stop } (stop resumes a stopped server first). */
export async function startServer(extra = []) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'rbench-bench-'));
  const child = spawn(
    ...onCore('server', 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...extra]),
    {
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 100; i++) {
    const ping = spawnSync('redis-cli', ['-p', String(port), 'PING'], { encoding: 'utf8' });
    if (ping.stdout.trim() === 'PONG') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    pid: child.pid,
    flush: () => spawnSync('redis-cli', ['-p', String(port), 'FLUSHALL']),
    stop: async () => {
      if (child.exitCode === null) process.kill(child.pid, 'SIGCONT');
      child.kill('SIGTERM');
      await new Promise((r) => child.on('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * spawnSync under /usr/bin/time: the result plus the child's CPU time (user + sys, ms), which Node's
 * spawnSync does not report. Without /usr/bin/time, cpuMs is NaN.
 */
export function spawnTimed(command, args, options = {}) {
  [command, args] = onCore('client', command, args);
  if (!existsSync('/usr/bin/time')) return { ...spawnSync(command, args, { encoding: 'utf8', ...options }), cpuMs: NaN };
  const dir = mkdtempSync(join(tmpdir(), 'rbench-bench-time-'));
  try {
    const out = join(dir, 'time');
    const result = spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', out, command, ...args], { encoding: 'utf8', ...options });
    const [user, sys] = readFileSync(out, 'utf8').trim().split('\n').pop().split(' ').map(Number);
    return { ...result, cpuMs: (user + sys) * 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One timed redis-benchmark run of test `c.test` (`-n c.requests -c c.clients -P c.pipeline -d c.size -r c.keyspace`,
 * plus `extraArgs` first, e.g. `--cluster -h 127.0.0.1`) against `port`, read from its `--csv` line: ops/s, and the
 * process's CPU (user + sys) in ms. `binary`: another tool of the same options and output (a built valkey-benchmark).
 */
export function redisBenchmarkRun(port, c, extraArgs = [], binary = 'redis-benchmark') {
  const args = [...extraArgs, '-p', String(port), '-t', c.test, '-n', String(c.requests), '-c', String(c.clients), '-P', String(c.pipeline)];
  args.push('-d', String(c.size), '-r', String(c.keyspace), '--csv');
  const result = spawnTimed(binary, args);
  const line = result.stdout
    .trim()
    .split('\n')
    .find((l) => l.startsWith(`"${c.test.toUpperCase()}"`));
  if (!line) throw new Error(`${binary} printed no result: ${result.stdout}${result.stderr}`);
  return { opsPerSec: Number(JSON.parse(`[${line}]`)[1]), cpuMs: result.cpuMs };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Runs a scenario text with `rbench run`; returns the parsed run files (and, timed, `cpuMs` of the process).
 * `cliPath` runs another build (an older checkout's dist/cli.js, for a before/after comparison).
 */
export function rbenchRun(scenarioText, url, extraArgs = [], { timed = false, cliPath = cli } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'rbench-bench-run-'));
  try {
    const file = join(dir, 'bench.rbench');
    writeFileSync(file, scenarioText);
    const json = join(dir, 'out.json');
    // --yes: the bench started this server itself (the consent gate asks before any other target).
    const args = [cliPath, 'run', file, '--url', url, '--yes', '--out', join(dir, 'runs'), '--json', json, '--quiet', ...extraArgs];
    const result = timed ? spawnTimed(process.execPath, args) : spawnSync(process.execPath, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`rbench run failed (${result.status}): ${result.stderr}`);
    const runs = JSON.parse(readFileSync(json, 'utf8'));
    return timed ? Object.assign(runs, { cpuMs: result.cpuMs }) : runs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Peak resident memory (VmHWM) of a process, in bytes; 0 when unknown (not Linux, or it has exited). */
export function peakRss(pid) {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
