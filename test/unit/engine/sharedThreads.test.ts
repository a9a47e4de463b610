// Loads on shared engine threads (sharedThreads.ts, issue 43): several loads hosted by one worker thread each run
// to their own end, counted exactly, and the end of one (cancelled, refused at connect) leaves the others and the
// thread running. Against a real redis-server: the server's own counters say what each load sent.
import assert from 'node:assert/strict';
import { runLoad, LoadError, SharedThreads } from '../../../src/engine';
import { freePort } from '../../../src/redis/localServer';
import { useRedisServer, withRedis } from '../../helpers/redis';
import { loadRequest, singleTest } from './plans';

describe('loads on shared engine threads', function () {
  this.timeout(60_000);
  const server = useRedisServer();

  beforeEach(async () => {
    await withRedis(server(), (redis) => redis.flushall());
  });

  const counter = (key: string) => withRedis(server(), async (redis) => Number(await redis.get(key)));

  it('one thread hosts a lasting load and a counted one; the counted ends exact, the lasting one is cancelled alone, a refused one leaves the thread to the next', async () => {
    const shared = new SharedThreads();
    try {
      const stop = new AbortController();
      const lasting = runLoad(loadRequest(server(), { test: singleTest('INCR lasting'), load: { clients: 3, threads: 'auto', durationMs: 30_000 } }), {
        signal: stop.signal,
        sharedThreads: shared,
      });
      const counted = await runLoad(loadRequest(server(), { test: singleTest('INCR counted'), load: { clients: 4, threads: 'auto', requests: 20_000 } }), {
        sharedThreads: shared,
      });
      assert.equal(counted.status, 'complete');
      assert.equal(counted.total.requests, 20_000);
      assert.equal(await counter('counted'), 20_000, 'the server ran exactly the counted load');
      assert.equal(shared.size, 1, 'both loads on one engine thread');

      // A load that cannot connect is refused; the thread and the lasting load go on.
      const closed = await freePort();
      await assert.rejects(
        runLoad(loadRequest({ host: '127.0.0.1', port: closed }, { test: singleTest('INCR refused'), load: { clients: 2, threads: 'auto', requests: 5000 } }), {
          sharedThreads: shared,
        }),
        LoadError,
      );
      const next = await runLoad(loadRequest(server(), { test: singleTest('INCR next'), load: { clients: 2, threads: 'auto', requests: 5000 } }), {
        sharedThreads: shared,
      });
      assert.equal(next.total.requests, 5000);
      assert.equal(await counter('next'), 5000);
      assert.equal(shared.size, 1, 'the next load reused the thread');

      const before = await counter('lasting');
      stop.abort();
      const ended = await lasting;
      assert.equal(ended.status, 'cancelled');
      assert.ok(before > 0 && ended.total.requests > 0, `the lasting load ran beside the others (${before} at the server)`);
    } finally {
      await shared.close();
    }
  });

  it('a load that throws as it starts on a shared thread fails as a crashed worker would; the thread serves the next load', async () => {
    const shared = new SharedThreads();
    try {
      const broken = loadRequest(server(), { test: singleTest('INCR broken'), load: { clients: 2, threads: 'auto', requests: 5000 } });
      // A client path no table names: opening it throws inside the thread, before any connection.
      (broken as { client: string }).client = 'no-such-path';
      await assert.rejects(
        runLoad(broken, { sharedThreads: shared }),
        (error: Error) => error instanceof LoadError && /engine worker crashed/.test(error.message) && !error.message.includes('\n'),
      );
      const next = await runLoad(loadRequest(server(), { test: singleTest('INCR next'), load: { clients: 2, threads: 'auto', requests: 5000 } }), {
        sharedThreads: shared,
      });
      assert.equal(next.total.requests, 5000);
      assert.equal(await counter('next'), 5000);
      assert.equal(shared.size, 1, 'the same thread served the next load');
    } finally {
      await shared.close();
    }
  });

  it('a load with an explicit thread count keeps threads of its own: the shared threads start none for it', async () => {
    const shared = new SharedThreads();
    try {
      const own = await runLoad(loadRequest(server(), { test: singleTest('INCR own'), load: { clients: 4, threads: 2, requests: 4000 } }), {
        sharedThreads: shared,
      });
      assert.equal(own.total.requests, 4000);
      assert.equal(shared.size, 0, 'an explicit thread count runs on threads of its own');
    } finally {
      await shared.close();
    }
  });
});
