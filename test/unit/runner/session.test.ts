// The run pipeline with fakes of its ports (confirm, secrets, log, progress), as the editor and the CLI
// drive it, against real redis-servers.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useRedisServer } from '../../helpers/redis';
import { RunSession, type SessionPorts, type SessionSettings } from '../../../src/runner/session';
import type { ConsentRequest } from '../../../src/runner/consent';
import { consentConfirmer, forgetRemoteAnswers, RUN_BUTTON, type AnswerStore } from '../../../src/editor/sessionPorts';
import { runReport } from '../../../src/editor/runSummary';
import { runScenarios } from '../../helpers/session';

class FakeStore implements AnswerStore {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
}

interface Recorded {
  questions: ConsentRequest[];
  lines: string[];
  events: string[];
}

function fakePorts(recorded: Recorded, overrides: Partial<SessionPorts> = {}): SessionPorts {
  return {
    confirm: async (question) => (recorded.questions.push(question), false),
    secret: async () => undefined,
    log: (line) => recorded.lines.push(line),
    started: (_run, target) => recorded.events.push(JSON.stringify(target)),
    progress: (_run, event) => recorded.events.push(JSON.stringify(event)),
    ...overrides,
  };
}

describe('run session', function () {
  this.timeout(60_000);
  let runs: string;
  let recorded: Recorded;
  beforeEach(() => {
    runs = mkdtempSync(join(tmpdir(), 'rbench-session-'));
    recorded = { questions: [], lines: [], events: [] };
  });
  afterEach(() => rmSync(runs, { recursive: true, force: true }));

  const settings = (more: Partial<SessionSettings> = {}): SessionSettings => ({ env: {}, runsFolder: runs, trusted: true, ...more });

  it('in a restricted workspace runs nothing, starts no server and asks nothing', async () => {
    const before = readdirSync(tmpdir()).filter((name) => name.startsWith('rbench-redis-')).length;
    const session = new RunSession(settings({ trusted: false }), fakePorts(recorded));
    const [outcome] = await runScenarios(session, 'target redis://192.0.2.1:6379\n### s\nrequests 10\nSET k v\n');
    assert.equal(outcome.kind, 'not-run');
    assert.equal(outcome.kind === 'not-run' && outcome.reason, 'restricted');
    assert.match(outcome.kind === 'not-run' ? outcome.message : '', /not trusted/);
    assert.deepEqual(recorded.questions, []);
    assert.deepEqual(recorded.events, []);
    assert.equal(readdirSync(tmpdir()).filter((name) => name.startsWith('rbench-redis-')).length, before);
    assert.deepEqual(readdirSync(runs), []);
  });

  describe('against a read-only profile', () => {
    const server = useRedisServer();
    const profiles = () => ({ shared: { url: server().url, readOnly: true } });

    it('refuses EVAL … flushall, SCRIPT FLUSH and writes; runs reads', async () => {
      const session = new RunSession(settings({ profiles: profiles(), userTarget: { value: 'shared', override: false } }), fakePorts(recorded));
      const outcomes = await runScenarios(
        session,
        '### eval\nrequests 5\nEVAL "redis.call(\'flushall\')" 0\n### script\nrequests 5\nSCRIPT FLUSH\n### write\nrequests 5\nSET k v\n### read\nrequests 50\nGET k\n',
      );
      const messages = outcomes.map((outcome) => (outcome.kind === 'not-run' ? outcome.message : outcome.run.status));
      assert.match(messages[0], /profile "shared" is read-only, but "eval" runs scripts \(EVAL\)/);
      assert.match(messages[1], /administers the server \(SCRIPT FLUSH\)|an admin command/);
      assert.match(messages[2], /read-only, but "write" writes \(SET\)/);
      assert.equal(messages[3], 'complete');
    });
  });

  describe('against a profile marked cluster', () => {
    // Preparing only: the refusal comes before any connection, so the profile's address is never dialled.
    const prepareOn = async (text: string) => {
      const profiles = { shards: { url: 'redis://127.0.0.1:1', cluster: true } };
      // The writes on the user's own profile are consented to: the refusal under test comes before.
      const session = new RunSession(
        settings({ profiles, userTarget: { value: 'shards', override: false } }),
        fakePorts(recorded, { confirm: async () => true }),
      );
      const file = { display: 'scenario.rbench', text, recorded: 'scenario.rbench' };
      const resolved = session.resolve(file);
      return session.prepare(file, resolved, resolved.scenarios[0]);
    };

    it('refuses a multi-key command across hash slots, naming the profile, the line and the fix', async () => {
      const outcome = await prepareOn('### mset\nrequests 10\nMSET a:__key__ v b:__key__ v\n');
      assert.ok('kind' in outcome && outcome.kind === 'not-run');
      assert.match(
        outcome.message,
        /the profile "shards" is a Redis Cluster, but "mset" has a request whose keys can fall in different hash slots — line 3: MSET/,
      );
      assert.match(outcome.message, /\{__key__\}/);
    });

    it('lets keys with a shared hash tag through', async () => {
      const outcome = await prepareOn('### mset\nrequests 10\nMSET a:{__key__} v b:{__key__} v\n');
      assert.ok(!('kind' in outcome), JSON.stringify(outcome));
    });
  });

  describe('consent (editor answers)', () => {
    // Preparing only, except where a test says otherwise: nothing leaves the machine.
    const prepareWith = async (session: RunSession, text: string, display: string) => {
      const file = { display, text, recorded: display };
      const resolved = session.resolve(file);
      return session.prepare(file, resolved, resolved.scenarios[0]);
    };

    it('asks with the target, hosts and every command; remembers per file and effects; forgets on request', async () => {
      const store = new FakeStore();
      const asked: string[] = [];
      let answer: string | undefined = RUN_BUTTON;
      const confirm = consentConfirmer(store, async (message, options) => (asked.push(`${message}\n${options.detail}`), answer));
      const prepare = (text: string, display: string) => prepareWith(new RunSession(settings(), fakePorts(recorded, { confirm })), text, display);
      const text = 'target redis://192.0.2.1:6379\n### s\nrequests 10\nGET k\nSET k v\nCONFIG GET maxmemory\n';
      const refusedAdmin = await prepare(text, 'a.rbench');
      assert.ok('kind' in refusedAdmin && /admin command/.test(refusedAdmin.message), "admin commands need the user's opt-in first");
      assert.equal(asked.length, 0);

      const rw = 'target redis://192.0.2.1:6379\n### s\nrequests 10\nGET k\nSET k v\nINCR n\n';
      assert.ok(!('kind' in (await prepare(rw, 'a.rbench'))));
      assert.equal(asked.length, 1);
      assert.match(asked[0], /^Run "s" from a\.rbench against redis:\/\/192\.0\.2\.1:6379\?/);
      assert.match(asked[0], /Target: redis:\/\/192\.0\.2\.1:6379 \(from the file: the file names it/);
      assert.match(asked[0], /Connects to: 192\.0\.2\.1:6379/);
      assert.match(asked[0], /Reads: GET\nWrites: SET, INCR/);
      await prepare(rw, 'a.rbench');
      assert.equal(asked.length, 1, 'remembered for this file and these effects');
      await prepare(rw, 'b.rbench');
      assert.equal(asked.length, 2, 'another file asks again');
      await prepare(rw.replace('192.0.2.1', '192.0.2.2'), 'a.rbench');
      assert.equal(asked.length, 3, 'another target asks again');

      assert.equal(await forgetRemoteAnswers(store), 3);
      answer = undefined;
      const declined = await prepare(rw, 'a.rbench');
      assert.equal(asked.length, 4, 'asks again after forgetting');
      assert.ok('kind' in declined && declined.reason === 'declined');
    });

    it('seen 7: a read-only version approved, a version with FLUSHALL and password env:GITHUB_TOKEN asks again, naming all it sends', async () => {
      const store = new FakeStore();
      const requests: ConsentRequest[] = [];
      let current: ConsentRequest | undefined;
      // The modal's answer: "Run", recording each question actually shown.
      const confirm = consentConfirmer(store, async () => (requests.push(current!), RUN_BUTTON));
      const ports = fakePorts(recorded, { confirm: (request) => ((current = request), confirm(request)) });
      const env = { GITHUB_TOKEN: 'ghp_never_shown', BENCH_USER: 'from-env-user' };
      // FLUSHALL may need the user's own opt-in elsewhere (--allow-destructive): given here so the question is reached.
      const optIns = { allowDestructive: true, allowEnv: ['BENCH_USER'] };
      const session = new RunSession(settings({ env, ...optIns }), ports);
      const readOnly = 'target redis://192.0.2.1:6379\n### s\nrequests 10\nGET k\n';
      assert.ok(!('kind' in (await prepareWith(session, readOnly, 'bench.rbench'))));
      assert.equal(requests.length, 1);
      assert.ok(!('kind' in (await prepareWith(session, readOnly, 'bench.rbench'))));
      assert.equal(requests.length, 1, 'the approved version runs without a new question');

      // Same file, same target URL: only what it does changed.
      const changed = 'target redis://192.0.2.1:6379\npassword env:GITHUB_TOKEN\n### s\nrequests 10\nGET k\nFLUSHALL\n';
      await prepareWith(session, changed, 'bench.rbench');
      assert.equal(requests.length, 2, 'the changed file asks again');
      const asked = requests[1].question.lines.join('\n');
      assert.match(asked, /Server password: environment variable GITHUB_TOKEN \(the file's password env:GITHUB_TOKEN\)/);
      assert.match(asked, /Sends environment variable GITHUB_TOKEN: as the password \(from the file\)/);
      assert.match(asked, /Wipes data: FLUSHALL/);
      assert.match(asked, /Can destroy keys it did not create: FLUSHALL/);

      const more = 'target redis://192.0.2.1:6379\nuser ${env:BENCH_USER}\npassword env:GITHUB_TOKEN\ntls-insecure on\n### s\nrequests 10\nGET k\nFLUSHALL\n';
      await prepareWith(session, more, 'bench.rbench');
      assert.equal(requests.length, 3);
      const lines = requests[2].question.lines.join('\n');
      assert.match(lines, /Server user: from-env-user \(the file's user line \(from environment variable BENCH_USER\); from the file\)/);
      assert.match(lines, /Sends environment variable BENCH_USER: as the user name/);
      assert.match(lines, /TLS: the server's certificate is not verified \(tls-insecure on\)/);
      assert.ok(!JSON.stringify(requests).includes('ghp_never_shown'), 'never the value');
    });

    it("asks before writes on the user's own loopback target, and not before reads there", async () => {
      const session = new RunSession(settings({ userTarget: { value: 'redis://127.0.0.1:1', override: false, supplier: 'user' } }), fakePorts(recorded));
      const write = await prepareWith(session, '### w\nrequests 10\nSET k v\n', 'w.rbench');
      assert.equal(recorded.questions.length, 1, 'loopback asks too: port-forwards to production live there');
      assert.ok('kind' in write && write.reason === 'declined');
      assert.match(recorded.questions[0].question.lines.join('\n'), /Target: redis:\/\/127\.0\.0\.1:1 \(yours: you selected it/);
      const read = await prepareWith(session, '### r\nrequests 10\nGET k\n', 'r.rbench');
      assert.ok(!('kind' in read), "reads on the user's own target run without a question");
      assert.equal(recorded.questions.length, 1);
    });

    describe('seen 10: a workspace-supplied target and profile', () => {
      let listener: Server;
      let connections = 0;
      beforeEach(async () => {
        connections = 0;
        listener = createServer((socket) => (connections++, socket.destroy()));
        await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      });
      afterEach(() => new Promise<void>((resolve) => listener.close(() => resolve())));

      it('asks before a read-only scenario, lists the passwordEnv it sends, and declined makes no connection', async () => {
        const port = (listener.address() as AddressInfo).port;
        const workspace = settings({
          env: { GITHUB_TOKEN: 'ghp_workspace_wants_this' },
          userTarget: { value: 'cache', override: false, supplier: 'workspace' },
          profiles: { cache: { url: `redis://127.0.0.1:${port}`, passwordEnv: 'GITHUB_TOKEN' } },
          workspaceProfiles: ['cache'],
        });
        const session = new RunSession(workspace, fakePorts(recorded));
        const outcomes = await runScenarios(session, '### read\nrequests 10\nGET k\n');
        assert.equal(recorded.questions.length, 1);
        const lines = recorded.questions[0].question.lines.join('\n');
        assert.match(lines, /from the workspace settings: the workspace settings select it \(rbench\.target/);
        assert.match(lines, /profile "cache" is defined in the workspace settings/);
        assert.match(lines, /Sends environment variable GITHUB_TOKEN: as the password \(from the workspace settings\)/);
        assert.equal(outcomes[0].kind === 'not-run' && outcomes[0].reason, 'declined');
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.equal(connections, 0, 'nothing reached the listener');
      });

      it('a user target on a workspace-defined profile asks too', async () => {
        const port = (listener.address() as AddressInfo).port;
        const session = new RunSession(
          settings({
            userTarget: { value: 'cache', override: false, supplier: 'user' },
            profiles: { cache: { url: `redis://127.0.0.1:${port}` } },
            workspaceProfiles: ['cache'],
          }),
          fakePorts(recorded),
        );
        await runScenarios(session, '### read\nrequests 10\nGET k\n');
        assert.equal(recorded.questions.length, 1);
        assert.equal(recorded.questions[0].effects.target.supplier, 'workspace');
        assert.equal(connections, 0);
      });
    });
  });
});

describe('run session: no password anywhere', function () {
  this.timeout(90_000);
  const password = 'Pw-9f3b7c1e-secret';
  const server = useRedisServer({ config: [{ name: 'requirepass', args: [password] }] });
  let runs: string;
  beforeEach(() => (runs = mkdtempSync(join(tmpdir(), 'rbench-session-'))));
  afterEach(() => rmSync(runs, { recursive: true, force: true }));

  it('is not in any run file, log line, event or message, for every password source and failure', async () => {
    const port = server().port;
    const recorded: Recorded = { questions: [], lines: [], events: [] };
    const everything: string[] = [];
    const env = {
      REDIS_URL: `redis://:${password}@127.0.0.1:${port}`,
      WRONG_URL: `redis://:${password}-wrong@127.0.0.1:${port}`,
      BAD_URL: `redis://:${password}@127.0.0.1:notaport`,
      REDIS_PASSWORD: password,
    };
    const cases: { text: string; secret?: string }[] = [
      { text: 'target ${env:REDIS_URL}\n### url\nrequests 100\nGET k\n' },
      { text: 'target ${env:WRONG_URL}\n### wrong password\nrequests 100\nGET k\n' },
      { text: 'target ${env:BAD_URL}\n### invalid url\nrequests 100\nGET k\n' },
      { text: `target redis://127.0.0.1:${port}\npassword env:REDIS_PASSWORD\n### env\nrequests 100\nSET k v\n` },
      { text: `target redis://127.0.0.1:${port}\npassword secret\n### secret\nrequests 100\nGET k\n`, secret: password },
      { text: `target redis://127.0.0.1:${port}\npassword secret\n### wrong secret\nrequests 100\nGET k\n`, secret: `${password}-wrong` },
      { text: `target redis://127.0.0.1:${port}\n### no password\nrequests 100\nGET k\n` },
      { text: 'server requirepass ${env:REDIS_PASSWORD}\npassword env:REDIS_PASSWORD\n### throwaway\nrequests 100\nGET k\n' },
    ];
    const statuses: string[] = [];
    for (const { text, secret } of cases) {
      // Every target here is the file's: consented to, so the runs go ahead.
      const session = new RunSession(
        { env, allowEnv: Object.keys(env), runsFolder: runs, trusted: true },
        fakePorts(recorded, { secret: async () => secret, confirm: async () => true }),
      );
      const file = { display: 'secret.rbench', text, recorded: 'secret.rbench' };
      const resolved = session.resolve(file);
      everything.push(...resolved.diagnostics.map((diagnostic) => diagnostic.message));
      for (const outcome of await runScenarios(session, text, 'secret.rbench')) {
        if (outcome.kind === 'not-run') {
          statuses.push(`not-run: ${outcome.message}`);
          everything.push(outcome.message);
        } else {
          statuses.push(outcome.run.status);
          everything.push(JSON.stringify(outcome.run), runReport(outcome.run, outcome.path));
        }
      }
    }
    for (const name of readdirSync(runs)) everything.push(name, readFileSync(join(runs, name), 'utf8'));
    everything.push(...recorded.lines, ...recorded.events);

    assert.deepEqual(
      statuses.map((status) => status.replace(/:.*/s, '')),
      ['complete', 'failed', 'not-run', 'complete', 'complete', 'failed', 'failed', 'complete'],
      statuses.join('\n'),
    );
    assert.equal(readdirSync(runs).length, 7, 'every run that connected or tried is saved');
    const leaks = everything.filter((text) => text.includes(password));
    assert.deepEqual(
      leaks.map((text) => text.slice(Math.max(0, text.indexOf(password) - 80), text.indexOf(password) + 40)),
      [],
    );
  });
});
