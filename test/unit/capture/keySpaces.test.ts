// Issue 41, seen 9: every key pattern shared one key space, so a workload with 100 `stats:*` hashes replayed
// into 931 after 4 s, growing; and `--verify` compared the file with itself under MONITOR, so none of it showed.
// Each key pattern now has its own key space, and `--verify` compares the replay with the source's unperturbed
// counters: the rate per command (commandstats before MONITOR) and the distinct keys per pattern (SCAN).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { captureWorkload } from '../../../src/capture/capture';
import { compareCounters, counterMismatchText, type CounterReading } from '../../../src/capture/fidelity';
import { scenarioText } from '../../../src/capture/scenarioText';
import { DEFAULT_CAPTURE, type CaptureResult } from '../../../src/capture/types';
import { verifyCapture } from '../../../src/capture/verify';
import { buildWorkload } from '../../../src/capture/workload';
import { checkText } from '../../../src/scenario';
import { keysInDb, useRedisServer, withRedis } from '../../helpers/redis';

const USERS = 10_000;
const STATS = 100;

async function populate(redis: Redis): Promise<void> {
  const pipeline = redis.pipeline();
  for (let id = 0; id < USERS; id++) pipeline.set(`user:${id}`, 'x'.repeat(100));
  for (let id = 0; id < STATS; id++) pipeline.hset(`stats:${id}`, 'hits', 0);
  await pipeline.exec();
}

/** GETs over the 10k users and HINCRBYs over the 100 stats hashes, half and half, from `connections` clients until stopped. */
function startTraffic(server: { host: string; port: number }, connections = 4): { stop(): Promise<void> } {
  let running = true;
  const clients = Array.from({ length: connections }, () => new Redis({ host: server.host, port: server.port, maxRetriesPerRequest: 0 }));
  for (const client of clients) client.on('error', () => undefined);
  const loops = clients.map(async (client) => {
    let n = 0;
    while (running) {
      n++;
      try {
        if (n % 2 === 0) await client.get(`user:${Math.floor(Math.random() * USERS)}`);
        else await client.hincrby(`stats:${Math.floor(Math.random() * STATS)}`, 'hits', 1);
      } catch {
        if (!running) break;
      }
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      for (const client of clients) client.disconnect();
    },
  };
}

const within = (actual: number, expected: number, tolerance = 0.05) => Math.abs(actual - expected) <= expected * tolerance;

describe('capture: a key space per key pattern, and --verify against the source (issue 41, seen 9)', function () {
  this.timeout(180_000);
  const server = useRedisServer();
  let captured: CaptureResult;
  let text: string;
  let runs: string;

  before(async function () {
    this.timeout(90_000);
    runs = mkdtempSync(join(tmpdir(), 'rbench-keyspaces-'));
    await withRedis(server(), populate);
    const traffic = startTraffic(server());
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      captured = await captureWorkload({ host: server().host, port: server().port, resp: 2, connectTimeoutMs: 5000 }, 'source', {
        ...DEFAULT_CAPTURE,
        durationMs: 3000,
        monitor: 'on',
        keyspaceLimits: { maxKeys: 20_000, maxMs: 20_000 },
      });
    } finally {
      await traffic.stop();
    }
    text = scenarioText(captured, buildWorkload(captured));
  });

  after(() => rmSync(runs, { recursive: true, force: true }));

  it('writes each key pattern with its own key space: 100 stats hashes, 10k users', () => {
    const resolved = checkText(text);
    assert.deepEqual(
      resolved.diagnostics.filter((d) => d.severity === 'error'),
      [],
      text,
    );
    // The key patterns are client groups of one phase, each with its own key space.
    const measured = resolved.scenarios[0].points[0].phases
      .filter((phase) => phase.measured)
      .flatMap((phase) => (phase.groups ?? []).map((group) => group.phase));
    assert.ok(measured.length >= 2, text);
    const spaceOf = (command: string) => {
      const phase = measured.find((p) => p.tests.some((t) => t.commands.some((c) => c.command.name === command)));
      assert.ok(phase, `${command} in no measured phase\n${text}`);
      return phase.keys.space;
    };
    assert.ok(within(spaceOf('HINCRBY'), STATS), `HINCRBY over ${spaceOf('HINCRBY')} keys\n${text}`);
    assert.ok(within(spaceOf('GET'), USERS), `GET over ${spaceOf('GET')} keys\n${text}`);
  });

  it('replays into the source distinct keys per pattern (within 5%), and --verify passes', async () => {
    const source = { stats: await keysInDb(server(), 0, 'stats:*'), users: await keysInDb(server(), 0, 'user:*') };
    assert.deepEqual(source, { stats: STATS, users: USERS });
    const outcome = await verifyCapture(
      { capture: captured, workload: buildWorkload(captured) },
      { text, display: 'captured.rbench', runsFolder: runs, env: process.env, log: () => undefined },
    );
    assert.equal(outcome.error, undefined, outcome.error);
    const counters = outcome.counters;
    assert.ok(counters, 'the counters were compared');
    const replayed = (pattern: string) => counters.rows.find((row) => row.kind === 'keys' && row.name === pattern)?.replay;
    const stats = replayed('stats:__key__');
    const users = replayed('user:__key__');
    assert.ok(stats !== undefined && within(stats, source.stats), `stats keys replayed: ${stats}\n${counterMismatchText(counters).join('\n')}\n${text}`);
    assert.ok(users !== undefined && within(users, source.users), `user keys replayed: ${users}\n${text}`);
    assert.ok(
      counters.rows.some((row) => row.kind === 'rate' && row.name === 'HINCRBY') && counters.rows.some((row) => row.kind === 'rate' && row.name === 'GET'),
      JSON.stringify(counters.rows),
    );
    assert.deepEqual(counterMismatchText(counters), [], `${JSON.stringify(counters.rows)}\n${text}`);
  });
});

