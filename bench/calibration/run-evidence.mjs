#!/usr/bin/env node
// Runs bench/calibration/evidence.mjs's conditions on their own (until bench/calibrate.mjs, which loads every
// module of bench/calibration, is on this branch): per condition and run a fresh redis-server with the
// condition's arguments, its setup, then `rbench run --url` while `during(ctx)` acts on the server; prints
// each run's verdict and whether the expected kind held, and exits 1 when any run missed.
//
//   sudo node bench/calibration/run-evidence.mjs [--runs 3] [--only "name,name"] [--skip-build] [--json-out FILE]
//
// A condition with `path` (a lossy loopback) needs root, iptables, gcc and libnetfilter-queue-dev.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cli, ensureBuilt, freePort } from '../lib.mjs';
import { parseCondition } from '../netdelay/conditions.mjs';
import { createNamespace, run, startRedis } from '../netdelay/namespace.mjs';
import { startShaper } from '../netdelay/shapers.mjs';
import { conditions } from './evidence.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    only: { type: 'string' },
    'skip-build': { type: 'boolean', default: false },
    'json-out': { type: 'string' },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs ${values.runs}: give a whole number ≥ 1`);
const only = values.only?.split(',').map((s) => s.trim());
if (!values['skip-build']) ensureBuilt();

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The kinds of a verdict: itself, or the parts of `mixed`. */
const kindsOf = (verdict) => (verdict?.parts ? verdict.parts.map((p) => p.kind) : verdict ? [verdict.kind] : []);

function held(expected, kinds) {
  return expected.startsWith('!') ? !kinds.includes(expected.slice(1)) : kinds.includes(expected);
}

/** A redis-server on the host, with the condition's arguments; `cli(...)` talks to it. */
async function hostServer(serverArgs) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'rbench-calibration-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir, '--enable-debug-command', 'yes', ...serverArgs],
    {
      stdio: 'ignore',
    },
  );
  const cli = (...args) => run('redis-cli', ['-p', String(port), ...args]).then((r) => r.stdout.trim());
  for (let i = 0; i < 100 && (await cli('PING').catch(() => '')) !== 'PONG'; i++) await sleep(50);
  return {
    host: '127.0.0.1',
    port,
    pid: child.pid,
    cli,
    exec: (command, args) => run(command, args, { allowFail: true }),
    stop: async () => {
      child.kill('SIGKILL');
      await new Promise((r) => (child.exitCode !== null ? r() : child.on('exit', r)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A redis-server in a namespace whose loopback is shaped by `path`; RBench runs inside it too. */
async function shapedServer(path) {
  const ns = await createNamespace();
  const port = 6379;
  const redis = await startRedis(ns, port);
  const shaper = await startShaper(ns, port, { buildDir: join(ns.dir, 'build') });
  await shaper.apply(parseCondition(path));
  return {
    host: '127.0.0.1',
    port,
    pid: redis.child.pid,
    cli: (...args) => redis.cli(...args).then((r) => r.stdout.trim()),
    exec: (command, args) => ns.exec(command, args, { allowFail: true }),
    stop: async () => {
      await shaper.close();
      await ns.close();
    },
  };
}

async function once(condition) {
  const server = condition.path ? await shapedServer(condition.path) : await hostServer(condition.serverArgs ?? []);
  const dir = mkdtempSync(join(tmpdir(), 'rbench-calibration-run-'));
  try {
    const ctx = {
      host: server.host,
      port: server.port,
      pid: server.pid,
      cli: server.cli,
      sleep,
      tool: (command, args) => server.exec(command, args),
      waitForCalls: async (command, n) => {
        for (let i = 0; i < 1000; i++) {
          const stats = await server.cli('INFO', 'commandstats');
          if (Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0) >= n) return;
          await sleep(20);
        }
      },
    };
    await condition.setup?.(ctx);
    const file = join(dir, 'calibration.rbench');
    writeFileSync(file, condition.scenario);
    const json = join(dir, 'out.json');
    const args = [cli, 'run', file, '--url', `redis://${server.host}:${server.port}`, '--yes', '--out', join(dir, 'runs'), '--json', json, '--quiet'];
    const [result] = await Promise.all([server.exec(process.execPath, args), condition.during?.(ctx)]);
    if (!existsSync(json)) return { error: `rbench run failed (${result.status}): ${result.stderr.trim().slice(-500)}` };
    const load = JSON.parse(readFileSync(json, 'utf8'))[0].points[0].repeats[0][0];
    return { verdict: load.bottleneck, kinds: kindsOf(load.bottleneck) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.stop();
  }
}

const report = [];
let missed = 0;
for (const condition of conditions.filter((c) => !only || only.includes(c.name))) {
  for (let i = 0; i < runs; i++) {
    const outcome = await once(condition).catch((error) => ({ error: error.message }));
    const ok = !outcome.error && held(condition.expected, outcome.kinds);
    if (!ok) missed++;
    report.push({ condition: condition.name, expected: condition.expected, run: i + 1, ok, ...outcome });
    process.stdout.write(
      `${ok ? 'ok  ' : 'MISS'} ${condition.name} #${i + 1} (expected ${condition.expected}): ${outcome.error ?? `${outcome.verdict.kind} — ${outcome.verdict.why}`}\n`,
    );
  }
}
if (values['json-out']) writeFileSync(values['json-out'], JSON.stringify(report, null, 2));
process.stdout.write(`${report.length - missed} of ${report.length} runs gave the expected verdict\n`);
process.exit(missed > 0 ? 1 : 0);
