// The server-counter reads (src/redis/serverCounters.ts): INFO commandstats/cpu/stats/latencystats, SLOWLOG and
// LATENCY LATEST in one write, from a real server; a fake server that lacks them gives absent fields with reasons.
import assert from 'node:assert/strict';
import type Redis from 'ioredis';
import { closeControlConnection, openControlConnection, ioredisLink } from '../../../src/redis/control';
import { commandCountersFromInfo, cpuFromInfo, latencyStatsFromInfo, parseInfo, sampleFromInfo } from '../../../src/redis/info';
import { latencyEvents, readServerCounters, slowlogEntries } from '../../../src/redis/serverCounters';
import { startFakeRedis } from '../../helpers/fakeRedis';
import { useRedisServer } from '../../helpers/redis';
import { optionsFor } from './support';

describe('server counters: parsing', () => {
  it('reads commandstats with Redis 7 subcommands, rejected and failed calls; keeps odd names as data, drops __proto__', () => {
    const info = parseInfo(
      [
        '# Commandstats',
        'cmdstat_get:calls=10,usec=25,usec_per_call=2.50,rejected_calls=1,failed_calls=2',
        'cmdstat_config|get:calls=3,usec=9,usec_per_call=3.00,rejected_calls=0,failed_calls=0',
        'cmdstat_set:calls=4,usec=8',
        'cmdstat___proto__:calls=7,usec=7',
        'cmdstat_constructor:calls=5,usec=5',
        'cmdstat_broken:calls=x,usec=1',
      ].join('\r\n'),
    );
    const commands = commandCountersFromInfo(info)!;
    assert.deepEqual(Object.fromEntries(commands), {
      get: { calls: 10, usec: 25, rejected: 1, failed: 2 },
      'config|get': { calls: 3, usec: 9, rejected: 0, failed: 0 },
      set: { calls: 4, usec: 8 },
      constructor: { calls: 5, usec: 5 },
    });
    assert.equal(commandCountersFromInfo(parseInfo('# Stats\r\ntotal_forks:1\r\n')), undefined, 'no section: undefined, not an empty count');
  });

  it('reads cpu with and without main-thread figures, and latencystats', () => {
    assert.deepEqual(cpuFromInfo(parseInfo('# CPU\r\nused_cpu_sys:1.5\r\nused_cpu_user:2.25\r\n')), { user: 2.25, sys: 1.5 });
    assert.deepEqual(
      cpuFromInfo(parseInfo('# CPU\r\nused_cpu_sys:1\r\nused_cpu_user:2\r\nused_cpu_sys_main_thread:0.5\r\nused_cpu_user_main_thread:1.5\r\n')),
      { user: 2, sys: 1, mainThreadUser: 1.5, mainThreadSys: 0.5 },
    );
    assert.equal(cpuFromInfo(parseInfo('# Server\r\nredis_version:5.0.0\r\n')), undefined);
    const stats = latencyStatsFromInfo(parseInfo('# Latencystats\r\nlatency_percentiles_usec_get:p50=1.003,p99=2.007,p99.9=3.007\r\n'))!;
    assert.deepEqual(Object.fromEntries(stats), { get: { p50: 1.003, p99: 2.007, p999: 3.007 } });
    assert.equal(latencyStatsFromInfo(parseInfo('# Stats\r\n')), undefined);
  });

  it('adds the per-second sample fields only when the server gave them', () => {
    const full = sampleFromInfo(
      parseInfo(
        '# Stats\r\ntotal_forks:3\r\n# CPU\r\nused_cpu_sys:1\r\nused_cpu_user:2\r\nused_cpu_sys_main_thread:0.5\r\nused_cpu_user_main_thread:1\r\n' +
          '# Commandstats\r\ncmdstat_get:calls=10,usec=20\r\ncmdstat_set:calls=5,usec=30\r\n',
      ),
      0,
    );
    assert.deepEqual([full.commandCalls, full.commandUsec, full.cpuUser, full.cpuSys, full.cpuMainThread, full.totalForks], [15, 50, 2, 1, 1.5, 3]);
    const bare = sampleFromInfo(parseInfo('# Memory\r\nused_memory:1\r\n'), 0);
    for (const field of ['commandCalls', 'commandUsec', 'cpuUser', 'cpuSys', 'cpuMainThread', 'totalForks'] as const) {
      assert.equal(Object.hasOwn(bare, field), false, `${field} is absent, not 0`);
    }
  });

  it('reads SLOWLOG and LATENCY LATEST replies defensively', () => {
    assert.deepEqual(slowlogEntries([[7, 1700000000, 1500, ['DEBUG', 'SLEEP', '0.1'], '127.0.0.1:1', '']]), [{ id: 7, command: 'debug', usec: 1500 }]);
    assert.deepEqual(slowlogEntries('nonsense'), []);
    assert.deepEqual(slowlogEntries([['x', 1, 2, []], [1]]), []);
    assert.deepEqual(
      { ...latencyEvents([['command', 1700000000, 120, 300], ['__proto__', 1, 2, 3], ['bad']]) },
      {
        command: { time: 1700000000, latestMs: 120, maxMs: 300 },
      },
    );
  });
});

