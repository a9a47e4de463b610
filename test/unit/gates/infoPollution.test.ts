// Issue 18, seen 1: a server's INFO with a section named `__proto__` put `passwordEnv` on Object.prototype,
// so the next scenario (and a later run to another server) sent AUTH with the variable's value. Run end
// to end through RunSession: a fake server with the hostile INFO, then a real redis-server behind a relay.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunSession, type SessionPorts, type SessionSettings } from '../../../src/runner/session';
import { useRedisServer } from '../../helpers/redis';
import { commandsCarrying, fakeRedis, loggingRelay, type FakeRedis } from './fakeRedis';
import { GlobalsWatch } from './globals';
import { runScenarios } from '../../helpers/session';

const runAll = (session: RunSession, text: string) => runScenarios(session, text, 'hostile.rbench');

const SECRET = 'hunter2-from-SOME_SECRET';

/** INFO as a real server writes it, with hostile sections and fields among the real ones. */
const HOSTILE_INFO = [
  '# Server',
  'redis_version:7.2.4',
  'redis_mode:standalone',
  '# __proto__',
  'passwordEnv:SOME_SECRET',
  'sentinelPasswordEnv:SOME_SECRET',
  '# Constructor',
  'prototype:SOME_SECRET',
  '# Memory',
  'used_memory:1000',
  '__proto__:SOME_SECRET',
  'constructor:SOME_SECRET',
  '# Keyspace',
  'db0:keys=1,__proto__=SOME_SECRET,constructor=1',
  '# Errorstats',
  'errorstat___proto__:count=1',
  'errorstat_constructor:count=2',
  '',
].join('\r\n');

const ports: SessionPorts = {
  confirm: async () => true,
  secret: async () => undefined,
  log: () => undefined,
};

describe('gate: a server reply cannot change process state (issue 18, seen 1)', function () {
  this.timeout(60_000);
  const real = useRedisServer();
  let runs: string;
  let watch: GlobalsWatch;
  const servers: FakeRedis[] = [];

  beforeEach(() => {
    runs = mkdtempSync(join(tmpdir(), 'rbench-gate-data-'));
    watch = new GlobalsWatch();
  });
  afterEach(async () => {
    // Today's code pollutes: put the prototypes back, so the failure stays in this test.
    watch.restore();
    for (const server of servers.splice(0)) await server.close();
    rmSync(runs, { recursive: true, force: true });
  });

  const settings = (url: string): SessionSettings => ({
    env: { SOME_SECRET: SECRET },
    runsFolder: runs,
    trusted: true,
    userTarget: { value: url, override: true },
  });

  it('hostile INFO sections leave Object.prototype alone, and no later connection sends the secret', async () => {
    const fake = await fakeRedis(HOSTILE_INFO);
    servers.push(fake);
    const first = await runAll(new RunSession(settings(fake.url), ports), '### one\nrequests 20\nSET k v\n### two\nrequests 20\nSET k v\n');
    assert.deepEqual(
      first.map((outcome) => outcome.kind),
      ['finished', 'finished'],
      JSON.stringify(first.map((outcome) => (outcome.kind === 'not-run' ? outcome.message : outcome.run.error))),
    );
    assert.ok(
      fake.commands.some((words) => words[0].toUpperCase() === 'INFO'),
      'the fake server was asked for INFO',
    );
    assert.deepEqual(commandsCarrying(fake, SECRET), [], 'the fake server got the secret');

    // A later run to a different, password-less server.
    const relay = await loggingRelay(real().port);
    servers.push(relay);
    const [later] = await runAll(new RunSession(settings(relay.url), ports), '### later\nrequests 20\nSET k v\n');
    assert.deepEqual(commandsCarrying(relay, SECRET), [], 'the real server got the secret');
    assert.equal(later.kind, 'finished', later.kind === 'not-run' ? later.message : '');
    assert.equal(later.kind === 'finished' && later.run.status, 'complete', later.kind === 'finished' ? later.run.error : '');
    assert.deepEqual(watch.changes(), []);
  });

  it('records the server facts and samples the hostile INFO as data: prototype names dropped, error kinds kept', async () => {
    const fake = await fakeRedis(HOSTILE_INFO);
    servers.push(fake);
    const [outcome] = await runAll(new RunSession(settings(fake.url), ports), '### one\nrequests 20\nSET k v\n');
    assert.equal(outcome.kind, 'finished');
    const run = outcome.kind === 'finished' ? outcome.run : undefined;
    assert.equal(run?.target.server?.version, '7.2.4');
    const before = run?.server.before;
    assert.ok(before, 'a sample before the run');
    assert.equal(before.usedMemory, 1000);
    assert.equal(before.keys, 1);
    assert.equal(Object.hasOwn(before, 'passwordEnv'), false);
    assert.deepEqual(
      { ...before.errorstats },
      Object.fromEntries([
        ['__proto__', 1],
        ['constructor', 2],
      ]),
      'the kinds the server named, as data',
    );
    assert.equal(Object.hasOwn(before.errorstats, '__proto__'), true);
    assert.deepEqual(watch.changes(), []);
  });
});
