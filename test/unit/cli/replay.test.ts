// Issue 44: `rbench replay FILE` sends a MONITOR output or a file of commands as recorded. Through the built
// CLI against a real server the test reads back: the server's own commandstats count what arrived.
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { runCli, useScratch } from '../../helpers/cli';
import { useRedisServer, withRedis } from '../../helpers/redis';

/** cmdstat calls per command (lower case) from INFO commandstats. */
async function callsByCommand(redis: Redis): Promise<Map<string, number>> {
  const stats = await redis.info('commandstats');
  const calls = new Map<string, number>();
  for (const match of stats.matchAll(/cmdstat_([a-z|_-]+):calls=(\d+)/g)) calls.set(match[1], Number(match[2]));
  return calls;
}

/** What the server counted of each of `commands` between two readings. */
function delta(before: Map<string, number>, after: Map<string, number>, commands: readonly string[]): Record<string, number> {
  return Object.fromEntries(commands.map((command) => [command, (after.get(command) ?? 0) - (before.get(command) ?? 0)]));
}

const REPLAYED = ['set', 'get', 'incr', 'hset', 'lpush', 'expire', 'del'] as const;

/** A MONITOR output of `count` commands from three clients, and how many of each it holds. */
function monitorFile(count: number): { text: string; counts: Record<string, number> } {
  const counts: Record<string, number> = Object.fromEntries(REPLAYED.map((name) => [name, 0]));
  const lines = ['OK'];
  for (let i = 0; i < count; i++) {
    const key = `rp:${i % 97}`;
    const pick = i % 10;
    const args =
      pick < 4
        ? ['SET', key, `v\\"${i}\\x01`]
        : pick < 7
          ? ['GET', key]
          : pick === 7
            ? ['INCR', `rp:n:${i % 13}`]
            : pick === 8
              ? ['HSET', `rp:h:${i % 11}`, `f${i % 5}`, 'x y']
              : i % 3 === 0
                ? ['DEL', key]
                : i % 3 === 1
                  ? ['LPUSH', `rp:l:${i % 7}`, String(i)]
                  : ['EXPIRE', key, '600'];
    counts[args[0].toLowerCase()]++;
    const time = (1_700_000_000 + i / 1000).toFixed(6);
    lines.push(`${time} [0 127.0.0.1:${5000 + (i % 3)}] ${args.map((arg) => `"${arg}"`).join(' ')}`);
  }
  return { text: lines.join('\n') + '\n', counts };
}

