#!/usr/bin/env node
// RBench against physics: a private network namespace whose loopback holds every packet D ms (netem where
// the kernel has it, otherwise the NFQUEUE delayer bench/netdelay/netdelay.c, built here), a redis-server
// inside it, and RBench and redis-benchmark through the same path, A B A B, for each condition: constant
// delay, normal jitter, packet loss, and unshaped controls. Prints what physics allows (the floor: the
// least round trip; the ceiling: clients × pipeline / round trip), what to expect (the round trip plus the
// overhead measured on a 1-connection control), and what each tool measured, with their ratios; checks
// every run's request count against the server's commandstats.
//
//   sudo node bench/physics.mjs [--pairs 3] [--duration 3s] [--conditions "none,0ms,1ms,2ms~1ms,0.5ms/1%"]
//        [--tests get,set] [--clients 10,50] [--pipeline 1] [--mode duration|requests]
//        [--shaper auto|netem|nfqueue] [--no-realtime] [--cli OTHER/dist/cli.js] [--skip-build] [--json-out FILE]
//
// Needs root (namespaces, iptables) and, without netem, gcc, libnetfilter-queue-dev and iptables.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, release } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cli as defaultCli, ensureBuilt, median, root } from './lib.mjs';
import { describeCondition, parseCondition, roundTripModel } from './netdelay/conditions.mjs';
import { createNamespace, run, startRedis } from './netdelay/namespace.mjs';
import { startShaper } from './netdelay/shapers.mjs';
import { cpuSample, cpuShares } from './netdelay/machine.mjs';
import { KEYSPACE, runRbench, runRedisBenchmark, serverCalls } from './netdelay/tools.mjs';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '3s' },
    conditions: { type: 'string', default: 'none,0ms,1ms,2ms~1ms,0.5ms/1%' },
    tests: { type: 'string', default: 'get,set' },
    clients: { type: 'string', default: '10,50' },
    pipeline: { type: 'string', default: '1' },
    mode: { type: 'string', default: 'duration' },
    shaper: { type: 'string', default: 'auto' },
    'no-realtime': { type: 'boolean', default: false },
    cli: { type: 'string', default: defaultCli },
    'skip-build': { type: 'boolean', default: false },
    'json-out': { type: 'string' },
  },
});

function fail(message) {
  process.stderr.write(`physics: ${message}\n`);
  process.exit(2);
}
const positive = (name, text) => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) fail(`--${name} ${text}: give a whole number ≥ 1`);
  return n;
};
const pairs = positive('pairs', values.pairs);
const pipeline = positive('pipeline', values.pipeline);
const clientCounts = values.clients.split(',').map((c) => positive('clients', c));
const durationMatch = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(values.duration);
if (!durationMatch) fail(`--duration ${values.duration}: write seconds, such as 3s or 500ms`);
const durationS = Number(durationMatch[1]) / (durationMatch[2] === 'ms' ? 1000 : 1);
const tests = values.tests.split(',').map((t) => t.trim().toLowerCase());
for (const t of tests) if (t !== 'get' && t !== 'set') fail(`--tests: "${t}" is not get or set`);
if (values.mode !== 'duration' && values.mode !== 'requests') fail(`--mode ${values.mode}: use duration or requests`);
let conditions;
try {
  conditions = values.conditions.split(',').map(parseCondition);
} catch (error) {
  fail(error.message);
}
if (process.getuid?.() !== 0) fail('needs root for network namespaces and iptables: run it with sudo');

const PORT = 6379; // the namespace is private: no other server to collide with
const CONTROL = parseCondition('0ms');
const runsPerPair = 1 + conditions.length * tests.length * clientCounts.length;
const minutes = (runsPerPair * pairs * (2 * durationS + 1.5)) / 60;

// ---- formatting ------------------------------------------------------------------------------------

const fmtMs = (v) => (v === undefined || Number.isNaN(v) ? '—' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(3));
const fmtOps = (v) => (v === undefined || !Number.isFinite(v) ? '—' : Math.round(v).toLocaleString('en-US'));
const fmtRatio = (v) => (v === undefined || !Number.isFinite(v) ? '—' : `${v.toFixed(2)}×`);
const FIELDS = ['minMs', 'p50Ms', 'p99Ms', 'p999Ms', 'maxMs'];
const row = (label, ops, latency, tail = '') =>
  `  ${label.padEnd(16)} ${ops.padStart(9)}  ${FIELDS.map((f) => (latency[f] ?? '—').padStart(7)).join(' ')}  ${tail}`;

// ---- one configuration -------------------------------------------------------------------------------

