// Issue 23: reading a server's own command table (real servers, RediSearch loaded as a user would), its
// replies as untrusted data (huge, malformed, refused by an ACL: the built-in table with a warning, never a
// crash), and modules on the throwaway server (a path that is no module fails before the server starts).
import assert from 'node:assert/strict';
import { ioredisLink } from '../../../src/redis/control';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { readCommandTable } from '../../../src/redis/commandTable';
import { LocalServerError, moduleProblem, startLocalServer } from '../../../src/redis/localServer';
import { classifyCommand, keyPositions } from '../../../src/scenario/commands';
import { startFakeRedis, type FakeReply } from '../../helpers/fakeRedis';
import { REDISEARCH, requireRediSearch } from '../../helpers/modules';
import { useRedisServer } from '../../helpers/redis';

function connect(port: number, extra: Record<string, unknown> = {}): Redis {
  const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, ...extra });
  redis.on('error', () => undefined);
  return redis;
}

describe("a server's own command table", function () {
  this.timeout(60_000);
  requireRediSearch();

  describe('RediSearch loaded with the modules option', () => {
    const server = useRedisServer({ modules: [REDISEARCH] });

    it('describes module and built-in commands: classes, key specs (numkeys too), docs', async () => {
      const redis = connect(server().port);
      await redis.connect();
      try {
        const read = await readCommandTable(ioredisLink(redis), {
          names: ['FT.SEARCH', 'ft.add', 'GET', 'SINTERCARD', 'EVAL', 'NO.SUCH'],
          docs: true,
          display: 'test',
        });
        assert.ok(read.ok, JSON.stringify(read));
        const table = read.table;
        assert.equal(table.spec('NO.SUCH'), undefined, 'a command the server does not know');
        assert.deepEqual([...classifyCommand('FT.SEARCH', undefined, table)], ['read']);
        assert.ok(classifyCommand('FT.ADD', undefined, table).has('write'));
        assert.deepEqual(keyPositions('FT.SEARCH', [['idx'], ['hello']], table), [0]);
        assert.deepEqual(keyPositions('SINTERCARD', [['2'], ['big:1'], ['big:2']], table), [1, 2]);
        assert.deepEqual(keyPositions('EVAL', [['return 1'], ['0']], table), []);
        assert.ok(classifyCommand('EVAL', undefined, table).has('scripting'), 'scripting from the ACL category the server gives');
        assert.equal(table.spec('get')?.summary, 'Get the value of a key');
        assert.equal(table.spec('get')?.since, '1.0.0');
      } finally {
        redis.disconnect();
      }
    });

    it('an ACL that refuses COMMAND: the built-in table, with a warning', async () => {
      const admin = connect(server().port);
      await admin.connect();
      await admin.call('ACL', 'SETUSER', 'nocommand', 'on', '>pw', '~*', '+@all', '-command');
      admin.disconnect();
      const redis = connect(server().port, { username: 'nocommand', password: 'pw' });
      await redis.connect();
      try {
        const read = await readCommandTable(ioredisLink(redis), { names: ['get'], display: 'redis://127.0.0.1' });
        assert.equal(read.ok, false);
        assert.match(
          !read.ok ? read.warning : '',
          /^could not read the command table of redis:\/\/127\.0\.0\.1 \(NOPERM.*\): checking commands against the built-in table instead$/,
        );
      } finally {
        redis.disconnect();
      }
    });
  });

  describe('hostile replies (a fake server)', () => {
    async function readFrom(answer: (args: string[]) => FakeReply | undefined) {
      const fake = await startFakeRedis('127.0.0.1', { answer });
      const redis = connect(fake.port);
      try {
        await redis.connect();
        return await readCommandTable(ioredisLink(redis), { names: ['get'], display: 'fake' });
      } finally {
        redis.disconnect();
        await fake.close();
      }
    }
    const entry = (name: string): FakeReply => [name, 2, ['readonly'], 1, 1, 1, ['@read'], [], [], []];

    it('malformed entries fall back with a warning', async () => {
      for (const reply of [
        { raw: '*1\r\n:5\r\n' },
        [['get', 'two', [], 1, 1, 1]],
        [['__proto__', 2, [], 1, 1, 1]],
        [['get', 2, 'readonly', 1, 1, 1]],
      ] as FakeReply[]) {
        const read = await readFrom((args) => (args[0].toUpperCase() === 'COMMAND' ? reply : undefined));
        assert.equal(read.ok, false, JSON.stringify(reply));
        assert.match(!read.ok ? read.warning : '', /the COMMAND reply is malformed|checking commands against the built-in table/);
      }
    });

    it('a huge reply (more entries than any server has) falls back; a huge COMMAND COUNT is not read', async () => {
      const huge = Array.from({ length: 6000 }, () => entry('get'));
      const read = await readFrom((args) => (args[0].toUpperCase() === 'COMMAND' ? huge : undefined));
      assert.equal(read.ok, false);
      assert.match(!read.ok ? read.warning : '', /more than 5000 entries/);
      let wholeTableAsked = false;
      const counted = await readFrom((args) => {
        if (args[0].toUpperCase() !== 'COMMAND') return undefined;
        if (args[1]?.toUpperCase() === 'INFO') return { error: 'ERR unknown subcommand' };
        if (args[1]?.toUpperCase() === 'COUNT') return 10_000_000;
        wholeTableAsked = true;
        return [];
      });
      assert.equal(counted.ok, false);
      assert.match(!counted.ok ? counted.warning : '', /counts 10000000 commands/);
      assert.equal(wholeTableAsked, false);
    });

    it('COMMAND INFO refused: the whole COMMAND table is the fallback', async () => {
      const read = await readFrom((args) => {
        if (args[0].toUpperCase() !== 'COMMAND') return undefined;
        if (args[1]?.toUpperCase() === 'INFO') return { error: 'NOPERM this user has no permissions to run the command|info command' };
        if (args[1]?.toUpperCase() === 'COUNT') return 2;
        return [entry('get'), entry('my.read')];
      });
      assert.ok(read.ok);
      assert.deepEqual(read.ok ? read.table.names() : [], ['get'], 'only the names asked for');
    });
  });

  describe('modules on the throwaway server', () => {
    let dir: string;
    before(() => (dir = mkdtempSync(join(tmpdir(), 'rbench-modules-'))));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('a path that does not exist, a text file, a library that is no module: plain messages, before any server', async () => {
      const text = join(dir, 'notes.so');
      writeFileSync(text, 'just text\n');
      assert.match(moduleProblem(join(dir, 'missing.so'))!, /^the module .*missing\.so does not exist: give the path of a module's \.so file/);
      assert.match(moduleProblem(dir)!, /is not a file/);
      assert.match(moduleProblem(text)!, /notes\.so is not a Redis module: it is not a shared library/);
      assert.match(moduleProblem('/lib/x86_64-linux-gnu/libz.so.1')!, /is a shared library but not a Redis module: it has no RedisModule_OnLoad/);
      assert.equal(moduleProblem(REDISEARCH), undefined);
      await assert.rejects(startLocalServer({ modules: [text], binary: join(dir, 'no-such-redis-server') }), (error: Error) => {
        assert.ok(error instanceof LocalServerError);
        // The module was refused first: the (missing) binary was never started.
        assert.match(error.message, /notes\.so is not a Redis module/);
        return true;
      });
    });

    it('loads a module given by the user, and says so', async () => {
      const server = await startLocalServer({ modules: [REDISEARCH] });
      try {
        assert.deepEqual(server.modules, [REDISEARCH]);
        const redis = connect(server.port);
        await redis.connect();
        assert.match(JSON.stringify(await redis.call('MODULE', 'LIST')), /"path","\/usr\/lib\/redis\/modules\/redisearch\.so"/);
        // Clients still cannot load one (enable-module-command no): only the user's own list is loaded.
        const load = await redis.call('MODULE', 'LOAD', REDISEARCH).then(String, (error: Error) => error.message);
        assert.match(load, /MODULE command not allowed/);
        assert.ok(Number(await redis.call('COMMAND', 'COUNT')) > 240);
        assert.deepEqual(await redis.call('COMMAND', 'INFO', 'ft.search').then((reply) => (reply as unknown[][])[0][0]), 'FT.SEARCH');
        redis.disconnect();
      } finally {
        await server.stop();
      }
    });
  });
});
