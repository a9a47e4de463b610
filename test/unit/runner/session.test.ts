// The run pipeline with fakes of its ports (confirm, secrets, log, progress), as the editor and the CLI
// drive it, against real redis-servers.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useRedisServer } from '../../helpers/redis';
import { RunSession, type SessionOutcome, type SessionPorts, type SessionSettings } from '../../../src/runner/session';
import type { RemoteQuestion } from '../../../src/runner/safety';
import { forgetRemoteAnswers, remoteConfirmer, type AnswerStore } from '../../../src/editor/sessionPorts';
import { runReport } from '../../../src/editor/runSummary';

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
  questions: RemoteQuestion[];
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

async function runText(session: RunSession, text: string, display = 'scenario.rbench'): Promise<SessionOutcome[]> {
  const file = { display, text, recorded: display };
  const resolved = session.resolve(file);
  const outcomes: SessionOutcome[] = [];
  for (const plan of resolved.scenarios) {
    const prepared = await session.prepare(file, resolved, plan);
    outcomes.push('kind' in prepared ? prepared : await session.execute(prepared));
  }
  return outcomes;
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
    const [outcome] = await runText(session, 'target redis://192.0.2.1:6379\n### s\nrequests 10\nSET k v\n');
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
      const outcomes = await runText(
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
      const session = new RunSession(settings({ profiles, userTarget: { value: 'shards', override: false } }), fakePorts(recorded));
      const file = { display: 'scenario.rbench', text, recorded: 'scenario.rbench' };
      const resolved = session.resolve(file);
      return session.prepare(file, resolved, resolved.scenarios[0]);
    };

    it('refuses a multi-key command across hash slots, naming the profile, the line and the fix', async () => {
      const outcome = await prepareOn('### mset\nrequests 10\nMSET a:__key__ v b:__key__ v\n');
      assert.ok('kind' in outcome && outcome.kind === 'not-run');
      assert.match(outcome.message, /the profile "shards" is a Redis Cluster, but "mset" has a request whose keys can fall in different hash slots — line 3: MSET/);
      assert.match(outcome.message, /\{__key__\}/);
    });

    it('lets keys with a shared hash tag through', async () => {
      const outcome = await prepareOn('### mset\nrequests 10\nMSET a:{__key__} v b:{__key__} v\n');
      assert.ok(!('kind' in outcome), JSON.stringify(outcome));
    });
  });

  describe('remote targets named by a file (editor answers)', () => {
    it('asks with the host and what the scenario does; remembers per file and target; forgets on request', async () => {
      const store = new FakeStore();
      const asked: string[] = [];
      let answer: string | undefined = 'Run';
      const confirm = remoteConfirmer(store, async (message) => (asked.push(message), answer));
      // Executing would connect: only preparation is checked here, so nothing leaves the machine.
      const prepare = async (text: string, display: string) => {
        const session = new RunSession(settings(), fakePorts(recorded, { confirm }));
        const file = { display, text, recorded: display };
        const resolved = session.resolve(file);
        return session.prepare(file, resolved, resolved.scenarios[0]);
      };
      const text = 'target redis://192.0.2.1:6379\n### s\nrequests 10\nGET k\nSET k v\nCONFIG GET maxmemory\n';
      const refusedAdmin = await prepare(text, 'a.rbench');
      assert.ok('kind' in refusedAdmin && /admin command/.test(refusedAdmin.message), 'admin commands need the user\'s opt-in first');
      assert.equal(asked.length, 0);

      const rw = 'target redis://192.0.2.1:6379\n### s\nrequests 10\nGET k\nSET k v\n';
      assert.ok(!('kind' in (await prepare(rw, 'a.rbench'))));
      assert.equal(asked.length, 1);
      assert.match(asked[0], /a\.rbench names redis:\/\/192\.0\.2\.1:6379, a server on another machine \(192\.0\.2\.1\)\. "s" reads, writes \(SET\)\. Run it there\?/);
      await prepare(rw, 'a.rbench');
      assert.equal(asked.length, 1, 'remembered for this file and target');
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
      // The user allows the variables (the environment rule): the test is about where their secrets go.
      const session = new RunSession({ env, allowEnv: Object.keys(env), runsFolder: runs, trusted: true }, fakePorts(recorded, { secret: async () => secret }));
      const file = { display: 'secret.rbench', text, recorded: 'secret.rbench' };
      const resolved = session.resolve(file);
      everything.push(...resolved.diagnostics.map((diagnostic) => diagnostic.message));
      for (const outcome of await runText(session, text, 'secret.rbench')) {
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
    assert.deepEqual(leaks.map((text) => text.slice(Math.max(0, text.indexOf(password) - 80), text.indexOf(password) + 40)), []);
  });
});