describe('rbench replay (issue 44)', function () {
  this.timeout(120_000);
  const server = useRedisServer();
  const scratch = useScratch();
  const url = (db: number) => `redis://${server().host}:${server().port}/${db}`;

  it('a MONITOR file of 10k commands replays with the same count of each command (commandstats), over 4 pipelined clients', async () => {
    const { text, counts } = monitorFile(10_000);
    const file = scratch.write('monitor.txt', text);
    await withRedis(server(), async (redis) => {
      const before = await callsByCommand(redis);
      const result = await runCli(['replay', file, '--url', url(1), '--yes', '--clients', '4', '--pipeline', '8'], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(delta(before, await callsByCommand(redis), REPLAYED), counts);
    });
    const run = scratch.runFiles().at(-1)!;
    const load = run.points[0].repeats[0][0];
    assert.equal(load.test, 'replay');
    assert.equal(load.total.requests, 10_000);
    assert.deepEqual(Object.fromEntries(load.commands.map((row) => [row.command, row.requests])), {
      SET: counts.set,
      GET: counts.get,
      INCR: counts.incr,
      HSET: counts.hset,
      DEL: counts.del,
      LPUSH: counts.lpush,
      EXPIRE: counts.expire,
    });
  });

  it('a replayed FLUSHALL is refused on a user server, naming its line; nothing is sent', async () => {
    const file = scratch.write('flush.txt', 'SET keep:me 1\nGET keep:me\nFLUSHALL\nGET keep:me\n');
    await withRedis(server(), async (redis) => {
      const before = await callsByCommand(redis);
      const result = await runCli(['replay', file, '--url', url(2), '--yes'], { cwd: scratch.dir });
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(result.stderr, /flush\.txt:3: FLUSHALL/);
      assert.match(result.stderr, /FLUSHALL wipes every key of every database.*--allow-destructive/s);
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
      assert.deepEqual(delta(before, await callsByCommand(redis), ['flushall', 'set', 'get']), { flushall: 0, set: 0, get: 0 });
    });
  });

  it('a DEL of a key the replay never writes is refused on a user server like a written one', async () => {
    const file = scratch.write('del.txt', 'SET mine 1\nDEL theirs\n');
    const result = await runCli(['replay', file, '--url', url(2), '--yes'], { cwd: scratch.dir });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /del\.txt:2: DEL theirs/);
  });

  it('UTF-8 text goes out byte for byte (MONITOR shows it as \\xHH, a command file holds it as written); binary bytes are refused, naming the line', async () => {
    const monitor = scratch.write('utf8-monitor.txt', '1700000000.000001 [0 127.0.0.1:5000] "SET" "t:m" "caf\\xc3\\xa9 \\xe2\\x82\\xac"\n');
    const commands = scratch.write('utf8-commands.txt', 'SET t:c "caf\\xc3\\xa9"\nSET t:w café\n');
    for (const file of [monitor, commands]) {
      const result = await runCli(['replay', file, '--url', url(4), '--yes'], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stderr);
    }
    await withRedis(server(), async (redis) => {
      await redis.select(4);
      assert.deepEqual(await redis.getBuffer('t:m'), Buffer.from('café €', 'utf8'));
      assert.deepEqual(await redis.getBuffer('t:c'), Buffer.from('café', 'utf8'));
      assert.deepEqual(await redis.getBuffer('t:w'), Buffer.from('café', 'utf8'));
    });
    const binary = scratch.write(
      'binary.txt',
      '1700000000.000000 [0 127.0.0.1:5000] "SET" "ok" "1"\n1700000000.000001 [0 127.0.0.1:5000] "SET" "b" "\\xff\\x00"\n',
    );
    const refused = await runCli(['replay', binary, '--url', url(4), '--yes'], { cwd: scratch.dir });
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /binary\.txt:2: argument 3 holds bytes that are not UTF-8 text/);
  });

  it('--prefix rewrites every key where the key specs put it (KEYS NS* counts them), and nothing else', async () => {
    const file = scratch.write('keys.txt', 'SET a 1\nMSET b 2 c 3\nHSET h a b\nLPUSH l a\nSET a a\nRPOPLPUSH l m\nPING\n');
    const result = await runCli(['replay', file, '--url', url(3), '--yes', '--prefix', 'ns:'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    await withRedis(server(), async (redis) => {
      await redis.select(3);
      assert.deepEqual((await redis.keys('*')).sort(), ['ns:a', 'ns:b', 'ns:c', 'ns:h', 'ns:m']);
      assert.equal(await redis.get('ns:a'), 'a', 'values are not keys: SET a a keeps its value');
      assert.deepEqual(await redis.hgetall('ns:h'), { a: 'b' });
    });
  });

  it('recorded order is kept on one connection; shuffled keeps the multiset of commands and changes the order', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `RPUSH order ${i}`);
    const file = scratch.write('order.txt', lines.join('\n'));
    const recorded = await runCli(['replay', file, '--url', url(4), '--yes'], { cwd: scratch.dir });
    assert.equal(recorded.code, 0, recorded.stderr);
    const shuffled = await runCli(['replay', file, '--url', url(5), '--yes', '--order', 'shuffled', '--seed', '7'], { cwd: scratch.dir });
    assert.equal(shuffled.code, 0, shuffled.stderr);
    await withRedis(server(), async (redis) => {
      const inOrder = Array.from({ length: 200 }, (_, i) => String(i));
      await redis.select(4);
      assert.deepEqual(await redis.lrange('order', 0, -1), inOrder);
      await redis.select(5);
      const mixed = await redis.lrange('order', 0, -1);
      assert.deepEqual(
        [...mixed].sort((a, b) => Number(a) - Number(b)),
        inOrder,
        'each command once',
      );
      assert.notDeepEqual(mixed, inOrder);
    });
  });

  it('--per-connection recorded: a connection per recorded client, each in its own order, at the same time', async () => {
    const lines = [];
    for (let i = 0; i < 300; i++) lines.push(`1700000000.${String(i).padStart(6, '0')} [0 10.0.0.${i % 3}:6000] "RPUSH" "conn:${i % 3}" "${i}"`);
    const file = scratch.write('conns.txt', lines.join('\n'));
    const result = await runCli(['replay', file, '--url', url(7), '--yes', '--per-connection', 'recorded', '--pipeline', '4'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    await withRedis(server(), async (redis) => {
      await redis.select(7);
      for (let c = 0; c < 3; c++) {
        const expected = Array.from({ length: 100 }, (_, k) => String(3 * k + c));
        assert.deepEqual(await redis.lrange(`conn:${c}`, 0, -1), expected);
      }
    });
    const loads = scratch.runFiles().at(-1)!.points[0].repeats[0];
    assert.deepEqual(loads.map((load) => [load.test, load.total.requests]).sort(), [
      ['replay 10.0.0.0:6000', 100],
      ['replay 10.0.0.1:6000', 100],
      ['replay 10.0.0.2:6000', 100],
    ]);
    const commandFile = scratch.write('plain.txt', 'PING\n');
    const refused = await runCli(['replay', commandFile, '--per-connection', 'recorded'], { cwd: scratch.dir });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--per-connection recorded needs a MONITOR output/);
  });

  it('--timing recorded waits the captured gaps: a 1.5 s pause in the file is at least 1.5 s of the run', async () => {
    // Even spacing at the file's mean rate (4 commands over 1.5 s: 3/s) would take 1 s; the recorded gaps take 1.5 s or more.
    const times = ['0.000000', '0.000100', '1.500000', '1.500100'];
    const lines = times.map((t, i) =>
      `1700000000.${t.split('.')[1]} [0 127.0.0.1:5000] "RPUSH" "timed" "${i}"`.replace('1700000000.', `${1_700_000_000 + Number(t.split('.')[0])}.`),
    );
    const file = scratch.write('timed.txt', lines.join('\n'));
    const result = await runCli(['replay', file, '--url', url(8), '--yes', '--timing', 'recorded'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    const load = scratch.runFiles().at(-1)!.points[0].repeats[0][0];
    assert.equal(load.total.requests, 4);
    assert.ok(load.durationMs >= 1490, `the run took ${load.durationMs} ms: the recorded 1.5 s pause was not kept`);
    await withRedis(server(), async (redis) => {
      await redis.select(8);
      assert.deepEqual(await redis.lrange('timed', 0, -1), ['0', '1', '2', '3']);
    });
    const commands = scratch.write('untimed.txt', 'PING\n');
    const refused = await runCli(['replay', commands, '--timing', 'recorded'], { cwd: scratch.dir });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--timing recorded needs a MONITOR output/);
  });

  it('--repeat sends the file that many times; bad lines and options are plain messages', async () => {
    const file = scratch.write('twice.txt', 'INCR twice\n');
    const result = await runCli(['replay', file, '--url', url(6), '--yes', '--repeat', '3'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    await withRedis(server(), async (redis) => {
      await redis.select(6);
      assert.equal(await redis.get('twice'), '3');
    });
    const bad = scratch.write('bad.txt', 'SET a 1\nSET "b 1\n');
    const unbalanced = await runCli(['replay', bad], { cwd: scratch.dir });
    assert.equal(unbalanced.code, 2);
    assert.match(unbalanced.stderr, /bad\.txt:2: unbalanced quotes/);
    const unknown = scratch.write('unknown.txt', 'NOSUCHCOMMAND a b\n');
    const prefixed = await runCli(['replay', unknown, '--prefix', 'ns:'], { cwd: scratch.dir });
    assert.equal(prefixed.code, 2);
    assert.match(prefixed.stderr, /unknown\.txt:1: --prefix cannot tell which arguments of NOSUCHCOMMAND are keys/);
    for (const outcome of [unbalanced, prefixed]) assert.doesNotMatch(outcome.stderr, /\n\s+at /);
  });
});
