// Calibration of the bottleneck verdict (issue 41): conditions whose cause is controlled (a CPU cap, a hog pinned
// beside one side, a heavy script, fsync, a fork, a memory limit, another client's load, a freeze, an open-loop
// schedule, a lossy path), each run several times against its own redis-server with `rbench run`, and the verdict
// each run got set against the cause it was given: a confusion matrix (expected × got), the share right, and every
// run whose advice contradicts its cause. Needs root (cgroups, taskset, network namespaces).
//   sudo node bench/calibrate.mjs [--skip-build] [--runs N] [--record] [NAME …]
// --record saves each run's evidence (the run file's measured load results, with the expected kind) as
// test/fixtures/verdicts/<name>-<i>.json, which test/unit/results/verdictFixtures.test.ts judges again.
//
// The conditions are open: every module in bench/calibration/*.mjs exports `conditions`, an array of
//   { name, expected, scenario, serverArgs?, cliArgs?, path?, before?(ctx), during?(ctx) }
//   name        unique, kebab-case (the fixture's file name)
//   expected    the verdict kind the cause must give (`server-cpu`), or an array of kinds each of which is right;
//               `!kind` (`!persistence`) a kind that must NOT hold. A kind holds when it is the verdict or a part
//               of `mixed`; a run is right when an expected kind holds (for `!kind`: when that kind does not)
//   scenario    the .rbench text run with `rbench run --yes` against the condition's own server
//   serverArgs  extra redis-server arguments (`['--slowlog-log-slower-than', '0']`; not with `path`)
//   cliArgs     extra `rbench run` arguments (`['--allow-destructive']`)
//   path        a shaped loopback in bench/netdelay's condition form (`0ms/1%`): the server and `rbench run`
//               then run in a network namespace of their own behind the packet shaper (netem, else the NFQUEUE
//               dropper: iptables, gcc, libnetfilter-queue-dev)
//   before(ctx) awaited before the client starts (fill the server, cap or pin the server)
//   during(ctx) awaited right after the client starts; it may return a function called when the run ends
// and ctx is { server: { host, port, pid }, client: { pid } (during only), redis(...args) → Promise of the reply
// text (redis-cli; inside the namespace over the server's unix socket), tool(command, args) → Promise of
// { status, stdout, stderr } (a command run to its end beside the server: in the namespace when there is one),
// whenCalls(command, n) (waits, at most 10 s, until the server counted n calls of it), hog(cpus?) (a busy loop,
// pinned when cpus is given: '0'), pin(pid, cpus) (taskset every thread), cap(pid or [pids], share) (a cgroup with
// `share` of one core, shared by the pids given; v2 cpu.max, else v1 cpu.cfs_quota_us), first(pid or [pids]) (a
// cgroup served before all else: v2 cpu.weight 10000, v1 cpu.shares 262144), sleep(ms) }. Every hog, cap and pin
// is undone after the run, and the server (and its namespace) goes, whatever happened.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { cli, ensureBuilt, root, startServer } from './lib.mjs';
import { parseCondition } from './netdelay/conditions.mjs';
import { createNamespace, run, startRedis } from './netdelay/namespace.mjs';
import { startShaper } from './netdelay/shapers.mjs';

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
  const redis = (...command) => server.redis(...command);
  return {
    server: { host: server.host, port: server.port, pid: server.pid },
    redis,
    tool: (command, args) => server.exec(command, args),
    whenCalls: async (command, calls) => {
      const count = async () =>
        Number(/calls=(\d+)/.exec((await redis('INFO', 'commandstats')).split('\n').find((l) => l.startsWith(`cmdstat_${command}:`)) ?? '')?.[1] ?? 0);
      for (let i = 0; i < 400 && (await count()) < calls; i++) await sleep(25);
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

/** A redis-server on the host with the condition's arguments (DEBUG allowed: `DEBUG POPULATE` fills it). */
async function hostServer(serverArgs = []) {
  const server = await startServer(['--enable-debug-command', 'yes', ...serverArgs]);
  return {
    host: '127.0.0.1',
    port: server.port,
    pid: server.pid,
    redis: (...command) => run('redis-cli', ['-p', String(server.port), ...command], { allowFail: true }).then((r) => r.stdout.trim()),
    exec: (command, commandArgs) => run(command, commandArgs, { allowFail: true }),
    spawn: (command, commandArgs) => spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] }),
    stop: () => server.stop(),
  };
}

