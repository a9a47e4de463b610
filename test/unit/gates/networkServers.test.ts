// The network gate against servers that lie (issue 18, seen case 6): a fake RESP server that claims to be a
// cluster node or a sentinel names other servers, a real redis-server among them. RBench must stop with the
// list and contact none of them: no connection, no AUTH, no load, no clean-up. All traffic stays on 127.0.0.0/8
// (127.0.0.2 stands for "another host").
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { runLoad } from '../../../src/engine';
import type { LoadResult } from '../../../src/engine/types';
import { discoverPrimary } from '../../../src/redis/sentinel';
import { sentinelClientOptions } from '../../../src/redis/sentinelClient';
import type { ConnectionOptions } from '../../../src/redis/types';
import { runScenario } from '../../../src/runner/runScenario';
import { checkText, type ScenarioPlan } from '../../../src/scenario';
import { CLUSTER_INFO, clusterAnswers, startFakeRedis, startListener, type FakeServer, type Listener } from '../../helpers/fakeRedis';
import { useRedisServer } from '../../helpers/redis';
import { connectionTo, loadRequest, singleTest } from '../engine/plans';

const CLIENTS = ['fast', 'ioredis'] as const;

function planOf(text: string): ScenarioPlan {
  const resolved = checkText(text);
  assert.deepEqual(
    resolved.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
    [],
  );
  return resolved.scenarios[0];
}

/** The load's failure, whether runLoad rejected (the layout, before any worker) or the load ended failed. */
async function loadFailure(run: Promise<LoadResult>): Promise<string> {
  try {
    const result = await run;
    assert.equal(result.status, 'failed', `the load should have stopped; it ended ${result.status}`);
    return result.error ?? '';
  } catch (error) {
    return (error as Error).message;
  }
}

async function connectionsReceived(redis: Redis): Promise<number> {
  return Number(/total_connections_received:(\d+)/.exec(await redis.info('stats'))?.[1]);
}

