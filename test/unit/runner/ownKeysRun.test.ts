// Issue 42: what a file may do to a user's server. Seen 3: `cleanup user:*` after `SET user:__key__ x` deleted the
// server's user:alice and user:bob; a run's own keys are those it creates, exactly. Seen 4: commands newer than the
// hand-kept lists (HEXPIRE, XACK, XDELEX, VREM, a module's JSON.DEL…) passed as plain writes and made their key
// "own". Seen 6a: `AUTH user pw__key__` counted as a read. Through RunSession and `rbench run`.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunSession, type SessionSettings } from '../../../src/runner/session';
import { runCli, useScratch } from '../../helpers/cli';
import { startFakeRedis, type FakeServer } from '../../helpers/fakeRedis';
import { newerCommandInfo } from '../../helpers/newerCommands';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import { runScenarios } from '../../helpers/session';

describe('issue 42: the run’s own keys, effects from key specs, credentials', function () {
  this.timeout(120_000);
  const server = useRedisServer();
  let runs: string;
  beforeEach(async () => {
    runs = mkdtempSync(join(tmpdir(), 'rbench-own-'));
    await withRedis(server(), async (redis) => {
      await redis.flushall();
      await redis.set('user:alice', 'a');
      await redis.set('user:bob', 'b');
      await redis.hset('user:profile', 'name', 'carol', 'mail', 'c@example.com');
      await redis.config('RESETSTAT');
    });
  });
  afterEach(() => rmSync(runs, { recursive: true, force: true }));

  const settings = (more: Partial<SessionSettings> = {}): SessionSettings => ({ env: {}, runsFolder: runs, trusted: true, ...more });
  const session = (more: Partial<SessionSettings> = {}, lines: string[] = []) =>
    new RunSession(settings(more), { confirm: async () => true, secret: async () => undefined, log: (line) => lines.push(line) });
  const theirsKept = () =>
    withRedis(server(), async (redis) => {
      assert.equal(await redis.get('user:alice'), 'a');
      assert.equal(await redis.get('user:bob'), 'b');
      assert.equal(await redis.hget('user:profile', 'name'), 'carol');
      assert.equal(
        await redis
          .httl('user:profile', 'FIELDS', 1, 'name')
          .catch(() => [-1])
          .then((ttl) => (Array.isArray(ttl) ? ttl[0] : -1)),
        -1,
      );
    });
  const ownKeys = () => withRedis(server(), async (redis) => (await redis.keys('user:0*')).length);

  describe('seen 3: a cleanup deletes the keys the run created, nothing else', () => {
    const text = () => `target ${server().url}\n### own\ncleanup user:*\nkeys 50 sequential\nrequests 200\nSET user:__key__ x\n`;

    it('RunSession: alice and bob survive, the run’s keys are gone, and the run says 2 were left alone', async () => {
      const lines: string[] = [];
      const [outcome] = await runScenarios(session({}, lines), text());
      assert.equal(outcome.kind, 'finished', outcome.kind === 'not-run' ? outcome.message : '');
      if (outcome.kind !== 'finished') return;
      assert.equal(outcome.run.cleanedUpKeys, 50);
      assert.equal(outcome.run.cleanupLeftAlone, 3, 'user:alice, user:bob, user:profile');
      await theirsKept();
      assert.equal(await ownKeys(), 0);
    });

    it('rbench run --yes: the same, and the output says how many matching keys it left alone', async () => {
      await withRedis(server(), (redis) => redis.del('user:profile'));
      const file = scratch.write('own.rbench', text());
      const result = await runCli(['run', file, '--yes'], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout + result.stderr, /`cleanup user:\*` left alone 2 matching keys the run did not create/);
      await withRedis(server(), async (redis) => {
        assert.equal(await redis.get('user:alice'), 'a');
        assert.equal(await redis.get('user:bob'), 'b');
      });
      assert.equal(await ownKeys(), 0);
    });

    it('with --allow-destructive the cleanup deletes every match, as the user asked', async () => {
      const [outcome] = await runScenarios(session({ allowDestructive: true }), text());
      assert.equal(outcome.kind, 'finished', outcome.kind === 'not-run' ? outcome.message : '');
      await withRedis(server(), async (redis) => assert.deepEqual(await redis.keys('user:*'), []));
    });

    it('variants: a key under the run’s prefix that it does not create is not its own', async () => {
      const refused = [
        '### del a neighbour\nrequests 5\nSET user:__key__ x\nDEL user:alice\n',
        '### expire a neighbour\nrequests 5\nSET user:__key__ x\nEXPIRE user:bob 1\n',
        // keys 50 writes user:000000000000 … 000000000049: 000000000050 is somebody else's.
        '### past the range\nkeys 50\nrequests 5\nSET user:__key__ x\nDEL user:000000000050\n',
        // A wider key width is another key: `key-size 4` writes user:0000 …, not user:000000000001.
        '### another width\nkey-size 4\nrequests 5\nSET user:__key__ x\nDEL user:000000000001\n',
        // A key made with __value__ could be anybody's.
        '### value in the key\nrequests 5\nSET user:__value__ x\nDEL user:alice\n',
      ];
      const outcomes = await runScenarios(session(), `target ${server().url}\n${refused.join('')}`);
      for (const outcome of outcomes) {
        assert.equal(outcome.kind, 'not-run', outcome.plan?.name);
        if (outcome.kind === 'not-run') assert.match(outcome.message, /keys the scenario does not create.*--allow-destructive/, outcome.message);
      }
      const [inside] = await runScenarios(session(), `target ${server().url}\n### inside\nkeys 50\nrequests 5\nSET user:__key__ x\nDEL user:000000000049\n`);
      assert.equal(inside.kind, 'finished', inside.kind === 'not-run' ? inside.message : '');
      await theirsKept();
    });

    const scratch = useScratch();
  });

  describe('seen 4: commands newer than the hand-kept lists take data from keys the file does not create', () => {
    const SEEN = [
      'HEXPIRE user:profile 100 FIELDS 1 name',
      'HPEXPIRE user:profile 100000 FIELDS 1 name',
      'HEXPIREAT user:profile 4000000000 FIELDS 1 name',
      'HPEXPIREAT user:profile 4000000000000 FIELDS 1 name',
      'HGETEX user:profile PX 100000 FIELDS 1 name',
      'HPERSIST user:profile FIELDS 1 name',
      'XDELEX user:stream IDS 1 1-1',
      'XACKDEL user:stream group IDS 1 1-1',
      'XACK user:stream group 1-1',
      'VREM user:vectors element',
    ];

    it('RunSession refuses each, and each with a later cleanup of its key', async () => {
      const files = SEEN.flatMap((line, i) => [
        `### seen ${i}\nrequests 5\n${line}\n`,
        `### seen ${i} cleanup\ncleanup ${line.split(' ')[1]}\nrequests 5\n${line}\n`,
      ]);
      const outcomes = await runScenarios(session(), `target ${server().url}\n${files.join('')}`);
      assert.equal(outcomes.length, files.length);
      for (const outcome of outcomes) {
        assert.equal(outcome.kind, 'not-run', outcome.plan?.name);
        if (outcome.kind === 'not-run')
          assert.match(outcome.message, /can destroy or rewrite keys that are not its own: .*keys the scenario does not create/, outcome.message);
      }
      await withRedis(server(), async (redis) => {
        for (const command of ['hexpire', 'hpersist', 'xack']) assert.equal(await commandCalls(redis, command), 0, command);
      });
      await theirsKept();
    });

    it('rbench run --yes refuses them too', async () => {
      const file = scratch.write('newer.rbench', `target ${server().url}\n${SEEN.map((line, i) => `### seen ${i}\nrequests 5\n${line}\n`).join('')}`);
      const result = await runCli(['run', file, '--yes'], { cwd: scratch.dir });
      assert.equal(result.code, 2, result.stderr);
      for (let i = 0; i < SEEN.length; i++) assert.match(result.stderr, new RegExp(`"seen ${i}" can destroy or rewrite keys`), SEEN[i]);
      await theirsKept();
    });

    describe('a server describing them itself (7.4/8 commands and a module’s delete)', () => {
      let fake: FakeServer;
      beforeEach(async () => {
        fake = await startFakeRedis('127.0.0.1', {
          answer: (args) => {
            const [name, sub] = [args[0].toUpperCase(), (args[1] ?? '').toUpperCase()];
            if (name === 'COMMAND' && sub === 'INFO') return newerCommandInfo(args.slice(2));
            if (name === 'COMMAND' && sub === 'DOCS') return [];
            return undefined;
          },
        });
      });
      afterEach(() => fake.close());

      it('each seen command is refused before any load; the fake server never receives one', async () => {
        const text = SEEN.map((line, i) => `### seen ${i}\nrequests 5\n${line}\n`).join('');
        const outcomes = await runScenarios(session(), `target redis://127.0.0.1:${fake.port}\n${text}`);
        for (const outcome of outcomes) {
          assert.equal(outcome.kind, 'not-run', outcome.plan?.name);
          if (outcome.kind === 'not-run') assert.match(outcome.message, /keys the scenario does not create/, outcome.message);
        }
        const names = new Set(SEEN.map((line) => line.split(' ')[0]));
        assert.deepEqual(
          fake.commands.filter((command) => names.has(command[0])),
          [],
        );
      });

      it('JSON.DEL on a key the file does not create is refused once the server says what it does, before any load', async () => {
        const outcomes = await runScenarios(
          session(),
          `target redis://127.0.0.1:${fake.port}\n### json del\nrequests 5\nJSON.DEL user:doc\n### json del beside a set\nrequests 5\nSET bench:__key__ x\nJSON.DEL user:doc\n`,
        );
        for (const outcome of outcomes) {
          assert.equal(outcome.kind, 'not-run');
          if (outcome.kind === 'not-run') assert.match(outcome.message, /JSON\.DEL .*user:doc, keys the scenario does not create/, outcome.message);
        }
        assert.equal(fake.commands.filter((command) => command[0] === 'JSON.DEL').length, 0);
      });
    });

    const scratch = useScratch();
  });

  describe('seen 6a: credentials written in a file are not a read', () => {
    const CREDENTIALS = ['AUTH user pw__key__', 'AUTH pw__key__', 'HELLO 3 AUTH default pw__key__', 'HELLO 3 __value__'];

    it('RunSession refuses each without the user’s --allow-admin, naming why; none reaches the server', async () => {
      const text = CREDENTIALS.map((line, i) => `### login ${i}\nrequests 5\n${line}\n`).join('');
      const outcomes = await runScenarios(session(), `target ${server().url}\n${text}`);
      for (const outcome of outcomes) {
        assert.equal(outcome.kind, 'not-run', outcome.plan?.name);
        if (outcome.kind === 'not-run')
          assert.match(outcome.message, /with credentials written in the file: a file could try passwords.*--allow-admin/, outcome.message);
      }
      await withRedis(server(), async (redis) => assert.equal(await commandCalls(redis, 'auth'), 0));
      // HELLO without credentials, QUIT and RESET stay harmless.
      const [plain] = await runScenarios(session(), `target ${server().url}\n### hello\nrequests 5\nHELLO 2\n`);
      assert.equal(plain.kind, 'finished', plain.kind === 'not-run' ? plain.message : '');
    });

    it('rbench run --yes refuses AUTH; --allow-admin lets the user send it', async () => {
      const file = scratch.write('auth.rbench', `target ${server().url}\n### login\nrequests 5\nAUTH user pw__key__\n`);
      const refused = await runCli(['run', file, '--yes'], { cwd: scratch.dir });
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /"login" sends AUTH with credentials/);
      await withRedis(server(), async (redis) => assert.equal(await commandCalls(redis, 'auth'), 0));
      const allowed = await runCli(['run', file, '--yes', '--allow-admin'], { cwd: scratch.dir });
      assert.doesNotMatch(allowed.stderr, /sends AUTH with credentials/);
      await withRedis(server(), async (redis) => assert.ok((await commandCalls(redis, 'auth')) > 0));
    });

    const scratch = useScratch();
  });
});