/** One tool's run with the server's count and the shaper's statistics around it. */
async function measured(ctx, tool, config) {
  await ctx.redis.cli('CONFIG', 'RESETSTAT');
  await ctx.shaper.beginRun();
  const cpuBefore = cpuSample();
  const result = await (
    tool === 'rbench' ? runRbench(ctx.ns, { cli: values.cli, port: PORT, ...config }) : runRedisBenchmark(ctx.ns, { port: PORT, ...config })
  ).catch((error) => {
    throw ctx.shaper.failure?.() ? new Error(ctx.shaper.failure()) : error; // the path's death, not the tool's
  });
  const machine = cpuShares(cpuBefore, cpuSample());
  const path = await ctx.shaper.endRun();
  return { ...result, serverCalls: await serverCalls(ctx.redis, config.test), path, machine };
}

/** A B pairs of one configuration. Duration mode: redis-benchmark gets the request count RBench reached. */
async function measurePairs(ctx, config, plannedRequests) {
  const result = [];
  for (let i = 0; i < pairs; i++) {
    const rbench = await measured(ctx, 'rbench', { ...config, durationS: plannedRequests ? undefined : durationS, requests: plannedRequests });
    const redisBenchmark = await measured(ctx, 'redis-benchmark', { ...config, requests: plannedRequests ?? rbench.requests });
    result.push({ rbench, redisBenchmark });
    process.stderr.write('.');
  }
  return result;
}

const medianOf = (runs, field) => median(runs.map((r) => r[field]));
const summarize = (runs) => Object.fromEntries(['ops', ...FIELDS].map((f) => [f, medianOf(runs, f)]));

/** What physics allows and what to expect for condition `c` at `clients` × `pipeline`. */
function expectations(c, model, clients, capacity, overheadMs) {
  const inFlight = clients * pipeline;
  const ceiling = c.shaped && model.floor.meanMs > 0 ? (inFlight * 1000) / model.floor.meanMs : Infinity;
  if (!c.shaped || c.delayMs === 0) return { ceiling, floor: model.floor, expected: null };
  const latency = Object.fromEntries(FIELDS.map((f) => [f, model.model[f] + overheadMs]));
  latency.maxMs = undefined; // a maximum is one sample: no expectation worth printing
  const ops = Math.min(capacity ?? Infinity, (inFlight * 1000) / (model.model.meanMs + overheadMs));
  return { ceiling, floor: model.floor, expected: { ops, ...latency } };
}

/** The issue's goals on one configuration: a list of { ok, text }. */
function checks(c, expect, pairsOf) {
  const out = [];
  const tools = [
    ['RBench', pairsOf.map((p) => p.rbench)],
    ['redis-benchmark', pairsOf.map((p) => p.redisBenchmark)],
  ];
  for (const [name, runs] of tools) {
    for (const r of runs) {
      if (r.requests !== r.serverCalls) out.push({ ok: false, text: `${name} counted ${r.requests} requests, the server ${r.serverCalls}` });
    }
    if (!c.shaped) continue;
    // Quantiles of a few thousand samples scatter: with jitter only the median is held to the floor.
    const slack = c.jitterMs > 0 ? 0.97 : 0.995;
    const low = runs.filter((r) => r.minMs < expect.floor.minMs * 0.995 || r.p50Ms < expect.floor.p50Ms * slack);
    if (low.length) out.push({ ok: false, text: `${name} latency below the physical round trip (min ${fmtMs(low[0].minMs)}, p50 ${fmtMs(low[0].p50Ms)} ms)` });
    const high = runs.filter((r) => r.ops > expect.ceiling * 1.01);
    if (high.length) out.push({ ok: false, text: `${name} throughput ${fmtOps(high[0].ops)}/s above the ceiling ${fmtOps(expect.ceiling)}/s` });
  }
  if (c.shaped && c.delayMs > 0 && out.length === 0) out.push({ ok: true, text: 'latency ≥ floor, throughput ≤ ceiling, counts = commandstats' });
  else if (out.length === 0) out.push({ ok: true, text: 'counts = commandstats' });
  const void_ = unshaped(pairsOf);
  if (void_ > 0) out.push({ ok: false, text: `${void_} packets passed the delayer unheld (queue full or netlink overrun): not a shaped run` });
  if (c.jitterMs > 0) {
    const ratio = median(pairsOf.map((p) => p.rbench.p999Ms / p.redisBenchmark.p999Ms));
    const fewest = Math.min(...pairsOf.map((p) => p.rbench.requests));
    const thin =
      fewest < 20_000 ? `; only ${fmtOps(fewest)} replies a run, so p99.9 rests on ${Math.floor(fewest / 1000)} samples: use a longer --duration` : '';
    out.push({ ok: Math.abs(ratio - 1) <= 0.1, text: `p99.9 RBench / redis-benchmark ${fmtRatio(ratio)} (goal: within 10 %${thin})` });
  }
  return out;
}

