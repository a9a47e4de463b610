import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import type Redis from 'ioredis';
import { closeControlConnection, openControlConnection } from '../../../src/redis/control';
import { describeServerError } from '../../../src/redis/errors';
import { freePort, startLocalServer } from '../../../src/redis/localServer';
import { counterIncrease, persistenceEvents, ServerMonitor, type PersistenceEvent } from '../../../src/redis/monitor';
import type { ServerSample } from '../../../src/redis/types';
import { useRedisServer } from '../../helpers/redis';
import { delay, optionsFor, waitUntil } from './support';

const kinds = (events: PersistenceEvent[]) => events.map((event) => event.kind);

describe('ServerMonitor on a real server', () => {
  describe('sampling', () => {
    const server = useRedisServer();

    it('samples once a second on a fixed grid, from the given origin', async function () {
      this.timeout(10_000);
      const seen: ServerSample[] = [];
      const origin = Date.now();
      const monitor = new ServerMonitor(optionsFor(server()), { timeOrigin: origin, onSample: (sample) => seen.push(sample) });
      try {
        await monitor.open();
        const before = await monitor.sampleNow();
        await monitor.start();
        assert.equal(monitor.sampling, true);
        await delay(2500);
        const samples = await monitor.stop();
        const after = await monitor.sampleNow();

        assert.equal(samples.length, 3);
        assert.deepEqual(seen, samples);
        const startedAt = samples[0].t;
        samples.forEach((sample, i) => assert.ok(Math.abs(sample.t - startedAt - i * 1000) < 100, `sample ${i} at ${sample.t}`));
        assert.ok(before.t <= startedAt && after.t >= samples[2].t);
        assert.ok(samples.every((sample) => sample.usedMemory > 0 && sample.connectedClients >= 1));
        assert.equal(monitor.lastError, undefined);
        // Nothing is sampled after stop().
        await delay(1100);
        assert.equal(seen.length, 3);
      } finally {
        await monitor.close();
      }
    });

    it('reports a connection failure from open()', async () => {
      const port = await freePort();
      const monitor = new ServerMonitor(optionsFor({ host: '127.0.0.1', port }));
      await assert.rejects(monitor.open(), new RegExp(`^RedisConnectionError: cannot connect to 127\\.0\\.0\\.1:${port}: connection refused`));
      await monitor.close();
    });
  });

  describe('persistence events', () => {
    const server = useRedisServer();
    let redis: Redis;
    before(async function () {
      this.timeout(20_000);
      redis = await openControlConnection(optionsFor(server()));
      await redis.call('DEBUG', 'POPULATE', '200000');
    });
    after(async () => closeControlConnection(redis));

    it('shows a snapshot and an AOF rewrite taken during monitoring', async function () {
      this.timeout(20_000);
      const monitor = new ServerMonitor(optionsFor(server()));
      try {
        await monitor.start(100);
        await redis.bgsave();
        await waitUntil(async () => (await redis.info('persistence')).includes('rdb_bgsave_in_progress:0'));
        await redis.bgrewriteaof();
        await waitUntil(async () => /aof_rewrite_in_progress:0[\s\S]*aof_rewrite_scheduled:0/.test(await redis.info('persistence')));
        await delay(250);
        const events = persistenceEvents(await monitor.stop());
        assert.deepEqual(kinds(events), ['bgsave-start', 'bgsave-end', 'aof-rewrite-start', 'aof-rewrite-end']);
        assert.ok(events.every((event, i) => i === 0 || event.t >= events[i - 1].t));
      } finally {
        await monitor.close();
      }
    });
  });

  describe('a snapshot that fails', () => {
    // With a save point, a failed snapshot makes the server refuse writes (stop-writes-on-bgsave-error).
    const server = useRedisServer({ config: [{ name: 'save', args: ['3600', '1'] }] });

    it('shows as bgsave-failed, and the MISCONF replies that follow are explained', async function () {
      this.timeout(20_000);
      const redis = await openControlConnection(optionsFor(server()));
      const monitor = new ServerMonitor(optionsFor(server()));
      try {
        await redis.set('k', 'v');
        await monitor.start(100);
        // The server's working directory disappears: the child cannot create its temp RDB file there.
        // (Permissions would not do: tests may run as root.)
        rmSync(server().dir, { recursive: true, force: true });
        await redis.bgsave();
        await waitUntil(async () => (await redis.info('persistence')).includes('rdb_last_bgsave_status:err'));
        await delay(250);
        const samples = await monitor.stop();
        assert.deepEqual(kinds(persistenceEvents(samples)), ['bgsave-start', 'bgsave-failed']);
        assert.equal(samples[samples.length - 1].rdbLastBgsaveStatus, 'err');

        const reply = await redis.set('k2', 'v').then(
          () => 'accepted',
          (error: Error) => error.message,
        );
        assert.match(reply, /^MISCONF/);
        assert.match(
          describeServerError(reply),
          /^the server refuses writes because its last RDB snapshot failed — check that its `dir` exists .* `stop-writes-on-bgsave-error no`/,
        );
      } finally {
        await monitor.close();
        // Otherwise shutdown tries to save, fails, and the server refuses to exit.
        await redis.config('SET', 'save', '');
        await closeControlConnection(redis);
      }
    });
  });

  it('keeps the samples taken when the server goes away mid-run, and keeps retrying', async function () {
    this.timeout(20_000);
    const server = await startLocalServer();
    const monitor = new ServerMonitor(optionsFor(server));
    try {
      await monitor.start(100);
      await delay(350);
      await server.stop();
      await delay(400);
      assert.equal(monitor.sampling, true, 'sampling retries as the load reconnects');
      const samples = await monitor.stop();
      assert.ok(samples.length >= 3, `${samples.length} samples`);
      assert.equal(monitor.gaps.length, 1);
      assert.equal(monitor.gaps[0].toT, undefined);
      assert.match(
        monitor.lastError ?? '',
        new RegExp(`^server sampling: no samples from [\\d.]+ s on: (lost the connection to|cannot connect to) 127\\.0\\.0\\.1:${server.port}`),
      );
      await assert.rejects(monitor.sampleNow(), /lost the connection|cannot connect/);
    } finally {
      await monitor.close();
      await server.stop();
    }
  });

  it('resumes sampling when the server comes back (a restart on the same port), the gap on record', async function () {
    this.timeout(20_000);
    const server = await startLocalServer();
    const monitor = new ServerMonitor(optionsFor(server));
    let restarted: ChildProcess | undefined;
    try {
      await monitor.start(100);
      await delay(300);
      await server.stop();
      await delay(500);
      restarted = spawn('redis-server', ['--port', String(server.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      await waitUntil(async () => monitor.gaps[0]?.toT !== undefined, 10_000);
      await delay(300);
      assert.equal(monitor.sampling, true);
      const samples = await monitor.stop();
      const gap = monitor.gaps[0];
      assert.equal(monitor.gaps.length, 1);
      assert.ok(gap.toT! - gap.fromT >= 400, `gap ${gap.fromT}…${gap.toT} ms`);
      const after = samples.filter((sample) => sample.t >= gap.toT!);
      assert.ok(after.length >= 2, `${after.length} samples after the restart`);
      assert.ok(samples.some((sample) => sample.t < gap.fromT));
      assert.match(monitor.lastError ?? '', /^server sampling: no samples from [\d.]+ s to [\d.]+ s \(.+\), then sampling resumed$/);
    } finally {
      restarted?.kill('SIGTERM');
      await monitor.close();
      await server.stop();
    }
  });
});

describe('persistenceEvents', () => {
  function sample(t: number, fields: Partial<ServerSample>): ServerSample {
    return {
      t,
      usedMemory: 0,
      usedMemoryRss: 0,
      connectedClients: 1,
      instantaneousOps: 0,
      totalCommandsProcessed: 0,
      rdbBgsaveInProgress: false,
      rdbLastBgsaveStatus: 'ok',
      rdbChangesSinceLastSave: 0,
      aofEnabled: false,
      aofRewriteInProgress: false,
      aofLastBgrewriteStatus: 'ok',
      latestForkUsec: 0,
      evictedKeys: 0,
      expiredKeys: 0,
      keys: 0,
      errorstats: {},
      ...fields,
    };
  }

  // CONFIG RESETSTAT (RBench's own, before each test on a throwaway server) sets rdb_saves and aof_rewrites back to 0.
  it('a snapshot that starts in the second the counters were reset is still seen', () => {
    const events = persistenceEvents([sample(0, { rdbSaves: 3 }), sample(1000, { rdbSaves: 1, rdbBgsaveInProgress: true }), sample(2000, { rdbSaves: 1 })]);
    assert.deepEqual(events, [
      { t: 1000, kind: 'bgsave-start' },
      { t: 2000, kind: 'bgsave-end' },
    ]);
  });

  it('a reset with no job started since is no event', () => {
    assert.deepEqual(persistenceEvents([sample(0, { rdbSaves: 3, aofRewrites: 2 }), sample(1000, { rdbSaves: 0, aofRewrites: 0 })]), []);
  });

  it('counterIncrease: the growth between two samples, undefined when the counter dropped or is missing', () => {
    assert.equal(counterIncrease(10, 25), 15);
    assert.equal(counterIncrease(25, 3), undefined);
    assert.equal(counterIncrease(undefined, 3), undefined);
  });

  it('reports a snapshot seen in progress, with start and end at the samples that show them', () => {
    const events = persistenceEvents([
      sample(0, { rdbSaves: 0 }),
      sample(1000, { rdbSaves: 1, rdbBgsaveInProgress: true }),
      sample(2000, { rdbSaves: 1, rdbBgsaveInProgress: true }),
      sample(3000, { rdbSaves: 1 }),
    ]);
    assert.deepEqual(events, [
      { t: 1000, kind: 'bgsave-start' },
      { t: 3000, kind: 'bgsave-end' },
    ]);
  });

  it('reports back-to-back snapshots as end then start', () => {
    const events = persistenceEvents([
      sample(0, { rdbSaves: 1, rdbBgsaveInProgress: true }),
      sample(1000, { rdbSaves: 2, rdbBgsaveInProgress: true, rdbLastBgsaveStatus: 'err' }),
    ]);
    assert.deepEqual(kinds(events), ['bgsave-failed', 'bgsave-start']);
  });

  it('catches a failure on servers without counters from the status turning to err', () => {
    const events = persistenceEvents([sample(0, {}), sample(1000, { rdbLastBgsaveStatus: 'err' }), sample(2000, { rdbLastBgsaveStatus: 'err' })]);
    assert.deepEqual(events, [{ t: 1000, kind: 'bgsave-failed' }]);
  });

  it('tracks AOF rewrites by their own fields', () => {
    const events = persistenceEvents([
      sample(0, { aofRewrites: 3 }),
      sample(1000, { aofRewrites: 4, aofRewriteInProgress: true }),
      sample(2000, { aofRewrites: 4, aofLastBgrewriteStatus: 'err' }),
    ]);
    assert.deepEqual(kinds(events), ['aof-rewrite-start', 'aof-rewrite-failed']);
  });

  it('has nothing to say about a quiet server', () => {
    assert.deepEqual(persistenceEvents([sample(0, { rdbSaves: 2 }), sample(1000, { rdbSaves: 2 })]), []);
    assert.deepEqual(persistenceEvents([]), []);
  });
});
