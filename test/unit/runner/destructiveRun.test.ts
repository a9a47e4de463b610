// A shared file that targets a server on 127.0.0.1 and would wipe, move or delete keys that were there
// (issue 18, seen 2): refused before any command is sent, through RunSession and `rbench run`; the keys survive.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import { runCli, useScratch } from '../../helpers/cli';
import { RunSession, type SessionSettings } from '../../../src/runner/session';
import { runScenarios } from '../../helpers/session';

const runText = (session: RunSession, text: string) => runScenarios(session, text, 'shared.rbench');

const WIPES = [
  '### flushall\nrequests 5\nFLUSHALL\n',
  '### flushdb lower case\nrequests 5\nflushdb\n',
  '### cleanup everything\ncleanup *\nrequests 5\nSET bench:__key__ v\n',
  '### cleanup theirs\ncleanup user:*\nrequests 5\nSET bench:__key__ v\n',
  '### del\nrequests 5\nDEL user:1\n',
  '### unlink\nrequests 5\nUNLINK user:2\n',
  '### expire\nrequests 5\nEXPIRE user:1 1\n',
  '### rename\nrequests 5\nRENAME user:1 bench:moved\n',
  '### move\nrequests 5\nMOVE user:1 1\n',
  '### copy replace\nrequests 5\nSET bench:src x\nCOPY bench:src user:2 REPLACE\n',
  '### eval\nrequests 5\nEVAL "return redis.call(\'FLUSHALL\')" 0\n',
  '### transaction\nrequests 5\ngroup tx\n  MULTI\n  FLUSHDB\n  EXEC\nend\n',
  '### select\nrequests 5\nSELECT 1\nFLUSHDB\n',
  '### swapdb\nrequests 5\nSWAPDB 0 1\n',
  '### hdel\nrequests 5\nSET bench:__key__ v\nHDEL user:profile name\n',
  '### rpop\nrequests 5\nRPOP user:queue\n',
];

describe('destructive commands against a server on 127.0.0.1 (seen 2)', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  let runs: string;
  beforeEach(async () => {
    runs = mkdtempSync(join(tmpdir(), 'rbench-destructive-'));
    await withRedis(server(), async (redis) => {
      await redis.flushall();
      await redis.set('user:1', 'alice');
      await redis.set('user:2', 'bob');
      await redis.hset('user:profile', 'name', 'carol');
      await redis.rpush('user:queue', 'job-1', 'job-2');
      await redis.select(1);
      await redis.set('other-db', 'kept');
    });
  });
  afterEach(() => rmSync(runs, { recursive: true, force: true }));

  const expectKeysKept = () =>
    withRedis(server(), async (redis) => {
      assert.equal(await redis.get('user:1'), 'alice');
      assert.equal(await redis.get('user:2'), 'bob');
      assert.equal(await redis.ttl('user:1'), -1);
      assert.equal(await redis.hget('user:profile', 'name'), 'carol');
      assert.deepEqual(await redis.lrange('user:queue', 0, -1), ['job-1', 'job-2']);
      for (const command of ['flushall', 'flushdb', 'del', 'unlink', 'expire', 'rename', 'move', 'copy', 'eval', 'swapdb', 'multi', 'hdel', 'rpop']) {
        assert.equal(await commandCalls(redis, command), 0, `${command} was sent`);
      }
      await redis.select(1);
      assert.equal(await redis.get('other-db'), 'kept');
    });

  const settings = (more: Partial<SessionSettings> = {}): SessionSettings => ({ env: {}, runsFolder: runs, trusted: true, ...more });

  it('RunSession refuses every one of them, naming the fix, and the keys that were there survive', async () => {
    const questions: string[] = [];
    const session = new RunSession(settings(), {
      // Whatever the consent question says, the answer "yes" does not let a file destroy keys.
      confirm: async (question) => (questions.push(question.scenario), true),
      secret: async () => undefined,
      log: () => undefined,
    });
    await withRedis(server(), (redis) => redis.config('RESETSTAT'));
    const outcomes = await runText(session, `target ${server().url}\n${WIPES.join('')}`);
    assert.equal(outcomes.length, WIPES.length);
    for (const outcome of outcomes) {
      assert.equal(outcome.kind, 'not-run', outcome.kind === 'finished' ? outcome.plan.name : '');
      if (outcome.kind !== 'not-run') continue;
      assert.equal(outcome.reason, 'error');
      assert.match(
        outcome.message,
        /can destroy or rewrite keys that are not its own: .*rbench run --allow-destructive.*rbench\.allowDestructiveCommands/,
        outcome.message,
      );
    }
    assert.deepEqual(questions, []);
    await expectKeysKept();
  });

  it('runs a scenario on its own keys, and a destructive one the user allowed', async () => {
    const session = new RunSession(settings(), { confirm: async () => true, secret: async () => undefined, log: () => undefined });
    const [own] = await runText(session, `target ${server().url}\n### own\ncleanup bench:*\nrequests 20\nSET bench:__key__ v\nDEL bench:__key__\n`);
    assert.equal(own.kind, 'finished', own.kind === 'not-run' ? own.message : '');
    const allowing = new RunSession(settings({ allowDestructive: true }), { confirm: async () => true, secret: async () => undefined, log: () => undefined });
    const [allowed] = await runText(allowing, `target ${server().url}\n### del\nrequests 5\nDEL user:1\n`);
    assert.equal(allowed.kind, 'finished', allowed.kind === 'not-run' ? allowed.message : '');
    await withRedis(server(), async (redis) => assert.equal(await redis.exists('user:1'), 0));
  });

  describe('rbench run', () => {
    const scratch = useScratch();

    it('refuses the file without --allow-destructive, even with --yes; the keys survive', async () => {
      await withRedis(server(), (redis) => redis.config('RESETSTAT'));
      const file = scratch.write('shared.rbench', `target ${server().url}\n${WIPES.join('')}`);
      const result = await runCli(['run', file, '--yes'], { cwd: scratch.dir });
      assert.equal(result.code, 2, result.stderr);
      for (const name of ['flushall', 'cleanup everything', 'del', 'eval', 'transaction', 'select', 'swapdb']) {
        assert.match(result.stderr, new RegExp(`"${name}" can destroy or rewrite keys`), name);
      }
      assert.match(result.stderr, /--allow-destructive/);
      assert.deepEqual(scratch.runFiles(), []);
      await expectKeysKept();
    });

    it('runs it with --allow-destructive', async () => {
      const file = scratch.write('wipe.rbench', `target ${server().url}\n### flushall\nrequests 5\nFLUSHALL\n`);
      const result = await runCli(['run', file, '--yes', '--allow-destructive'], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stderr);
      await withRedis(server(), async (redis) => assert.equal(await redis.exists('user:1'), 0));
    });
  });
});
