// Issue 42 through RunSession, as the editor drives it (its selected target, its profiles, its consent dialog):
// a file's `db N` is a change of the user's target, a database the user's URL names wins, and a file's
// `cluster on` on the user's target lists the nodes it will reach before anything runs. Real redis-servers.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keysInDb, useRedisServer, withRedis } from '../../helpers/redis';
import { useCluster } from '../../helpers/cluster';
import { runScenarios } from '../../helpers/session';
import { RunSession, type SessionPorts, type SessionSettings } from '../../../src/runner/session';
import type { ConsentRequest } from '../../../src/runner/consent';
import { chooseTarget } from '../../../src/runner/targets';
import { defaultTargetPlan } from '../../../src/runner/targets';
import { consentConfirmer, RUN_BUTTON, type AnswerStore } from '../../../src/editor/sessionPorts';

const store = (): AnswerStore => {
  const values = new Map<string, unknown>();
  return { get: <T>(key: string) => values.get(key) as T, update: async (key, value) => void values.set(key, value), keys: () => [...values.keys()] };
};

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
    beforeEach(() => withRedis(server(), (redis) => redis.flushall()));

    it("writes into the database your selected target names (/0), not the file's db 3", async () => {
      const session = new RunSession(settings({ userTarget: { value: `${server().url}/0`, override: false } }), ports(true));
      const [outcome] = await runScenarios(session, 'db 3\n### w\nrequests 20\nkeys 5\nSET db42:__key__ v\n');
      assert.equal(outcome.kind, 'finished', outcome.kind === 'not-run' ? outcome.message : '');
      assert.equal(await keysInDb(server(), 3, 'db42:*'), 0);
      assert.ok((await keysInDb(server(), 0, 'db42:*')) > 0);
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
      for (const url of ['redis://h:6379/0', 'rediss://h:6379/5', 'unix:///run/redis/r.sock?db=0', 'redis-sentinel://h:26379/mymaster?db=0']) {
        const choice = chooseTarget(plan, { kind: 'url', url });
        assert.equal(choice.target.db, undefined, url);
        assert.equal(choice.fileDb, undefined, url);
      }
      assert.deepEqual(chooseTarget(plan, { kind: 'url', url: 'redis://h:6379/5' }).fileDbIgnored, { db: 3, named: 5 });
      assert.equal(chooseTarget(plan, { kind: 'url', url: 'redis://h:6379/3' }).fileDbIgnored, undefined, 'the same database: nothing ignored');
      for (const url of ['redis://h:6379', 'redis://h:6379/', 'unix:///run/redis/r.sock', 'redis-sentinel://h:26379/mymaster']) {
        const choice = chooseTarget(plan, { kind: 'url', url });
        assert.equal(choice.fileDb, 3, url);
        assert.equal(choice.target.db, 3, url);
      }
      const own = chooseTarget({ ...plan, url: 'redis://h:6379/0' }, { kind: 'url', url: 'redis://x:6379' });
      assert.equal(own.source, 'scenario');
      assert.equal(own.fileDb, undefined, "the file's db on the file's own target is the file's target");
    });
  });

  describe('cluster on', () => {
    const cluster = useCluster(3, 0);

    it("lists the nodes your target announces in the editor's consent dialog before a read-only file reaches them", async () => {
      const shown: string[] = [];
      const confirm = consentConfirmer(store(), async (message, options) => (shown.push(message, options.detail), undefined));
      const session = new RunSession(settings({ userTarget: { value: cluster().url, override: false } }), {
        confirm: async (request) => (questions.push(request), confirm(request)),
        secret: async () => undefined,
        log: () => undefined,
      });
      const [outcome] = await runScenarios(session, 'cluster on\n### r\nrequests 30\nGET k\n');
      assert.equal(outcome.kind === 'not-run' && outcome.reason, 'declined', outcome.kind === 'not-run' ? outcome.message : 'it ran without asking');
      const detail = shown[1] ?? '';
      for (const node of cluster().nodes) assert.match(detail, new RegExp(`127\\.0\\.0\\.1:${node.port}\\b`), detail);
      assert.match(detail, /Reaches the nodes it announces \(the file's cluster on\): /);
      // The answer is remembered for exactly this list: Run, then the same file runs.
      const yes = new RunSession(settings({ userTarget: { value: cluster().url, override: false } }), {
        confirm: consentConfirmer(store(), async () => RUN_BUTTON),
        secret: async () => undefined,
        log: () => undefined,
      });
      const [ran] = await runScenarios(yes, 'cluster on\n### r\nrequests 30\nGET k\n');
      assert.equal(ran.kind, 'finished', ran.kind === 'not-run' ? ran.message : '');
    });

    it('asks nothing for it on your own profile that declares the cluster, nor with --cluster', async () => {
      const profiles = { mine: { url: cluster().url, cluster: true } };
      for (const more of [
        { profiles, userTarget: { value: 'mine', override: false } },
        { cluster: true, userTarget: { value: cluster().url, override: true } },
      ]) {
        const session = new RunSession(settings(more), ports(false));
        const [outcome] = await runScenarios(session, 'cluster on\n### r\nrequests 30\nGET k\n');
        assert.equal(outcome.kind, 'finished', outcome.kind === 'not-run' ? outcome.message : '');
      }
      assert.equal(questions.length, 0);
    });

    it('contacts nothing before asking when the file names the target itself: the question gives the rule', async () => {
      const session = new RunSession(settings({}), ports(false));
      const [outcome] = await runScenarios(session, `target ${cluster().url}\ncluster on\n### r\nrequests 30\nGET k\n`);
      assert.equal(outcome.kind === 'not-run' && outcome.reason, 'declined');
      assert.equal(questions[0].effects.announcedNodes, undefined);
      assert.match(questions[0].question.lines.join('\n'), /Connects to: 127\.0\.0\.1:\d+, and nodes on 127\.0\.0\.1 the cluster announces/);
    });
  });
});