/** A redis-server in a network namespace whose loopback `path` shapes; `rbench run` and the tools run in there too. */
async function shapedServer(path) {
  const ns = await createNamespace();
  try {
    const port = 6379;
    const redis = await startRedis(ns, port);
    const shaper = await startShaper(ns, port, { buildDir: join(root, 'bench', 'results', 'netdelay') });
    await shaper.apply(parseCondition(path));
    return {
      host: '127.0.0.1',
      port,
      pid: redis.child.pid,
      // Over the unix socket: the bench's own reads are never delayed or lost.
      redis: (...command) => redis.cli(...command).then((r) => r.stdout.trim()),
      exec: (command, commandArgs) => ns.exec(command, commandArgs, { allowFail: true }),
      spawn: (command, commandArgs) => ns.spawn(command, commandArgs),
      stop: async () => {
        await shaper.close();
        await ns.close();
      },
    };
  } catch (error) {
    await ns.close();
    throw error;
  }
}

/** One run of a condition: its measured loads, or an error. */
async function runOnce(condition) {
  if (condition.path && condition.serverArgs) throw new Error(`${condition.name}: serverArgs do not go with path`);
  const server = condition.path ? await shapedServer(condition.path) : await hostServer(condition.serverArgs);
  const dir = mkdtempSync(join(tmpdir(), 'rbench-calibrate-run-'));
  const undo = [];
  try {
    const ctx = contextFor(server, undo);
    await condition.before?.(ctx);
    const file = join(dir, `${condition.name}.rbench`);
    writeFileSync(file, condition.scenario);
    const json = join(dir, 'out.json');
    const child = server.spawn(process.execPath, [
      cli,
      'run',
      file,
      '--url',
      `redis://${server.host}:${server.port}`,
      '--yes',
      '--out',
      join(dir, 'runs'),
      '--json',
      json,
      ...(condition.cliArgs ?? []),
    ]);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise((r) => child.on('exit', r));
    const after = await condition.during?.({ ...ctx, client: { pid: child.pid } });
    if (typeof after === 'function') undo.push(after);
    const code = await exited;
    if (code !== 0) return { error: `rbench run exited ${code}: ${output.trim().split('\n').slice(-3).join(' / ')}` };
    const result = JSON.parse(readFileSync(json, 'utf8'))[0];
    return { loads: result.points.flatMap((point) => point.repeats.flat()) };
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
/** Whether the verdict is right for the expected kinds: one of them holds, or (`!kind`) that kind does not. */
function rightFor(expected, verdict) {
  const kinds = kindsOf(verdict);
  return expected.every((e) => e.startsWith('!')) ? expected.every((e) => !kinds.includes(e.slice(1))) : expected.some((e) => kinds.includes(e));
}
/**
 * Advice that contradicts a cause: "add clients or pipeline" where a side was at its limit (or, `!round-trip`,
 * where the round trip was ruled out), "free the machine" where nothing waited; for `!kind`, the forbidden kind
 * holding (its advice treats a cause that was not there).
 */
function contradicts(expected, verdict) {
  const text = JSON.stringify(verdict ?? {});
  const kinds = kindsOf(verdict);
  const forbidden = expected.filter((e) => e.startsWith('!')).map((e) => e.slice(1));
  if (forbidden.length) return forbidden.some((kind) => kinds.includes(kind)) || (forbidden.includes('round-trip') && /add clients or pipeline/.test(text));
  const limited = expected.some((kind) => kind !== 'round-trip');
  return (limited && /add clients or pipeline/.test(text)) || (expected.includes('round-trip') && /free the machine|understate the server/.test(text));
}

if (!args.includes('--skip-build')) ensureBuilt();
const conditions = (await loadConditions()).filter((c) => wanted.length === 0 || wanted.includes(c.name));
const results = [];
for (const condition of conditions) {
  const expected = [condition.expected].flat();
  for (let i = 0; i < runs; i++) {
    const outcome = await runOnce(condition).catch((error) => ({ error: error.message }));
    const load = outcome.loads?.[0];
    const got = outcome.error ? 'error' : kindsOf(load.bottleneck).join('+');
    const right = !outcome.error && rightFor(expected, load.bottleneck);
    const contradiction = !outcome.error && contradicts(expected, load.bottleneck);
    results.push({ name: condition.name, run: i + 1, expected: expected.join('|'), got, right, contradiction });
    console.log(`${condition.name} #${i + 1}: ${got}${right ? '' : '  ✗'}${contradiction ? '  advice contradicts the cause' : ''}`);
    console.log(`    ${outcome.error ?? load.bottleneck?.why}`);
    if (load) console.log(`    ${Math.round(load.total.opsPerSec)} ops/s`);
    if (record && load) {
      // The evidence the verdict reads; the per-second timeline is left out (the verdict does not read it).
      const loads = outcome.loads.map(({ timeline: _timeline, ...rest }) => rest);
      const fixture = { condition: condition.name, expected, scenario: condition.scenario, loads };
      writeFileSync(join(root, 'test', 'fixtures', 'verdicts', `${condition.name}-${i + 1}.json`), `${JSON.stringify(fixture, null, 1)}\n`);
    }
  }
}

// The confusion matrix: a row per expected kind (`!kind`: must not hold), a column per verdict got. A mixed verdict
// goes in the column of the expected kind when that kind is one of its parts (and the cell counts it in [brackets]),
// else in `mixed`; each run's full verdict is in the lines above.
const columnOf = (r) => {
  if (r.got === 'error' || !r.got.includes('+')) return r.got;
  const held = r.expected.split('|').find((kind) => !kind.startsWith('!') && r.got.split('+').includes(kind));
  return held ?? 'mixed';
};
const rows = [...new Set(results.map((r) => r.expected))];
const columns = [...new Set(results.map(columnOf))].sort();
const width = Math.max(10, ...columns.map((c) => c.length)) + 2;
const rowWidth = Math.max(16, ...rows.map((row) => row.length)) + 2;
console.log(`\n${'expected \\ got'.padEnd(rowWidth)}${columns.map((c) => c.padStart(width)).join('')}`);
for (const row of rows) {
  const cells = columns.map((c) => {
    const here = results.filter((r) => r.expected === row && columnOf(r) === c);
    const mixed = here.filter((r) => r.got.includes('+')).length;
    return (here.length === 0 ? '.' : mixed > 0 && c !== 'mixed' ? `${here.length} [${mixed}]` : String(here.length)).padStart(width);
  });
  console.log(`${row.padEnd(rowWidth)}${cells.join('')}`);
}
const right = results.filter((r) => r.right).length;
const contradictions = results.filter((r) => r.contradiction);
console.log(
  `\n${right} of ${results.length} right (${Math.round((right / Math.max(1, results.length)) * 100)} %); advice contradicting the cause: ${contradictions.length}`,
);
for (const r of contradictions) console.log(`  ${r.name} #${r.run}: ${r.got}`);
const mixedRight = results.filter((r) => r.right && r.got.includes('+')).length;
if (mixedRight) console.log(`right with a mixed verdict: ${mixedRight}`);
const misses = results.filter((r) => !r.right);
if (misses.length) console.log(`missed: ${misses.map((r) => `${r.name} #${r.run} (${r.expected} → ${r.got})`).join(', ')}`);
