// Issue 46 (a run's fixed cost): the count of the keys a run left reads each SCAN reply once, as it comes (its
// own framer, src/protocol/scanReply.ts), instead of framing it with the generic reply scanner and then reading
// it again. Asserted by what runs, never by time: the generic scanner frames no SCAN reply, the count is exact,
// and the server saw exactly the SCAN calls the keys take.
import assert from 'node:assert/strict';
import { countLeftKeys } from '../../../src/runner/leftKeys';
import { ReplyScanner } from '../../../src/protocol/respScanner';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';

describe('the count of the keys a run left reads each SCAN reply once', function () {
  this.timeout(60_000);
  const server = useRedisServer();

  it('frames no SCAN reply with the generic scanner, and counts exactly the own keys', async () => {
    const own = 4000;
    await withRedis(server(), async (redis) => {
      await redis.flushall();
      const pipeline = redis.pipeline();
      for (let i = 0; i < own; i++) pipeline.set(`bench:${String(i).padStart(12, '0')}`, 'x');
      // Someone else's keys under the pattern, and one beyond the run's key space: not the run's.
      pipeline.set('bench:alice', 'x');
      pipeline.set(`bench:${String(own + 5).padStart(12, '0')}`, 'x');
      await pipeline.exec();
      await redis.config('RESETSTAT');
    });
    const scan = ReplyScanner.prototype.scan;
    let framed = 0;
    ReplyScanner.prototype.scan = function (this: ReplyScanner, ...args: Parameters<typeof scan>) {
      framed++;
      return scan.apply(this, args);
    };
    let counts;
    try {
      counts = await countLeftKeys({ host: server().host, port: server().port, resp: 2, connectTimeoutMs: 5000 }, ['bench:*'], {
        owns: [['bench:', { width: 12, below: own }]],
      });
    } finally {
      ReplyScanner.prototype.scan = scan;
    }
    assert.deepEqual(counts, [{ pattern: 'bench:*', count: own }]);
    // The connection's handshake (PING) is framed by the load's opening; no SCAN reply is (before: one call a chunk).
    assert.equal(framed, 1, `the generic scanner framed ${framed} chunks`);
    const scans = await withRedis(server(), (redis) => commandCalls(redis, 'scan'));
    // SCAN COUNT 1000 over ~4,002 keys: about 5 calls, one reply each read once.
    assert.ok(scans >= 4 && scans <= 8, `${scans} SCAN calls`);
    await withRedis(server(), (redis) => redis.flushall());
  });
});