describe('the network gate against servers that name other servers', function () {
  this.timeout(60_000);
  const real = useRedisServer();
  let fake: FakeServer | undefined;
  let listener: Listener | undefined;

  afterEach(async () => {
    await fake?.close();
    await listener?.close();
    fake = listener = undefined;
  });

  for (const client of CLIENTS) {
    it(`${client}: a server saying redis_mode:cluster that announces a real redis-server stops the run; that server gets no command`, async () => {
      const target = real();
      const watcher = new Redis({ host: target.host, port: target.port, lazyConnect: true });
      await watcher.connect();
      try {
        await watcher.flushall();
        await watcher.mset('user:1', 'a', 'user:2', 'b', 'user:3', 'c');
        const seen = await connectionsReceived(watcher);
        const seed = { host: '127.0.0.1', port: 0 };
        fake = await startFakeRedis('127.0.0.1', {
          info: CLUSTER_INFO,
          answer: (args) => clusterAnswers(seed, { host: target.host, port: target.port })(args),
        });
        seed.port = fake.port;
        const text = `### undeclared\nclient ${client}\nclients 2\ncleanup *\nrequests 200\nSET user:__key__ __value__\n`;
        const run = await runScenario(planOf(text), {
          connection: { host: '127.0.0.1', port: fake.port, resp: 2, connectTimeoutMs: 2000, password: 'hunter2' },
          targetDisplay: `redis://127.0.0.1:${fake.port}`,
          local: false,
          source: text,
        });
        // The real server: not one connection from RBench (no AUTH, no SET, no SCAN/UNLINK), its keys intact.
        assert.equal(await connectionsReceived(watcher), seen, 'RBench connected to the announced server');
        assert.deepEqual(await watcher.mget('user:1', 'user:2', 'user:3'), ['a', 'b', 'c']);
        assert.equal(await watcher.dbsize(), 3);
        assert.equal(run.status, 'failed');
        assert.match(run.error ?? '', new RegExp(`127\\.0\\.0\\.1:${fake.port} says it is a Redis Cluster node .*announces 127\\.0\\.0\\.1:${target.port} `));
        assert.match(run.error ?? '', /declare it: `cluster on`/);
        assert.equal(run.points.length, 0, 'no load ran');
        assert.equal(run.cleanedUpKeys, undefined, 'no clean-up ran');
      } finally {
        watcher.disconnect();
      }
    });

    it(`${client}: a declared cluster announcing a node on another host stops the load before any contact (no AUTH there)`, async () => {
      listener = await startListener('127.0.0.2');
      const seed = { host: '127.0.0.1', port: 0 };
      const other = { host: '127.0.0.2', port: listener.port };
      fake = await startFakeRedis('127.0.0.1', { info: CLUSTER_INFO, answer: (args) => clusterAnswers(seed, other)(args) });
      seed.port = fake.port;
      const message = await loadFailure(
        runLoad(
          loadRequest(seed, {
            client,
            test: singleTest('SET key:__key__ __value__'),
            load: { clients: 2, requests: 200 },
            connection: { cluster: true, password: 'hunter2' },
          }),
        ),
      );
      assert.equal(listener.connections, 0, `RBench connected to the announced node and sent: ${JSON.stringify(listener.received)}`);
      assert.match(
        message,
        new RegExp(
          `the cluster at 127\\.0\\.0\\.1:${fake.port} announces 127\\.0\\.0\\.2:${listener.port} \\(not on 127\\.0\\.0\\.1, the host the target names\\)`,
        ),
      );
      assert.match(message, /--allow-host HOST/);
    });

    it(`${client}: a MOVED reply naming an unannounced host is not followed: the load stops, no connection there`, async () => {
      listener = await startListener('127.0.0.2');
      const seed = { host: '127.0.0.1', port: 0 };
      const moved = `MOVED 1234 127.0.0.2:${listener.port}`;
      fake = await startFakeRedis('127.0.0.1', {
        info: CLUSTER_INFO,
        answer: (args) => (args[0].toUpperCase() === 'SET' ? { error: moved } : clusterAnswers(seed)(args)),
      });
      seed.port = fake.port;
      const message = await loadFailure(
        runLoad(
          loadRequest(seed, {
            client,
            test: singleTest('SET key:__key__ __value__'),
            load: { clients: 2, requests: 200 },
            connection: { cluster: true, password: 'hunter2' },
          }),
        ),
      );
      assert.equal(listener.connections, 0, `RBench followed the MOVED and sent: ${JSON.stringify(listener.received)}`);
      assert.match(message, new RegExp(`a MOVED reply from 127\\.0\\.0\\.1:${fake.port} names 127\\.0\\.0\\.2:${listener.port} `));
      assert.ok(
        fake.commands.some((c) => c[0] === 'SET'),
        'the load reached the seed',
      );
    });
  }

  it('ioredis: a node only ioredis learns of (its own CLUSTER SLOTS lies) is never connected to', async () => {
    listener = await startListener('127.0.0.2');
    const seed = { host: '127.0.0.1', port: 0 };
    const honest = clusterAnswers(seed);
    const lying = clusterAnswers(seed, { host: '127.0.0.2', port: listener.port });
    fake = await startFakeRedis('127.0.0.1', {
      info: CLUSTER_INFO,
      // RBench reads CLUSTER SHARDS (the seed alone); ioredis reads CLUSTER SLOTS (a second node besides).
      answer: (args) => ((args[1] ?? '').toUpperCase() === 'SLOTS' ? lying(args) : honest(args)),
    });
    seed.port = fake.port;
    const message = await loadFailure(
      runLoad(
        loadRequest(seed, {
          client: 'ioredis',
          test: singleTest('SET key:__key__ __value__'),
          load: { clients: 2, requests: 400 },
          keys: { space: 400, distribution: 'sequential' },
          connection: { cluster: true, password: 'hunter2' },
        }),
      ),
    );
    assert.equal(listener.connections, 0, `ioredis connected to the node and sent: ${JSON.stringify(listener.received)}`);
    assert.match(message, new RegExp(`127\\.0\\.0\\.2:${listener.port} .*which RBench may not contact`));
  });

  describe('Sentinel targets', () => {
    /** A fake sentinel naming `primary` for "mymaster". */
    async function fakeSentinel(primary: { host: string; port: number }): Promise<FakeServer> {
      return startFakeRedis('127.0.0.1', {
        info: '# Server\r\nredis_version:7.2.0\r\nredis_mode:sentinel\r\n',
        answer: (args) => {
          if (args[0].toUpperCase() !== 'SENTINEL') return undefined;
          return (args[1] ?? '').toUpperCase() === 'GET-MASTER-ADDR-BY-NAME' ? [primary.host, String(primary.port)] : null;
        },
      });
    }

    function sentinelTarget(sentinel: FakeServer, extra: Partial<ConnectionOptions> = {}): ConnectionOptions {
      return connectionTo(sentinel, { password: 'hunter2', sentinel: { name: 'mymaster', nodes: [{ host: sentinel.host, port: sentinel.port }] }, ...extra });
    }

    for (const client of CLIENTS) {
      it(`${client}: a primary the sentinels name on another host is refused; no connection there`, async () => {
        listener = await startListener('127.0.0.2');
        fake = await fakeSentinel(listener);
        const message = await loadFailure(
          runLoad({
            ...loadRequest(fake, { client, test: singleTest('SET key:__key__ __value__'), load: { clients: 2, requests: 100 } }),
            connection: sentinelTarget(fake),
          }),
        );
        assert.equal(listener.connections, 0, `RBench connected to the primary named and sent: ${JSON.stringify(listener.received)}`);
        assert.match(message, new RegExp(`the sentinels name the primary "mymaster" at 127\\.0\\.0\\.2:${listener.port} \\(not on 127\\.0\\.0\\.1`));
      });
    }

    it('runScenario: the run stops with the refusal before the control connection reaches the primary', async () => {
      listener = await startListener('127.0.0.2');
      fake = await fakeSentinel(listener);
      const text = '### sentinel\nrequests 100\nSET key:__key__ __value__\n';
      const run = await runScenario(planOf(text), { connection: sentinelTarget(fake), targetDisplay: 'redis-sentinel://…', local: false, source: text });
      assert.equal(listener.connections, 0);
      assert.equal(run.status, 'failed');
      assert.match(run.error ?? '', /the sentinels name the primary "mymaster" at 127\.0\.0\.2/);
    });

    it('ioredis Sentinel mode (control connection, ioredis load path) opens no socket to a refused primary', async () => {
      listener = await startListener('127.0.0.2');
      fake = await fakeSentinel(listener);
      const redis = new Redis({ ...sentinelClientOptions(sentinelTarget(fake)), lazyConnect: true, password: 'hunter2', enableOfflineQueue: false });
      redis.on('error', () => undefined);
      try {
        await assert.rejects(redis.connect(), /the sentinels name the primary "mymaster" at 127\.0\.0\.2/);
      } finally {
        redis.disconnect();
      }
      assert.equal(listener.connections, 0);
    });

    it('a primary on loopback is refused when the sentinels were named by a host that is not loopback', async () => {
      listener = await startListener('127.0.0.1');
      fake = await fakeSentinel(listener);
      // The rule as resolveConnection fixes it for `redis-sentinel://sentinel.example.net:PORT/mymaster`; the socket itself goes to the fake.
      const options = sentinelTarget(fake, {
        network: { seeds: [{ host: 'sentinel.example.net', port: fake.port }], declared: 'sentinel', allowHosts: ['127.0.0.1'] },
      });
      await assert.rejects(discoverPrimary({ ...options, sentinel: options.sentinel! }), (error: Error) => {
        assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${listener!.port} \\(on this machine, while the target is not`));
        return true;
      });
      assert.equal(listener.connections, 0);
    });
  });
});
