// A consumer's connection asked again and again through one BlockingCaller (src/engine/consumers/blockingCaller.ts):
// every answer reaches its own call, an unanswered call ends at its own timeout (not another's), a closed connection
// ends the call waiting, and the framing limits still hold. Against a real redis-server; a lying server only where a
// real one cannot lie.
import assert from 'node:assert/strict';
import { openSocket, type RawConnection } from '../../../src/engine/fast/connect';
import { BlockingCaller } from '../../../src/engine/consumers/blockingCaller';
import { readRespValue } from '../../../src/protocol/respValue';
import { useRedisServer, withRedis, commandCalls } from '../../helpers/redis';
import { createServer, type Server } from 'node:net';

describe('BlockingCaller: one consumer connection asked many times', () => {
  const server = useRedisServer();
  const opened: RawConnection[] = [];
  const open = async (port = server().port) => {
    const connection = await openSocket({ host: '127.0.0.1', port, resp: 2, connectTimeoutMs: 5_000 });
    opened.push(connection);
    return connection;
  };
  afterEach(() => {
    for (const connection of opened.splice(0)) connection.socket.destroy();
  });

  it('takes 500 jobs one call at a time, each answer the next job, and the server counts 500 calls', async () => {
    await withRedis(server(), async (redis) => {
      await redis.del('bc:jobs');
      await redis.config('RESETSTAT');
      await redis.rpush('bc:jobs', ...Array.from({ length: 500 }, (_, i) => `job-${i}`));
      const caller = new BlockingCaller(await open(), ['BLPOP', 'bc:jobs', '1']);
      for (let i = 0; i < 500; i++) {
        const reply = readRespValue(await caller.call(5_000))!.value;
        assert.deepEqual(reply, ['bc:jobs', `job-${i}`]);
      }
      assert.equal(await commandCalls(redis, 'blpop'), 500);
    });
  });

  it('a call nobody answers ends at its own timeout, and an answered call of another timeout is not ended by it', async () => {
    const caller = new BlockingCaller(await open(), ['BLPOP', 'bc:empty', '0']);
    // The acknowledgement's timeout (ask) is its own timer: answered at once, it leaves the blocking call's alone.
    assert.equal(readRespValue(await caller.ask(['PING'], 150))!.value, 'PONG');
    const started = performance.now();
    await assert.rejects(caller.call(300), /no answer to BLPOP within 300 ms/);
    assert.ok(performance.now() - started >= 290, 'not before its own timeout');
  });

  it('a second call while one waits is refused, naming both', async () => {
    const caller = new BlockingCaller(await open(), ['BLPOP', 'bc:empty', '0']);
    const waiting = caller.call(60_000);
    await assert.rejects(caller.ask(['PING'], 1_000), /PING asked while BLPOP waits for its answer/);
    (opened.at(-1) as RawConnection).socket.destroy();
    await assert.rejects(waiting, /the connection closed before the answer to BLPOP/);
    await assert.rejects(caller.call(1_000), /the connection closed before the answer to BLPOP/);
  });

  describe('a server past the framing limits', () => {
    let liar: Server;
    before(async () => {
      // Answers the handshake's PING, then anything with an array that declares more elements than a reply may hold.
      liar = createServer((socket) => {
        let first = true;
        socket.on('data', () => {
          socket.write(first ? '+PONG\r\n' : '*2000000\r\n');
          first = false;
        });
      });
      await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
    });
    after(() => liar.close());

    it('refuses the reply at once, with the limit named', async () => {
      const port = (liar.address() as { port: number }).port;
      const caller = new BlockingCaller(await open(port), ['BLPOP', 'q', '0']);
      await assert.rejects(caller.call(60_000), /more than 1,000,000 elements, which RBench does not hold in memory/);
    });
  });
});
