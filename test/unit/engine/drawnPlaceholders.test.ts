// Issue 43: placeholders with their own number space, on a real server. `__rand(MIN..MAX)__` draws only inside
// its range and spreads evenly (chi-square, fixed seed); a sequential one walks its own space exactly, whatever
// the other commands of the mix do; `__float(…)__` reaches the server as a decimal it parses; `__range(…)__` is
// a pair a a+WIDTH (min ≤ max) on both client paths; SET over 1..100 sequential beside GET over 1..1000 uniform
// leaves 100 keys and misses nine GETs in ten.
import assert from 'node:assert/strict';
import type Redis from 'ioredis';
import type { LoadRequest } from '../../../src/engine/types';
import type { ClientPath, CommandTemplate, PhasePlan } from '../../../src/scenario/plan';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import { check, errors } from '../scenario/helpers';
import { runLoad } from '../../../src/engine';
import { useCluster } from '../../helpers/cluster';
import { seedOf } from './clusterChecks';
import { Random } from '../../../src/engine/requests/random';
import { CompiledCommand } from '../../../src/engine/requests/templateEncoder';
import { runInProcess } from './inProcessLoad';
import { connectionTo } from './plans';

describe('drawn placeholders in the encoder (issue 43)', () => {
  /** `requests` requests of the phase's first command, as RESP text, drawn with a fixed seed. */
  function encoded(command: CommandTemplate, requests: number): string[] {
    const compiled = new CompiledCommand(command, 0, { keyWidth: 3, client: 0, connections: 1 });
    const random = new Random(11);
    const buffer = Buffer.alloc(compiled.encodedLength(0));
    return Array.from({ length: requests }, () => buffer.toString('latin1', 0, compiled.encodeInto(buffer, 0, 0, 7, random, 1000)));
  }

  it('a range pair and a sequential walk across ( … )*N copies, the same for a plan read back from JSON (a run file, a shard)', () => {
    const phase = check('### t\nMSET (k:__rand(1..5,sequential)__ __range(0..100,10)__)*2\n').scenarios[0].points[0].phases[0];
    const command = phase.tests[0].commands[0].command;
    const requests = encoded(command, 3);
    assert.deepEqual(encoded(JSON.parse(JSON.stringify(command)) as CommandTemplate, 3), requests);
    const argv = requests.map((request) => request.split('\r\n').filter((_, i) => i % 2 === 0 && i > 0));
    // Each request: MSET k:a lo hi k:b lo hi, with a, b the walk 1 2 | 3 4 | 5 1 and hi = lo + 10.
    assert.deepEqual(
      argv.map((args) => [args[1], args[4]]),
      [
        ['k:1', 'k:2'],
        ['k:3', 'k:4'],
        ['k:5', 'k:1'],
      ],
    );
    for (const args of argv) {
      for (const at of [2, 5]) {
        assert.equal(Number(args[at + 1]), Number(args[at]) + 10);
        assert.ok(Number(args[at]) >= 0 && Number(args[at]) <= 90);
      }
    }
  });
});

