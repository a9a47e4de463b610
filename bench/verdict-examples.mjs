// The examples of docs/reading-the-verdict.md, from real runs: each case starts its own redis-server, runs
// one scenario with `rbench run` against it (as a user's server: nothing is reset), does what the case
// needs while the test runs (BGSAVE, a second client, SIGSTOP, processes that take the CPU) and prints
// each test's verdict as the CLI does.
//   node bench/verdict-examples.mjs [--skip-build] [CASE …]      (cases: see CASES below)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cli, ensureBuilt, startServer } from './lib.mjs';

const args = process.argv.slice(2);
const skipBuild = args.includes('--skip-build');
const wanted = args.filter((a) => !a.startsWith('--'));

const redis = (port, ...command) => spawnSync('redis-cli', ['-p', String(port), ...command], { encoding: 'utf8' }).stdout.trim();
const callsOf = (port, command) =>
  Number(
    /calls=(\d+)/.exec(
      redis(port, 'INFO', 'commandstats')
        .split('\n')
        .find((l) => l.startsWith(`cmdstat_${command}:`)) ?? '',
    )?.[1] ?? 0,
  );
async function whenCalls(port, command, calls) {
  for (let i = 0; i < 200 && callsOf(port, command) < calls; i++) await sleep(25);
}
const fill = (port, keys) =>
  spawnSync('redis-benchmark', ['-p', String(port), '-t', 'set', '-n', String(keys), '-r', String(keys), '-d', '100', '-q', '-P', '32'], { stdio: 'ignore' });

/** Each case: the server's extra config, the scenario, and what happens while it runs. */
const CASES = {
  'round-trip': { scenario: '### one\nclients 1\nduration 2s\nGET k:__rand_int__\n' },
  'server-cpu': {
    scenario: '### lua\nclients 4\nduration 3s\nEVAL "local i = 0 while i < 100000 do i = i + 1 end return i" 0\n',
    cliArgs: ['--allow-destructive'],
  },
  'client-cpu': { scenario: '### busy client\nclients 50\npipeline 16\nthreads 1\nduration 3s\nGET k:__rand_int__\n' },
  'client-starved': {
    scenario: '### starved\nclients 50\nthreads 1\nduration 3s\nGET k:__rand_int__\n',
    during: async () => {
      const hogs = Array.from({ length: 4 }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
      return () => hogs.forEach((h) => h.kill('SIGKILL'));
    },
  },
  persistence: {
    before: (port) => fill(port, 300_000),
    scenario: '### save\nclients 4\nduration 4s\nGET key:__rand_int__\n',
    during: async (server) => {
      await whenCalls(server.port, 'get', 2000);
      await sleep(1000);
      redis(server.port, 'BGSAVE');
    },
  },
  memory: {
    serverArgs: ['--maxmemory', '8mb', '--maxmemory-policy', 'allkeys-lru'],
    scenario: '### fill\nclients 4\nrequests 40000\nkeys 40000 sequential\nvalue 1000\nSET m:__key__ __value__\n',
  },
  'slow-commands': {
    before: (port) => fill(port, 300_000),
    serverArgs: ['--slowlog-log-slower-than', '10000'],
    scenario: '### keys\nclients 1\nduration 2s\nKEYS *\n',
    cliArgs: ['--allow-destructive'],
  },
  'foreign-load': {
    scenario: '### shared\nclients 2\nduration 3s\nGET k:__rand_int__\n',
    during: async (server) => {
      await whenCalls(server.port, 'get', 2000);
      spawnSync('redis-benchmark', ['-p', String(server.port), '-t', 'set', '-n', '20000', '-c', '2', '-q'], { stdio: 'ignore' });
    },
  },
  stall: {
    scenario: '### freeze\nclients 10\nduration 6s\nGET key:__rand_int__\n',
    during: async (server) => {
      await whenCalls(server.port, 'get', 5000);
      await sleep(1500);
      process.kill(server.pid, 'SIGSTOP');
      await sleep(2000);
      process.kill(server.pid, 'SIGCONT');
    },
  },
  mixed: {
    before: (port) => fill(port, 300_000),
    scenario: '### lua and a save\nclients 4\nduration 4s\nEVAL "local i = 0 while i < 100000 do i = i + 1 end return i" 0\n',
    cliArgs: ['--allow-destructive'],
    during: async (server) => {
      await whenCalls(server.port, 'eval', 200);
      await sleep(1000);
      redis(server.port, 'BGSAVE');
    },
  },
};

function verdictLines(run) {
  const lines = [];
  for (const point of run.points)
    for (const load of point.repeats.flat()) {
      const b = load.bottleneck;
      if (!b) continue;
      lines.push(`${point.label ? `${point.label} ` : ''}${load.test} bottleneck: ${b.kind} — ${b.kind === 'mixed' ? '' : b.why}`);
      for (const part of b.parts ?? []) lines.push(`  - ${part.kind} — ${part.why}`);
    }
  return lines;
}

async function runCase(name, spec) {
  const server = await startServer(spec.serverArgs);
  const dir = mkdtempSync(join(tmpdir(), 'rbench-verdicts-run-'));
  try {
    spec.before?.(server.port);
    const file = join(dir, `${name}.rbench`);
    writeFileSync(file, spec.scenario);
    const json = join(dir, 'out.json');
    const child = spawn(
      process.execPath,
      [cli, 'run', file, '--url', `redis://127.0.0.1:${server.port}`, '--yes', '--out', join(dir, 'runs'), '--json', json, ...(spec.cliArgs ?? [])],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stdout += d));
    const exited = new Promise((r) => child.on('exit', r));
    const cleanup = await spec.during?.(server);
    await exited;
    if (typeof cleanup === 'function') cleanup();
    const runs = JSON.parse(readFileSync(json, 'utf8'));
    console.log(`\n## ${name}`);
    for (const run of runs) for (const line of verdictLines(run)) console.log(line);
    for (const line of stdout.split('\n')) if (/^! |^Run complete/.test(line)) console.log(line);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!skipBuild) ensureBuilt();
for (const [name, spec] of Object.entries(CASES)) if (wanted.length === 0 || wanted.includes(name)) await runCase(name, spec);