describe('capture --verify: the comparison with the source counters', () => {
  const source: CounterReading = {
    rates: new Map([
      ['GET', 1000],
      ['HINCRBY', 1000],
    ]),
    keys: new Map([
      ['user:__key__', 10_000],
      ['stats:__key__', 100],
    ]),
  };

  it('fails on a difference larger than 5%, with a plain line per mismatch', () => {
    const replay: CounterReading = {
      rates: new Map([
        ['GET', 900],
        ['HINCRBY', 1030],
      ]),
      keys: new Map([
        ['user:__key__', 10_000],
        ['stats:__key__', 931],
      ]),
    };
    const comparison = compareCounters(source, replay);
    assert.equal(comparison.passed, false);
    assert.deepEqual(counterMismatchText(comparison), [
      'GET: 1,000/s in the source, 900/s replayed (10.0% off, more than 5%)',
      'keys stats:__key__: 100 in the source, 931 replayed (831.0% off, more than 5%)',
    ]);
  });

  it('passes within 5%, and a pattern or command the replay lacks is a mismatch', () => {
    const close: CounterReading = {
      rates: new Map([
        ['GET', 1040],
        ['HINCRBY', 960],
      ]),
      keys: new Map([
        ['user:__key__', 9_700],
        ['stats:__key__', 100],
      ]),
    };
    assert.equal(compareCounters(source, close).passed, true);
    assert.deepEqual(counterMismatchText(compareCounters(source, close)), []);
    const missing = compareCounters(source, { rates: new Map([['GET', 1000]]), keys: new Map([['user:__key__', 10_000]]) });
    assert.deepEqual(counterMismatchText(missing), [
      'HINCRBY: 1,000/s in the source, 0/s replayed (100.0% off, more than 5%)',
      'keys stats:__key__: 100 in the source, 0 replayed (100.0% off, more than 5%)',
    ]);
  });
});
