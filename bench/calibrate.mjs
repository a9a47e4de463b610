// Calibration of the bottleneck verdict: conditions whose cause is controlled (a CPU cap, a hog pinned beside
// one side, a heavy script), each run several times against its own redis-server with `rbench run`, and the
// verdict each run got set against the cause it was given: a confusion matrix (expected × got), the share
// right, and every run whose advice contradicts its cause.
//   node bench/calibrate.mjs [--skip-build] [--runs N] [--record] [NAME …]
// --record saves each run's evidence (the run file's measured load results, with the expected kind) as
// test/fixtures/verdicts/<name>-<i>.json, which test/unit/results/verdictFixtures.test.ts judges again.
//
// The conditions are open: every module in bench/calibration/*.mjs exports `conditions`, an array of
//   { name, expected, scenario, serverArgs?, cliArgs?, before?(ctx), during?(ctx) }
//   name        unique, kebab-case (the fixture's file name)
//   expected    the verdict kind the cause must give (`server-cpu`), or an array of kinds each of which is right
//   scenario    the .rbench text run with `rbench run --yes` against the condition's own server
//   serverArgs  extra redis-server arguments (`['--slowlog-log-slower-than', '0']`)
//   cliArgs     extra `rbench run` arguments (`['--allow-destructive']`)
//   before(ctx) awaited before the client starts (fill the server, cap or pin the server)
//   during(ctx) awaited right after the client starts; it may return a function called when the run ends
// and ctx is { server: { port, pid }, client: { pid } (during only), redis(...args) → reply text (redis-cli),
// whenCalls(command, n) (waits until the server counted n calls of it), hog(cpus?) (a busy loop, pinned when
// cpus is given: '0'), pin(pid, cpus) (taskset every thread), cap(pid or [pids], share) (a cgroup with
// `share` of one core, shared by the pids given; v2 cpu.max, else v1 cpu.cfs_quota_us), first(pid or [pids]) (a
// cgroup served before all else: v2 cpu.weight 10000, v1 cpu.shares 262144), sleep(ms) }. Every hog, cap and pin is undone
// after the run, whatever happened.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { cli, ensureBuilt, root, startServer } from './lib.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const runs = option('--runs', 3);
const record = args.includes('--record');
const wanted = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs');

/** Every condition of every module in bench/calibration/. */
async function loadConditions() {
  const folder = join(root, 'bench', 'calibration');
  const all = [];
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith('.mjs'))
    .sort()) {
    const module = await import(pathToFileURL(join(folder, file)).href);
    for (const condition of module.conditions ?? []) all.push({ ...condition, module: file });
  }
  const names = all.map((c) => c.name);
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  if (twice.length) throw new Error(`conditions named twice: ${twice.join(', ')}`);
  return all;
}

const redisCli = (port, ...command) => spawnSync('redis-cli', ['-p', String(port), ...command], { encoding: 'utf8' }).stdout.trim();

/**
 * A cgroup holding `share` of one core, or (share undefined) served first (the highest weight: nice alone does not
 * do it, the scheduler's autogroups share the CPU per session), with `pids` moved in; undone by the returned function.
 */
function cgroupCap(pids, share) {
  const unified = '/sys/fs/cgroup';
  const v2 = existsSync(join(unified, 'cgroup.controllers')) && readFileSync(join(unified, 'cgroup.controllers'), 'utf8').split(/\s+/).includes('cpu');
  const base = v2 ? unified : '/sys/fs/cgroup/cpu';
  const dir = join(base, `rbench-calibrate-${process.pid}-${[pids].flat()[0]}`);
  mkdirSync(dir);
  const quota = String(Math.round((share ?? 1) * 100_000));
  if (v2) {
    if (!readFileSync(join(unified, 'cgroup.subtree_control'), 'utf8').includes('cpu')) appendFileSync(join(unified, 'cgroup.subtree_control'), '+cpu');
    writeFileSync(join(dir, share === undefined ? 'cpu.weight' : 'cpu.max'), share === undefined ? '10000' : `${quota} 100000`);
  } else if (share === undefined) writeFileSync(join(dir, 'cpu.shares'), '262144');
  else {
    writeFileSync(join(dir, 'cpu.cfs_period_us'), '100000');
    writeFileSync(join(dir, 'cpu.cfs_quota_us'), quota);
  }
  for (const pid of [pids].flat()) writeFileSync(join(dir, 'cgroup.procs'), String(pid));
  return () => {
    for (const member of readFileSync(join(dir, 'cgroup.procs'), 'utf8').split(/\s+/).filter(Boolean)) {
      try {
        writeFileSync(join(base, 'cgroup.procs'), member);
      } catch {
        // Gone meanwhile.
      }
    }
    rmdirSync(dir);
  };
}

