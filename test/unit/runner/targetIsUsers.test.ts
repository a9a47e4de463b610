// Issue 42 through RunSession, as the editor drives it (its selected target, its profiles, its consent dialog):
// a file's `db N` is a change of the user's target, and a database the user's URL names wins. Real redis-servers.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { useRedisServer } from '../../helpers/redis';
import { runScenarios } from '../../helpers/session';
import { RunSession, type SessionPorts, type SessionSettings } from '../../../src/runner/session';
import type { ConsentRequest } from '../../../src/runner/consent';
import { chooseTarget } from '../../../src/runner/targets';
import { defaultTargetPlan } from '../../../src/runner/targets';

async function keysIn(url: string, db: number): Promise<number> {
  const redis = new Redis(url, { db, lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    return (await redis.keys('db42:*')).length;
  } finally {
    redis.disconnect();
  }
}

describe("run session: the target is the user's (issue 42)", function () {
  this.timeout(90_000);
  let runs: string;
  let questions: ConsentRequest[];
  let lines: string[];
  beforeEach(() => {
    runs = mkdtempSync(join(tmpdir(), 'rbench-target-'));
    questions = [];
    lines = [];
  });
  afterEach(() => rmSync(runs, { recursive: true, force: true }));

  const ports = (answer: boolean): SessionPorts => ({
    confirm: async (request) => (questions.push(request), answer),
    secret: async () => undefined,
    log: (line) => lines.push(line),
  });
  const settings = (more: Partial<SessionSettings>): SessionSettings => ({ env: {}, runsFolder: runs, trusted: true, ...more });

  describe('db', () => {
    const server = useRedisServer();
    beforeEach(async () => {
      const redis = new Redis(server().url);
      await redis.flushall();
      redis.disconnect();
    });

    it("writes into the database your selected target names (/0), not the file's db 3", async () => {
      const session = new RunSession(settings({ userTarget: { value: `${server().url}/0`, override: false } }), ports(true));
      const [outcome] = await runScenarios(session, 'db 3\n### w\nrequests 20\nkeys 5\nSET db42:__key__ v\n');
      assert.equal(outcome.kind, 'finished', outcome.kind === 'not-run' ? outcome.message : '');
      assert.equal(await keysIn(server().url, 3), 0);
      assert.ok((await keysIn(server().url, 0)) > 0);
      assert.match(questions[0].question.lines[0], /^Target: redis:\/\/127\.0\.0\.1:\d+ \(yours: /);
      assert.ok(lines.some((line) => /the file's db 3 is not used: your target names database 0/.test(line)));
    });

    it("asks before a read-only file moves your selected target (no database named) to db 3, as the file's choice", async () => {
      const session = new RunSession(settings({ userTarget: { value: server().url, override: false } }), ports(false));
      const [outcome] = await runScenarios(session, 'db 3\n### r\nrequests 20\nGET db42:k\n');
      assert.equal(outcome.kind === 'not-run' && outcome.reason, 'declined');
      assert.equal(questions.length, 1, 'asked');
      assert.match(
        questions[0].question.lines[0],
        /^Target: redis:\/\/127\.0\.0\.1:\d+\/3 \(from the file: you selected it .*the file's db line moves it to database 3/,
      );
    });

    it("keeps a profile's database (/0) over the file's db 3, and asks for db 3 on a profile that names none", async () => {
      const profiles = { named: { url: `${server().url}/0` }, plain: { url: server().url } };
      const onNamed = new RunSession(settings({ profiles, userTarget: { value: 'named', override: false } }), ports(false));
      const [read] = await runScenarios(onNamed, 'db 3\n### r\nrequests 20\nGET db42:k\n');
      assert.equal(read.kind, 'finished', read.kind === 'not-run' ? read.message : '');
      assert.equal(questions.length, 0, 'reads on your own profile, its own database: nothing to ask');
      const onPlain = new RunSession(settings({ profiles, userTarget: { value: 'plain', override: false } }), ports(false));
      const [asked] = await runScenarios(onPlain, 'db 3\n### r\nrequests 20\nGET db42:k\n');
      assert.equal(asked.kind === 'not-run' && asked.reason, 'declined');
      assert.match(questions[0].question.lines[0], /\/3 \(from the file: /);
    });

    it("does not ask for `db 0` on a target that names no database (the same database) nor for the file's db on its own target", async () => {
      const session = new RunSession(settings({ userTarget: { value: server().url, override: false } }), ports(false));
      const [outcome] = await runScenarios(session, 'db 0\n### r\nrequests 20\nGET db42:k\n');
      assert.equal(outcome.kind, 'finished', outcome.kind === 'not-run' ? outcome.message : '');
      assert.equal(questions.length, 0);
    });
  });

  describe('SELECT among the commands', () => {
    const server = useRedisServer();
    it('needs --allow-destructive, in a prefill as in a test, on your own target', async () => {
      const session = new RunSession(settings({ userTarget: { value: server().url, override: true } }), ports(true));
      for (const text of ['### r\nprefill\nrequests 1\nSELECT 3\nphase r\nrequests 5\nGET k\n', '### r\nrequests 5\nSELECT 3\n']) {
        const [outcome] = await runScenarios(session, text);
        assert.equal(outcome.kind === 'not-run' && outcome.reason, 'error', text);
        assert.match(outcome.kind === 'not-run' ? outcome.message : '', /SELECT switches to another database.*--allow-destructive/s);
      }
    });
  });

  describe('the choice itself (every way a URL names a database)', () => {
    const plan = { ...defaultTargetPlan(), db: 3 };
    it("drops the file's db for a URL that names one: /N, unix ?db=N, Sentinel ?db=N; keeps it as the file's for one that does not", () => {
      for (const url of ['redis://h:6379/0', 'rediss://h:6379/5', 'unix:///tmp/r.sock?db=0', 'redis-sentinel://h:26379/mymaster?db=0']) {
        const choice = chooseTarget(plan, { kind: 'url', url });
        assert.equal(choice.target.db, undefined, url);
        assert.equal(choice.fileDb, undefined, url);
      }
      assert.deepEqual(chooseTarget(plan, { kind: 'url', url: 'redis://h:6379/5' }).fileDbIgnored, { db: 3, named: 5 });
      assert.equal(chooseTarget(plan, { kind: 'url', url: 'redis://h:6379/3' }).fileDbIgnored, undefined, 'the same database: nothing ignored');
      for (const url of ['redis://h:6379', 'redis://h:6379/', 'unix:///tmp/r.sock', 'redis-sentinel://h:26379/mymaster']) {
        const choice = chooseTarget(plan, { kind: 'url', url });
        assert.equal(choice.fileDb, 3, url);
        assert.equal(choice.target.db, 3, url);
      }
      const own = chooseTarget({ ...plan, url: 'redis://h:6379/0' }, { kind: 'url', url: 'redis://x:6379' });
      assert.equal(own.source, 'scenario');
      assert.equal(own.fileDb, undefined, "the file's db on the file's own target is the file's target");
    });
  });
});