/** The shaper's account of the runs: packets, losses, how late the delayer released them. */
function pathLine(pairsOf) {
  const paths = pairsOf.flatMap((p) => [p.rbench.path, p.redisBenchmark.path]).filter(Boolean);
  if (!paths.length) return null;
  const sum = (f) => paths.reduce((s, p) => s + (p[f] ?? 0), 0);
  const parts = [`${sum('packets').toLocaleString('en-US')} packets, ${sum('lost').toLocaleString('en-US')} lost`];
  if (paths[0].lateP99Us !== undefined) {
    const late = (f) => median(paths.map((p) => p[f]));
    const max = Math.max(...paths.map((p) => p.lateMaxUs));
    parts.push(`released late p50 ≤ ${late('lateP50Us')} µs, p99 ≤ ${late('lateP99Us')} µs, p99.9 ≤ ${late('lateP999Us')} µs, max ${max.toFixed(0)} µs`);
  }
  return `  path: ${parts.join('; ')}`;
}

/** Packets the delayer could not hold (a full queue, netlink overruns) went through undelayed: the run is void. */
function unshaped(pairsOf) {
  const paths = pairsOf.flatMap((p) => [p.rbench.path, p.redisBenchmark.path]).filter(Boolean);
  return paths.reduce((s, p) => s + (p.overflow ?? 0) + (p.enobufs ?? 0), 0);
}

function machineLine(pairsOf) {
  const shares = pairsOf.flatMap((p) => [p.rbench.machine, p.redisBenchmark.machine]).filter(Boolean);
  if (!shares.length) return null;
  const pct = (f) => `${Math.round(100 * median(shares.map((m) => m[f])))} %`;
  return `  machine: ${pct('busy')} of ${cpus().length} cores busy (all processes), ${pct('steal')} stolen by the hypervisor`;
}

function printConfig(c, test, clients, expect, pairsOf) {
  const rb = summarize(pairsOf.map((p) => p.rbench));
  const rbb = summarize(pairsOf.map((p) => p.redisBenchmark));
  const ratio = Object.fromEntries(['ops', ...FIELDS].map((f) => [f, median(pairsOf.map((p) => p.rbench[f] / p.redisBenchmark[f]))]));
  const ms = (o) => Object.fromEntries(FIELDS.map((f) => [f, fmtMs(o[f])]));
  const counts = (runs) => {
    const ok = runs.every((r) => r.requests === r.serverCalls);
    return `${fmtOps(median(runs.map((r) => r.requests)))} ${ok ? '= server ✓' : '≠ server ✗'}`;
  };
  console.log(`\n${c.spec} (${describeCondition(c)}) — ${test.toUpperCase()}, ${clients} clients, pipeline ${pipeline}, ${pairsOf.length} pair(s), medians`);
  const heads = Object.fromEntries(FIELDS.map((f) => [f, f.replace('Ms', '').replace('p999', 'p99.9')]));
  console.log(row('', 'ops/s', { ...heads, maxMs: 'max ms' }, 'requests'));
  if (c.shaped && c.delayMs > 0) console.log(row('floor (physics)', `≤ ${fmtOps(expect.ceiling)}`, { ...ms(expect.floor), maxMs: '—' }));
  if (expect.expected) console.log(row('expected', fmtOps(expect.expected.ops), ms(expect.expected)));
  console.log(row('RBench', fmtOps(rb.ops), ms(rb), counts(pairsOf.map((p) => p.rbench))));
  console.log(row('redis-benchmark', fmtOps(rbb.ops), ms(rbb), counts(pairsOf.map((p) => p.redisBenchmark))));
  console.log(row('RBench / r-b', fmtRatio(ratio.ops), Object.fromEntries(FIELDS.map((f) => [f, fmtRatio(ratio[f])]))));
  for (const line of [pathLine(pairsOf), machineLine(pairsOf)]) if (line) console.log(line);
  const own = pairsOf.map((p) => p.rbench.pauses).filter(Boolean);
  if (own.length)
    console.log(
      `  RBench's own pauses: tail share ${median(own.map((p) => p.tailShare)).toFixed(2)}, p99.9 without them ${fmtMs(median(own.map((p) => (p.p999UsWithoutPauses ?? NaN) / 1000)))} ms`,
    );
  if (c.loss > 0 && values.mode === 'duration')
    console.log(
      "  note: duration mode — RBench's window leaves its drain out, redis-benchmark's time holds its last resends; --mode requests compares like with like",
    );
  const result = checks(c, expect, pairsOf);
  for (const r of result) console.log(`  ${r.ok ? '✓' : '✗'} ${r.text}`);
  return { rbench: rb, redisBenchmark: rbb, ratio, checks: result };
}