/** The context a condition's hooks get; `undo` collects what to take back after the run. */
function contextFor(server, undo) {
  return {
    server: { port: server.port, pid: server.pid },
    redis: (...command) => redisCli(server.port, ...command),
    whenCalls: async (command, calls) => {
      const count = () =>
        Number(
          /calls=(\d+)/.exec(
            redisCli(server.port, 'INFO', 'commandstats')
              .split('\n')
              .find((l) => l.startsWith(`cmdstat_${command}:`)) ?? '',
          )?.[1] ?? 0,
        );
      for (let i = 0; i < 400 && count() < calls; i++) await sleep(25);
    },
    hog: (cpus) => {
      const hog = spawn(cpus === undefined ? process.execPath : 'taskset', [...(cpus === undefined ? [] : ['-c', cpus, process.execPath]), '-e', 'for(;;){}'], {
        stdio: 'ignore',
      });
      undo.push(() => hog.kill('SIGKILL'));
    },
    pin: (pid, cpus) => {
      spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    },
    cap: (pid, share) => undo.push(cgroupCap(pid, share)),
    first: (pids) => undo.push(cgroupCap(pids, undefined)),
    sleep,
  };
}

/** One run of a condition: its measured loads, or an error. */
async function runOnce(condition) {
  const server = await startServer(condition.serverArgs);
  const dir = mkdtempSync(join(tmpdir(), 'rbench-calibrate-run-'));
  const undo = [];
  try {
    const ctx = contextFor(server, undo);
    await condition.before?.(ctx);
    const file = join(dir, `${condition.name}.rbench`);
    writeFileSync(file, condition.scenario);
    const json = join(dir, 'out.json');
    const child = spawn(
      process.execPath,
      [cli, 'run', file, '--url', `redis://127.0.0.1:${server.port}`, '--yes', '--out', join(dir, 'runs'), '--json', json, ...(condition.cliArgs ?? [])],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise((r) => child.on('exit', r));
    const after = await condition.during?.({ ...ctx, client: { pid: child.pid } });
    if (typeof after === 'function') undo.push(after);
    const code = await exited;
    if (code !== 0) return { error: `rbench run exited ${code}: ${output.trim().split('\n').slice(-3).join(' / ')}` };
    const run = JSON.parse(readFileSync(json, 'utf8'))[0];
    return { loads: run.points.flatMap((point) => point.repeats.flat()) };
  } finally {
    for (const step of undo.reverse()) {
      try {
        step();
      } catch (error) {
        console.error(`undo failed: ${error.message}`);
      }
    }
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const kindsOf = (verdict) => (verdict?.parts ? verdict.parts.map((p) => p.kind) : [verdict?.kind ?? 'none']);
/** Advice that contradicts a cause: "add clients" where a side was at its limit, "free the machine" where nothing waited. */
function contradicts(expected, verdict) {
  const text = JSON.stringify(verdict ?? {});
  const limited = expected.some((kind) => kind !== 'round-trip');
  return (limited && /add clients or pipeline/.test(text)) || (expected.includes('round-trip') && /free the machine|understate the server/.test(text));
}

if (!args.includes('--skip-build')) ensureBuilt();
const conditions = (await loadConditions()).filter((c) => wanted.length === 0 || wanted.includes(c.name));
const results = [];
for (const condition of conditions) {
  const expected = [condition.expected].flat();
  for (let i = 0; i < runs; i++) {
    const outcome = await runOnce(condition);
    const load = outcome.loads?.[0];
    const got = outcome.error ? 'error' : kindsOf(load.bottleneck).join('+');
    const right = !outcome.error && kindsOf(load.bottleneck).length === 1 && expected.includes(load.bottleneck.kind);
    const contradiction = !outcome.error && contradicts(expected, load.bottleneck);
    results.push({ name: condition.name, expected: expected.join('|'), got, right, contradiction });
    console.log(`${condition.name} #${i + 1}: ${got}${right ? '' : '  ✗'}${contradiction ? '  advice contradicts the cause' : ''}`);
    console.log(`    ${outcome.error ?? load.bottleneck?.why}`);
    if (record && load) {
      // The evidence the verdict reads; the per-second timeline is left out (the verdict does not read it).
      const loads = outcome.loads.map(({ timeline: _timeline, ...rest }) => rest);
      const fixture = { condition: condition.name, expected, scenario: condition.scenario, loads };
      writeFileSync(join(root, 'test', 'fixtures', 'verdicts', `${condition.name}-${i + 1}.json`), `${JSON.stringify(fixture, null, 1)}\n`);
    }
  }
}

// The confusion matrix: a row per expected kind, a column per verdict got.
const rows = [...new Set(results.map((r) => r.expected))];
const columns = [...new Set(results.map((r) => r.got))].sort();
const width = Math.max(14, ...columns.map((c) => c.length));
console.log(`\n${'expected \\ got'.padEnd(24)}${columns.map((c) => c.padStart(width + 1)).join('')}`);
for (const row of rows) {
  const cells = columns.map((c) => String(results.filter((r) => r.expected === row && r.got === c).length || '.').padStart(width + 1));
  console.log(`${row.padEnd(24)}${cells.join('')}`);
}
const right = results.filter((r) => r.right).length;
const contradictions = results.filter((r) => r.contradiction);
console.log(
  `\n${right} of ${results.length} right (${Math.round((right / Math.max(1, results.length)) * 100)} %); advice contradicting the cause: ${contradictions.length}`,
);
for (const r of contradictions) console.log(`  ${r.name}: ${r.got}`);
