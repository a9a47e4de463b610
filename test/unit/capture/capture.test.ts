// rbench capture against real servers: the known workload captured while a test client sends it,
// privacy, MONITOR refused by ACL, and a server killed mid-capture.
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { captureWorkload } from '../../../src/capture/capture';
import { scenarioText } from '../../../src/capture/scenarioText';
import { DEFAULT_CAPTURE, type CaptureOptions, type CaptureResult } from '../../../src/capture/types';
import { buildWorkload } from '../../../src/capture/workload';
import { startLocalServer } from '../../../src/redis/localServer';
import type { ConnectionOptions } from '../../../src/redis/types';
import { checkText } from '../../../src/scenario';
import type { ScenarioPlan } from '../../../src/scenario/plan';
import { useRedisServer, withRedis } from '../../helpers/redis';
import { KNOWN, populate, startTraffic, STATS_FIELD } from './knownWorkload';

const connectionOf = (server: { host: string; port: number }, extra: Partial<ConnectionOptions> = {}): ConnectionOptions => ({
  host: server.host,
  port: server.port,
  resp: 2,
  connectTimeoutMs: 5000,
  ...extra,
});

const options = (durationMs: number, extra: Partial<CaptureOptions> = {}): CaptureOptions => ({ ...DEFAULT_CAPTURE, durationMs, ...extra });

/** The written file's first scenario, and its command mix over its measured phases (a key pattern each, each at its part of the rate). */
function trafficOf(text: string): { plan: ScenarioPlan; weights: Map<string, number> } {
  const resolved = checkText(text);
  assert.deepEqual(
    resolved.diagnostics.filter((d) => d.severity === 'error'),
    [],
    text,
  );
  const plan = resolved.scenarios[0];
  assert.ok(
    plan.points[0].phases.some((p) => p.name === 'traffic'),
    text,
  );
  // A key pattern each: the phase's client groups (that send requests), or the phase itself when it has none.
  const measured = plan.points[0].phases
    .filter((p) => p.measured)
    .flatMap((p) => (p.groups ? p.groups.filter((group) => group.kind === 'requests').map((group) => group.phase) : [p]));
  const parts = measured.map((p) => p.load.rate ?? p.load.requests ?? 1);
  const all = parts.reduce((sum, n) => sum + n, 0);
  const weights = new Map<string, number>();
  measured.forEach((phase, index) => {
    const commands = phase.tests[0].commands;
    const total = commands.reduce((sum, c) => sum + c.weight, 0);
    for (const command of commands)
      weights.set(command.command.name, (weights.get(command.command.name) ?? 0) + ((parts[index] / all) * command.weight) / total);
  });
  return { plan, weights };
}

/** Quartiles of a plan's value sizes (a range: its exact quartiles; a weighted list: by weight). */
function valueQuartiles(plan: ScenarioPlan): number[] {
  const phase = plan.points[0].phases.find((p) => p.name === 'traffic');
  const value = phase!.value;
  if (value.kind === 'range') return [0.25, 0.5, 0.75].map((p) => value.min + p * (value.max - value.min));
  if (value.kind === 'fixed') return [value.size, value.size, value.size];
  const total = value.choices.reduce((sum, c) => sum + c.weight, 0);
  return [0.25, 0.5, 0.75].map((p) => {
    let seen = 0;
    for (const choice of [...value.choices].sort((a, b) => a.size - b.size)) {
      seen += choice.weight / total;
      if (seen >= p) return choice.size;
    }
    return value.choices[value.choices.length - 1].size;
  });
}