describe('drawn placeholders on a real server (issue 43)', function () {
  this.timeout(90_000);
  const server = useRedisServer();

  beforeEach(() => withRedis(server(), (redis) => redis.flushall().then(() => redis.config('RESETSTAT'))));

  function phaseOf(text: string): PhasePlan {
    const resolved = check(`### t\nwarmup 0s\nseed 7\n${text}\n`);
    assert.deepEqual(
      errors(resolved).map((d) => d.message),
      [],
    );
    return resolved.scenarios[0].points[0].phases[0];
  }

  async function run(text: string, client: ClientPath = 'fast'): Promise<void> {
    const phase = phaseOf(text);
    // Each test of the phase in turn (a mix is one test), as a run does.
    for (const test of phase.tests) {
      const request: LoadRequest = { phase, test, connection: connectionTo(server()), client, seed: 7 };
      const result = await runInProcess(request);
      assert.equal(result.status, 'complete');
      const total = result.commands.find((c) => c.command === 'total') ?? result.commands[0];
      assert.equal(total.errors, 0, JSON.stringify(total.errorExamples));
    }
  }

  const counters = (redis: Redis, keys: string[]) => redis.mget(keys).then((values) => values.map((value) => Number(value ?? 0)));

  it('__rand(1..20)__ draws only inside 1..20, evenly (chi-square over 20 bins, 19 degrees of freedom)', async () => {
    await run('clients 4\nrequests 20000\nINCR c:__rand(1..20)__');
    await withRedis(server(), async (redis) => {
      const keys = (await redis.keys('*')).sort();
      const expected = Array.from({ length: 20 }, (_, i) => `c:${i + 1}`).sort();
      assert.deepEqual(keys, expected, 'only c:1 … c:20 exist');
      const counts = await counters(
        redis,
        Array.from({ length: 20 }, (_, i) => `c:${i + 1}`),
      );
      assert.equal(
        counts.reduce((a, b) => a + b, 0),
        20_000,
      );
      const chiSquare = counts.reduce((sum, count) => sum + (count - 1000) ** 2 / 1000, 0);
      // 43.82 is the 0.999 quantile of chi-square with 19 degrees of freedom; the seed is fixed, so this is not flaky.
      assert.ok(chiSquare < 43.82, `chi-square ${chiSquare.toFixed(1)} over ${counts.join(',')}`);
    });
  });

  it('a sequential space of its own gives exact counts: INCR over 1..100 in a mix, each key hit ⌊n/100⌋ or ⌈n/100⌉ times', async () => {
    await run('clients 1\nrequests 4000\n50% INCR s:__rand(1..100,sequential)__\n50% GET g:__rand(1..1000)__');
    await withRedis(server(), async (redis) => {
      const incrs = await commandCalls(redis, 'incr');
      assert.ok(incrs > 1000, `INCR ran ${incrs} times`);
      const counts = await counters(
        redis,
        Array.from({ length: 100 }, (_, i) => `s:${i + 1}`),
      );
      assert.equal(
        counts.reduce((a, b) => a + b, 0),
        incrs,
      );
      // One walk 1, 2, …, 100, 1, 2, …: the first incrs mod 100 keys once more than the rest.
      const laps = Math.floor(incrs / 100);
      assert.deepEqual(
        counts,
        counts.map((_, i) => (i < incrs % 100 ? laps + 1 : laps)),
      );
      assert.equal(await redis.dbsize(), 100);
    });
  });

  it('__float(0..1000)__ reaches the server as a decimal score: every ZADD accepted, every score inside 0..1000, fractions kept', async () => {
    await run('clients 2\nrequests 3000\nZADD lb __float(0..1000)__ m:__rand(1..500)__');
    await withRedis(server(), async (redis) => {
      const stats = await redis.info('commandstats');
      assert.match(stats, /cmdstat_zadd:calls=3000,.*failed_calls=0/);
      const scores = (await redis.zrange('lb', 0, -1, 'WITHSCORES')).filter((_, i) => i % 2 === 1).map(Number);
      assert.equal(scores.length, await redis.zcard('lb'));
      assert.ok(scores.length > 400 && scores.length <= 500, `${scores.length} members`);
      assert.ok(
        scores.every((score) => score >= 0 && score <= 1000),
        'scores inside 0..1000',
      );
      assert.ok(scores.filter((score) => !Number.isInteger(score)).length > scores.length / 2, 'most scores have a fraction');
    });
  });

  for (const client of ['fast', 'ioredis'] as const) {
    it(`__range(0..1000,100)__ is always a pair a a+100 with 0 ≤ a ≤ 900 (${client} client)`, async () => {
      await run('clients 3\nrequests 2000\nHSET pairs __range(0..1000,100)__\nHSET floats __range(0.5..10.5,1.25)__', client);
      await withRedis(server(), async (redis) => {
        const pairs = Object.entries(await redis.hgetall('pairs')).map(([low, high]) => [Number(low), Number(high)]);
        assert.ok(pairs.length > 500, `${pairs.length} pairs`);
        for (const [low, high] of pairs) {
          assert.ok(Number.isInteger(low) && low >= 0 && low <= 900, `low ${low}`);
          assert.equal(high, low + 100);
        }
        const floats = Object.entries(await redis.hgetall('floats')).map(([low, high]) => [Number(low), Number(high)]);
        assert.ok(floats.length > 100, `${floats.length} float pairs`);
        for (const [low, high] of floats) {
          assert.ok(low >= 0.5 && high <= 10.5 && low <= high, `${low} ${high}`);
          assert.ok(Math.abs(high - low - 1.25) < 1e-9, `${low} ${high}`);
        }
      });
    });
  }

  it('SET over 1..100 sequential beside GET over 1..1000 uniform: DBSIZE 100, and about nine GETs in ten miss', async () => {
    await run('clients 1\nrequests 10000\n50% SET k:__rand(1..100,sequential)__ v\n50% GET k:__rand(1..1000)__');
    await withRedis(server(), async (redis) => {
      assert.equal(await redis.dbsize(), 100);
      const keys = await redis.keys('*');
      assert.ok(
        keys.every((key) => /^k:([1-9][0-9]?|100)$/.test(key)),
        'only k:1 … k:100',
      );
      const gets = await commandCalls(redis, 'get');
      const stats = await redis.info('stats');
      const hits = Number(/keyspace_hits:(\d+)/.exec(stats)![1]);
      const misses = Number(/keyspace_misses:(\d+)/.exec(stats)![1]);
      assert.equal(hits + misses, gets);
      // After the first 200 requests every one of 1..100 exists: a GET hits 100 keys of 1,000.
      const hitRate = hits / gets;
      assert.ok(hitRate > 0.085 && hitRate < 0.115, `hit rate ${hitRate.toFixed(3)} over ${gets} GETs`);
    });
  });
});

describe('drawn placeholders on a Redis Cluster (issue 43)', function () {
  this.timeout(90_000);
  const cluster = useCluster(3, 0);

  it('routes keys made of drawn numbers to their slot: every INCR lands, no errors, the counters add up on the masters', async () => {
    const resolved = check('### t\nwarmup 0s\nseed 3\nclients 3\npipeline 8\nrequests 9000\nINCR c:__rand(1..3000)__:__rand(1..2)__\n');
    assert.deepEqual(errors(resolved), []);
    const phase = resolved.scenarios[0].points[0].phases[0];
    const result = await runLoad({ phase, test: phase.tests[0], connection: connectionTo(seedOf(cluster()), { cluster: true }), client: 'fast', seed: 3 });
    assert.equal(result.status, 'complete', result.error);
    assert.equal(result.total.requests, 9000);
    assert.equal(result.total.errors, 0, JSON.stringify(result.total.errorsByKind));
    const { masters } = await cluster().roles();
    let sum = 0;
    let calls = 0;
    for (const port of masters) {
      const node = cluster().client(port);
      calls += await commandCalls(node, 'incr');
      const keys = await node.keys('c:*');
      for (const key of keys) assert.match(key, /^c:([1-9]\d{0,2}|[12]\d{3}|3000):[12]$/);
      // One key at a time: a node's keys are in several slots (MGET would be CROSSSLOT).
      for (const value of await Promise.all(keys.map((key) => node.get(key)))) sum += Number(value);
    }
    assert.equal(calls, 9000);
    assert.equal(sum, 9000);
  });
});