// ---- the run -------------------------------------------------------------------------------------------

if (!values['skip-build']) ensureBuilt();
const ns = await createNamespace();
const report = {
  startedAt: new Date().toISOString(),
  machine: { kernel: release(), cpus: cpus().length, loadavgAtStart: loadavg() },
  options: { pairs, durationS, pipeline, clients: clientCounts, tests, mode: values.mode, conditions: conditions.map((c) => c.spec) },
  conditions: [],
};
let exitCode = 0;
try {
  const redis = await startRedis(ns, PORT);
  // The key space, filled over the socket (unshaped): GETs find values, as redis-benchmark's own fill would.
  await run('redis-benchmark', ['-s', redis.socket, '-t', 'set', '-n', String(3 * KEYSPACE), '-r', String(KEYSPACE), '-d', '3', '-q']);
  const shaper = await startShaper(ns, PORT, { choice: values.shaper, buildDir: join(root, 'bench', 'results', 'netdelay'), realtime: !values['no-realtime'] });
  report.shaper = shaper.describe;
  const ctx = { ns, redis, shaper };
  console.log(`namespace ${ns.name}, redis-server on 127.0.0.1:${PORT} inside it; shaping: ${shaper.describe}`);
  console.log(
    `${pairs} pair(s) per configuration, ${values.mode} ${values.mode === 'duration' ? `${durationS} s` : `of about ${durationS} s`} each; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; about ${minutes.toFixed(1)} min`,
  );

  // The overhead: what one connection's request costs beyond the wire (server, client, shaper), on the unshaped path.
  await shaper.apply(CONTROL);
  process.stderr.write('overhead ');
  const overheadPairs = await measurePairs(ctx, { test: 'get', clients: 1, pipeline }, values.mode === 'requests' ? Math.round(durationS * 5000) : undefined);
  const overheadMs = Math.min(
    medianOf(
      overheadPairs.map((p) => p.rbench),
      'p50Ms',
    ),
    medianOf(
      overheadPairs.map((p) => p.redisBenchmark),
      'p50Ms',
    ),
  );
  report.overhead = { ms: overheadMs, pairs: overheadPairs };
  console.log(`\noverhead ${fmtMs(overheadMs)} ms: the lower p50 of the two tools with 1 connection through the shaper at 0 ms (added to "expected")`);

  const capacity = new Map(); // `${test} ${clients}` → { shaped, ops }: the best throughput at 0 ms, the server's and path's own ceiling
  for (const c of conditions) {
    await shaper.apply(c);
    const model = roundTripModel(c);
    const entry = { spec: c.spec, description: describeCondition(c), model, configs: [] };
    report.conditions.push(entry);
    for (const test of tests) {
      for (const clients of clientCounts) {
        const expect = expectations(c, model, clients, capacity.get(`${test} ${clients}`)?.ops, overheadMs);
        const planned = values.mode === 'requests' ? Math.max(1000, Math.round(durationS * Math.min(expect.expected?.ops ?? 50_000, 200_000))) : undefined;
        process.stderr.write(`${c.spec} ${test} c${clients} `);
        const pairsOf = await measurePairs(ctx, { test, clients, pipeline }, planned);
        process.stderr.write('\n');
        const printed = printConfig(c, test, clients, expect, pairsOf);
        if (printed.checks.some((k) => !k.ok)) exitCode = 1;
        // The path's capacity: the 0 ms control through the shaper (it costs CPU too) wins over the unshaped one.
        const key = `${test} ${clients}`;
        if (c.delayMs === 0 && c.loss === 0 && (c.shaped || !capacity.get(key)?.shaped))
          capacity.set(key, { shaped: c.shaped, ops: Math.max(printed.rbench.ops, printed.redisBenchmark.ops) });
        entry.configs.push({ test, clients, pipeline, expect, ...printed, pairs: pairsOf });
      }
    }
  }
  report.machine.loadavgAtEnd = loadavg();
  report.elapsedS = Math.round((Date.now() - Date.parse(report.startedAt)) / 1000);
  console.log(`\n${report.elapsedS} s in all`);
  console.log(
    `\nload average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}${exitCode ? '; some checks failed (✗ above)' : '; every check held'}`,
  );
  await shaper.close();
} catch (error) {
  process.stderr.write(`\nphysics: ${error.message}\n`);
  exitCode = 2;
} finally {
  await ns.close();
}
if (values['json-out']) {
  writeFileSync(values['json-out'], JSON.stringify(report, null, 2));
  console.log(`report written to ${values['json-out']}`);
}
process.exit(exitCode);