describe('server counters on a real server', () => {
  const server = useRedisServer({ config: [{ name: 'latency-monitor-threshold', args: ['50'] }] });
  let redis: Redis;
  before(async () => {
    redis = await openControlConnection(optionsFor(server()));
  });
  after(async () => closeControlConnection(redis));

  it('reads commandstats, cpu, stats, latencystats, SLOWLOG and LATENCY LATEST in one read, nothing absent', async () => {
    await redis.config('SET', 'slowlog-log-slower-than', '0');
    for (let i = 0; i < 5; i++) await redis.set(`k${i}`, 'v');
    await redis.call('DEBUG', 'SLEEP', '0.06');
    const read = await readServerCounters(ioredisLink(redis), 'node', { slowlogEntries: 4 });
    await redis.config('SET', 'slowlog-log-slower-than', '10000');
    const { counters } = read;
    assert.equal(counters.absent, undefined, JSON.stringify(counters.absent));
    assert.ok(counters.commands.set.calls >= 5, JSON.stringify(counters.commands));
    assert.ok(counters.commands['config|set'].calls >= 1, 'Redis 7 names subcommands');
    assert.ok(counters.cpu && counters.cpu.user >= 0 && counters.cpu.mainThreadUser !== undefined);
    for (const field of ['totalForks', 'latestForkUsec', 'evictedKeys', 'expiredKeys', 'rejectedConnections'] as const) {
      assert.equal(typeof counters[field], 'number', field);
    }
    assert.ok(counters.latencyStats?.set, JSON.stringify(counters.latencyStats));
    assert.ok((counters.slowlogLastId ?? -1) >= 0);
    assert.ok(read.slowlog!.length > 0 && read.slowlog!.length <= 4);
    assert.ok(
      read.slowlog!.some((entry) => entry.command === 'debug' && entry.usec >= 50_000),
      JSON.stringify(read.slowlog),
    );
    assert.ok(counters.latencyEvents?.command, `DEBUG SLEEP 60 ms is a latency event: ${JSON.stringify(counters.latencyEvents)}`);
  });
});

describe('server counters from a server that lacks them', () => {
  it('a server whose INFO lacks the sections and refuses SLOWLOG and LATENCY: every part absent with its reason, no zero', async () => {
    const fake = await startFakeRedis('127.0.0.1', { info: '# Server\r\nredis_version:5.0.0\r\nredis_mode:standalone\r\n# Stats\r\nexpired_keys:4\r\n' });
    const redis = await openControlConnection({ host: fake.host, port: fake.port, resp: 2, connectTimeoutMs: 2000 });
    try {
      const { counters, slowlog } = await readServerCounters(ioredisLink(redis), 'fake');
      assert.deepEqual({ ...counters.commands }, {});
      assert.equal(counters.cpu, undefined);
      assert.equal(counters.latencyStats, undefined);
      assert.equal(counters.slowlogLastId, undefined);
      assert.equal(counters.latencyEvents, undefined);
      assert.equal(slowlog, undefined);
      assert.equal(counters.expiredKeys, 4);
      assert.equal(counters.totalForks, undefined);
      const absent = counters.absent!;
      assert.match(absent.commands, /INFO commandstats not given/);
      assert.match(absent.cpu, /INFO cpu not given/);
      assert.match(absent.latencyStats, /latencystats not given/);
      assert.match(absent.totalForks, /no total_forks/);
      assert.match(absent.slowlog, /SLOWLOG refused: ERR unknown command/);
      assert.match(absent.latencyEvents, /LATENCY LATEST refused: ERR unknown command/);
      // One write: INFO, SLOWLOG GET, SLOWLOG LEN and LATENCY LATEST arrived together.
      const names = fake.commands.map((words) => words[0]);
      assert.deepEqual(names.slice(-4), ['INFO', 'SLOWLOG', 'SLOWLOG', 'LATENCY']);
    } finally {
      await closeControlConnection(redis);
      await fake.close();
    }
  });

  it('INFO refused (NOPERM): the INFO parts absent with the refusal', async () => {
    const fake = await startFakeRedis('127.0.0.1', {
      answer: (args) => (args[0].toUpperCase() === 'INFO' ? { error: "NOPERM this user has no permissions to run the 'info' command" } : undefined),
    });
    const redis = await openControlConnection({ host: fake.host, port: fake.port, resp: 2, connectTimeoutMs: 2000 });
    try {
      const { counters } = await readServerCounters(ioredisLink(redis), 'fake');
      assert.match(counters.absent!.commands, /^INFO refused: NOPERM/);
      assert.match(counters.absent!.cpu, /^INFO refused: NOPERM/);
      assert.equal(counters.totalForks, undefined);
    } finally {
      await closeControlConnection(redis);
      await fake.close();
    }
  });

  it('a server before Redis 7 (INFO takes one section): asked INFO all once more, the counters read', async () => {
    const old =
      '# Server\r\nredis_version:6.0.0\r\n# Stats\r\ntotal_forks:2\r\n# CPU\r\nused_cpu_sys:1\r\nused_cpu_user:2\r\n# Commandstats\r\ncmdstat_config:calls=3,usec=6\r\n';
    const fake = await startFakeRedis('127.0.0.1', {
      answer: (args) => (args[0].toUpperCase() === 'INFO' ? (args.length > 2 ? { error: 'ERR syntax error' } : old) : undefined),
    });
    const redis = await openControlConnection({ host: fake.host, port: fake.port, resp: 2, connectTimeoutMs: 2000 });
    try {
      const { counters } = await readServerCounters(ioredisLink(redis), 'fake');
      assert.deepEqual({ ...counters.commands.config }, { calls: 3, usec: 6 });
      assert.deepEqual(counters.cpu, { user: 2, sys: 1 });
      assert.equal(counters.totalForks, 2);
      assert.match(counters.absent!.mainThreadCpu, /no used_cpu_\*_main_thread/);
      assert.match(counters.absent!.latencyStats, /Redis 7\+ has it/);
      assert.deepEqual(
        fake.commands.filter((words) => words[0] === 'INFO').map((words) => words.slice(1).join(' ')),
        ['commandstats cpu stats latencystats persistence', 'all'],
      );
    } finally {
      await closeControlConnection(redis);
      await fake.close();
    }
  });
});
