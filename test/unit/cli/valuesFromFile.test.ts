// Issue 23, data from files, end to end on a real redis-server through `rbench run` (dist/cli.js): the bytes the
// server stores are the file's values (sampled with GET), on both client paths; `fields from` a CSV makes the
// hashes its rows; `ttl` gives every key an expiry in the range; and a scenario naming a file outside its
// folder is refused before anything reaches the server.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, useScratch } from '../../helpers/cli';
import { useRedisServer, withRedis } from '../../helpers/redis';

/** Values a generated payload would never be: text with quotes, commas, newlines escaped in JSON, non-ASCII, a long one. */
function jsonValues(count: number): string[] {
  return Array.from({ length: count }, (_, i) => (i === 7 ? 'l'.repeat(5000) : `doc ${i}: "quoted", comma, tab\t, line\nbreak, ünïcødé ${'✓'.repeat(i % 5)}`));
}

describe('rbench run: values from a data file reach the server as written (issue 23)', function () {
  this.timeout(60_000);
  const scratch = useScratch();
  const server = useRedisServer();

  beforeEach(async () => withRedis(server(), (redis) => redis.flushall()));

  for (const client of ['fast', 'ioredis'] as const) {
    it(`values from a JSON Lines file (${client} client): every key holds the file's value for its number`, async () => {
      const values = jsonValues(40);
      mkdirSync(join(scratch.dir, 'data'));
      writeFileSync(join(scratch.dir, 'data', 'docs.jsonl'), values.map((body, id) => JSON.stringify({ id, body })).join('\n') + '\n');
      const file = scratch.write(
        'docs.rbench',
        `### docs\nclient ${client}\nclients 4\npipeline 3\nrequests 100\nkeys 100 sequential\nvalues from data/docs.jsonl field body\nSET doc:__key__ __value__\n`,
      );
      const result = await runCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stderr + result.stdout);
      await withRedis(server(), async (redis) => {
        for (let key = 0; key < 100; key++) {
          const stored = await redis.getBuffer(`doc:${String(key).padStart(12, '0')}`);
          assert.ok(stored, `key ${key} was written`);
          assert.ok(stored.equals(Buffer.from(values[key % values.length], 'utf8')), `key ${key}: ${stored.toString().slice(0, 60)}`);
        }
      });
      const [run] = scratch.runFiles();
      const source = run.plan.points[0].phases[0].values!;
      assert.deepEqual([source.file, source.count, source.field], ['data/docs.jsonl', 40, 'body']);
      assert.match(source.sha256, /^[0-9a-f]{64}$/);
      assert.ok(!JSON.stringify(run).includes('ünïcødé'), 'the run file holds the source, not the data');
    });
  }

  it("asks before sending a data file's contents to a server of yours, naming the file, its size and its hash", async () => {
    writeFileSync(join(scratch.dir, 'words.txt'), 'alpha\nbeta\ngamma\n');
    const file = scratch.write('ask.rbench', '### ask\nclients 1\nrequests 3\nvalues from words.txt\nSET w:__key__ __value__\n');
    const result = await runCli(['run', file, '--url', server().url], { cwd: scratch.dir });
    assert.equal(result.code, 2, result.stdout);
    assert.match(result.stderr, /Sends the contents of: words\.txt \(3 values, 17 B, sha256 [0-9a-f]{12}…\)/);
    await withRedis(server(), async (redis) => assert.equal(await redis.dbsize(), 0, 'nothing was sent'));
  });

  it('`in order`: one key receives the values one after another', async () => {
    writeFileSync(join(scratch.dir, 'words.txt'), 'alpha\nbeta\ngamma\n');
    const file = scratch.write('order.rbench', '### order\nclients 1\nrequests 7\nvalues from words.txt in order\nRPUSH words __value__\n');
    const result = await runCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr + result.stdout);
    await withRedis(server(), async (redis) => {
      assert.deepEqual(await redis.lrange('words', 0, -1), ['alpha', 'beta', 'gamma', 'alpha', 'beta', 'gamma', 'alpha']);
    });
  });

  it('`fields from` a CSV with `ttl`: each hash is its row, with an expiry in the range', async () => {
    mkdirSync(join(scratch.dir, 'data'));
    writeFileSync(join(scratch.dir, 'data', 'users.csv'), 'name,age,city\nalice,30,Paris\nbob,25,"New York, NY"\ncarol,41,Berlin\n');
    const file = scratch.write(
      'users.rbench',
      '### users\nclients 2\nrequests 9\nkeys 9 sequential\nfields from data/users.csv\nttl 60s..1h\nHSET user:__key__ __fields__\n',
    );
    const result = await runCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const rows = [
      { name: 'alice', age: '30', city: 'Paris' },
      { name: 'bob', age: '25', city: 'New York, NY' },
      { name: 'carol', age: '41', city: 'Berlin' },
    ];
    await withRedis(server(), async (redis) => {
      for (let key = 0; key < 9; key++) {
        const name = `user:${String(key).padStart(12, '0')}`;
        assert.deepEqual(await redis.hgetall(name), rows[key % 3]);
        const ttl = await redis.ttl(name);
        assert.ok(ttl > 50 && ttl <= 3600, `${name} expires in ${ttl}s`);
      }
    });
  });

  it('`ttl` in milliseconds: SET carries PX within the range', async () => {
    const file = scratch.write('ttl.rbench', '### ttl\nclients 2\nrequests 200\nkeys 200 sequential\nttl 20s..30500ms\nSET t:__key__ __value__\n');
    const result = await runCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr + result.stdout);
    await withRedis(server(), async (redis) => {
      const ttls = await Promise.all(Array.from({ length: 200 }, (_, key) => redis.pttl(`t:${String(key).padStart(12, '0')}`)));
      assert.ok(
        ttls.every((ttl) => ttl > 15_000 && ttl <= 30_500),
        `all within the range: ${Math.min(...ttls)} … ${Math.max(...ttls)}`,
      );
      assert.ok(Math.max(...ttls) - Math.min(...ttls) > 2000, 'drawn across the range, not one value');
    });
  });

  it('a file outside the scenario folder (`..`, a link out) is refused before any command reaches the server', async () => {
    writeFileSync(join(scratch.dir, 'secret.txt'), 'password=hunter2\n');
    mkdirSync(join(scratch.dir, 'shared'));
    symlinkSync(join(scratch.dir, 'secret.txt'), join(scratch.dir, 'shared', 'values.txt'));
    for (const [line, pattern] of [
      ['values from ../secret.txt', /`\.\.\/secret\.txt`: `\.\.` leaves the scenario's folder/],
      ['values from values.txt', /`values\.txt`: a symbolic link — a data file must be a real file inside the scenario's folder/],
    ] as const) {
      const file = join(scratch.dir, 'shared', 'steal.rbench');
      writeFileSync(file, `### steal\nrequests 10\n${line}\nSET stolen __value__\n`);
      const result = await runCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir });
      assert.notEqual(result.code, 0);
      assert.match(result.stderr, pattern);
      assert.match(result.stderr, /steal\.rbench:3:13: error:/);
      await withRedis(server(), async (redis) => assert.equal(await redis.dbsize(), 0, 'nothing was written'));
      const check = await runCli(['check', file], { cwd: scratch.dir });
      assert.notEqual(check.code, 0);
      assert.match(check.stderr, pattern);
    }
  });
});