describe('rbench capture (real servers)', function () {
  this.timeout(90_000);
  const server = useRedisServer();
  let captured: CaptureResult;
  let text: string;

  before(async function () {
    this.timeout(60_000);
    await withRedis(server(), populate);
    const traffic = startTraffic(server());
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      // --monitor: the populate burst may still show in instantaneous_ops_per_sec, above the rate limit.
      captured = await captureWorkload(connectionOf(server()), `redis://${server().host}:${server().port}`, options(4000, { monitor: 'on' }));
    } finally {
      await traffic.stop();
    }
    text = scenarioText(captured, buildWorkload(captured));
  });

  it('writes the known mix within 2 points, zipf within 0.1 and value quartiles within 10%', () => {
    const { plan, weights } = trafficOf(text);
    assert.ok(Math.abs((weights.get('GET') ?? 0) - KNOWN.get) < 0.02, `GET ${weights.get('GET')}\n${text}`);
    assert.ok(Math.abs((weights.get('SET') ?? 0) - KNOWN.set) < 0.02, `SET ${weights.get('SET')}\n${text}`);
    assert.ok(Math.abs((weights.get('HINCRBY') ?? 0) - KNOWN.hincrby) < 0.02, `HINCRBY ${weights.get('HINCRBY')}\n${text}`);
    // The commonest key pattern: the phase's first client group when the patterns are groups.
    const traffic = plan.points[0].phases.find((p) => p.name === 'traffic')!;
    const keys = (traffic.groups?.[0].phase ?? traffic).keys;
    assert.equal(keys.distribution, 'zipf', text);
    assert.ok(Math.abs((keys.zipfExponent ?? 0) - KNOWN.exponent) <= 0.1, `zipf ${keys.zipfExponent}\n${text}`);
    const truth = [0.25, 0.5, 0.75].map((p) => KNOWN.minValue + p * (KNOWN.maxValue - KNOWN.minValue));
    valueQuartiles(plan).forEach((q, i) => assert.ok(Math.abs(q - truth[i]) / truth[i] < 0.1, `quartile ${i}: ${q} vs ${truth[i]}\n${text}`));
  });

  it('prefills the observed keyspace: the strings, the hashes and the TTLs on half the string keys', () => {
    const { plan } = trafficOf(text);
    const prefills = plan.points[0].phases.filter((p) => !p.measured);
    const commands = prefills.flatMap((p) => p.tests.flatMap((t) => t.commands.map((c) => c.command.name)));
    assert.ok(commands.includes('SET') && commands.includes('HSET') && commands.includes('EXPIRE'), text);
    assert.match(text, /# 5\d% of these keys have a time to live|# 4\d% of these keys have a time to live/);
  });

  it('copies no key, field or value of the source, and says so in the header', () => {
    assert.doesNotMatch(text, /secretvalue/);
    assert.doesNotMatch(text, new RegExp(STATS_FIELD));
    assert.doesNotMatch(text, /user:\d+:profile|stats:\d+/);
    assert.match(text, /user:__key__:profile/);
    assert.match(text, /# Privacy: no key name, value or argument of the source is copied/);
    assert.match(text, /Redis \d+\.\d+/);
  });

  it('keeps the names with --keep-names', async () => {
    const traffic = startTraffic(server(), 2);
    let kept: CaptureResult;
    try {
      kept = await captureWorkload(connectionOf(server()), 'local', options(1500, { keepNames: true, monitor: 'on' }));
    } finally {
      await traffic.stop();
    }
    const keptText = scenarioText(kept, buildWorkload(kept));
    assert.match(keptText, new RegExp(`HINCRBY stats:__key__ ${STATS_FIELD}`));
    assert.match(keptText, /# Names: kept as written/);
  });

  it('still writes a scenario from the counters and SCAN when ACL refuses MONITOR, and says so', async () => {
    await withRedis(server(), (redis) => redis.call('ACL', 'SETUSER', 'nomonitor', 'on', '>pw', '~*', '&*', '+@all', '-monitor') as Promise<unknown>);
    const traffic = startTraffic(server(), 4);
    let refused: CaptureResult;
    try {
      refused = await captureWorkload(connectionOf(server(), { username: 'nomonitor', password: 'pw' }), 'acl', options(2000, { monitor: 'on' }));
    } finally {
      await traffic.stop();
    }
    assert.equal(refused.monitor?.end, 'refused');
    const refusedText = scenarioText(refused, buildWorkload(refused));
    assert.match(refusedText, /# Note: MONITOR was refused \(NOPERM/);
    const { weights } = trafficOf(refusedText);
    assert.ok(Math.abs((weights.get('GET') ?? 0) - KNOWN.get) < 0.03, refusedText);
    assert.match(refusedText, /GET user:__key__:profile/);
    assert.match(refusedText, /HINCRBY stats:__key__ f1 1/);
    assert.doesNotMatch(refusedText, /secretvalue|pageviews/);
  });

  it('writes a scenario from the counters alone when ACL refuses MONITOR and SCAN, and says what it could not sample', async () => {
    await withRedis(server(), (redis) => redis.call('ACL', 'SETUSER', 'counters', 'on', '>pw', '~*', '&*', '+@all', '-monitor', '-scan') as Promise<unknown>);
    const traffic = startTraffic(server(), 4);
    let refused: CaptureResult;
    try {
      refused = await captureWorkload(connectionOf(server(), { username: 'counters', password: 'pw' }), 'acl', options(1500, { monitor: 'on' }));
    } finally {
      await traffic.stop();
    }
    const refusedText = scenarioText(refused, buildWorkload(refused));
    assert.match(refusedText, /# Note: MONITOR was refused/);
    assert.match(refusedText, /# Note: SCAN was refused \(NOPERM/);
    const { weights } = trafficOf(refusedText);
    assert.ok(Math.abs((weights.get('SET') ?? 0) - KNOWN.set) < 0.03, refusedText);
    assert.match(refusedText, /GET key:__key__/);
  });

  it('leaves MONITOR off above its rate limit, with a warning, and still writes the mix', async () => {
    const traffic = startTraffic(server(), 4);
    let busy: CaptureResult;
    try {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      busy = await captureWorkload(connectionOf(server()), 'busy', options(1500, { monitorRateLimit: 1 }));
    } finally {
      await traffic.stop();
    }
    assert.equal(busy.monitor, undefined);
    const busyText = scenarioText(busy, buildWorkload(busy));
    assert.match(busyText, /# Note: MONITOR was off: the server ran [\d,]+ commands\/s, above the 1\/s limit/);
    assert.ok(Math.abs((trafficOf(busyText).weights.get('GET') ?? 0) - KNOWN.get) < 0.03, busyText);
  });
});

describe('rbench capture: a server killed mid-capture', function () {
  this.timeout(60_000);
  for (const monitor of ['on', 'off'] as const) {
    it(`writes what was sampled, marked partial (MONITOR ${monitor})`, async () => {
      const server = await startLocalServer();
      const traffic = startTraffic(server, 4);
      try {
        const capture = captureWorkload(connectionOf(server), 'dying', options(8000, { monitor }));
        await new Promise((resolve) => setTimeout(resolve, 2500));
        process.kill(server.pid, 'SIGKILL');
        const result = await capture;
        assert.match(result.partial ?? '', /the server went away after \d/);
        assert.ok(result.windowMs < 6000, `the capture ended with the server (${result.windowMs} ms)`);
        const text = scenarioText(result, buildWorkload(result));
        assert.match(text, /# PARTIAL: the server went away/);
        const { weights } = trafficOf(text);
        assert.ok(Math.abs((weights.get('GET') ?? 0) - KNOWN.get) < 0.05, text);
      } finally {
        await traffic.stop();
        await server.stop();
      }
    });
  }

  it('refuses a server it cannot reach with a plain message', async () => {
    await assert.rejects(captureWorkload(connectionOf({ host: '127.0.0.1', port: 1 }), 'nowhere', options(1000)), /cannot connect to 127\.0\.0\.1:1/);
  });
});

export { Redis };
