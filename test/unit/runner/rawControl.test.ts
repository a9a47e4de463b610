// A run's control connections without ioredis (issue 46: a run's fixed cost). The run's control, sampling and
// command-table connections are the engine's raw sockets (src/engine/fast/rawControl.ts): a run's main thread
// never loads ioredis, and the readers they feed (server facts, counters, clean-up) read the same as before,
// against a real server, with ACL users, error replies, a dropped connection and a hostile reply.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type Redis from 'ioredis';
import { openRawControl } from '../../../src/engine';
import { deleteKeysMatching } from '../../../src/redis/cleanup';
import { CommandTally } from '../../../src/redis/commandTally';
import { closeControlConnection, ioredisLink, openControlConnection, RedisConnectionError } from '../../../src/redis/control';
import type { ControlLink } from '../../../src/redis/controlLink';
import { isReplyError, readServerFacts } from '../../../src/redis/info';
import { readServerCounters } from '../../../src/redis/serverCounters';
import { repoRoot, useScratch } from '../../helpers/cli';
import { startFakeRedis } from '../../helpers/fakeRedis';
import { useRedisServer } from '../../helpers/redis';
import { REQUIRE_RECORDER } from '../../helpers/requireRecorder';
import { optionsFor } from '../redis/support';

/** Runs the command-line runner as tsc builds it (out/src/cli/bin.js: one file per module, so each require shows). */
function runUnbundled(args: string[], cwd: string, recorder: string): Promise<{ code: number | null; stderr: string }> {
  const bin = join(repoRoot, 'out', 'src', 'cli', 'bin.js');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--require', recorder, bin, ...args], { cwd });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** The ioredis files the main thread (thread 0) required. */
const loadedIoredis = (stderr: string) => [...stderr.matchAll(/^RBENCH-REQUIRE 0 (.*\/node_modules\/ioredis\/.*)$/gm)].map((match) => match[1]);

describe('a run without ioredis: the raw control connection (issue 46)', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  const scratch = useScratch();
  let admin: Redis;
  let opened: ControlLink[] = [];

  before(async () => {
    admin = await openControlConnection(optionsFor(server()));
  });
  after(async () => {
    await closeControlConnection(admin);
  });
  beforeEach(async () => {
    await admin.flushall();
    await admin.call('ACL', 'DELUSER', 'noconfig', 'safe');
  });
  afterEach(() => {
    for (const link of opened) link.disconnect();
    opened = [];
  });

  async function raw(fields: Parameters<typeof optionsFor>[1] = {}, tally?: CommandTally): Promise<ControlLink> {
    const link = await openRawControl(optionsFor(server(), fields), tally);
    opened.push(link);
    return link;
  }

  it("a fast-path run's main thread loads no ioredis; `rbench check --url`, which still uses it, does", async () => {
    const recorder = scratch.write('recorder.cjs', REQUIRE_RECORDER);
    const file = scratch.write('lean.rbench', '### lean\nclients 4\npipeline 8\nrequests 200\nkeys 100\nSET lean:__key__ __value__\n');
    const run = await runUnbundled(['run', '--yes', file, '--url', server().url, '--quiet', '--out', 'runs'], scratch.dir, recorder);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(scratch.runFiles('runs')[0].points[0].repeats[0][0].total.requests, 200);
    assert.match(run.stderr, /^RBENCH-REQUIRE 0 .*rawControl\.js$/m, 'the recorder saw the run open its raw control connection');
    assert.deepEqual(loadedIoredis(run.stderr), [], 'the run loaded ioredis');
    assert.ok(!/^RBENCH-REQUIRE 0 (node:)?tls$/m.test(run.stderr), 'a plain-TCP run loaded node:tls');

    // The recorder does see ioredis where it is used: the command table check of `rbench check --url`.
    const check = await runUnbundled(['check', file, '--url', server().url], scratch.dir, recorder);
    assert.equal(check.code, 0, check.stderr);
    assert.ok(loadedIoredis(check.stderr).length > 0, 'rbench check --url loaded no ioredis: the recorder cannot see it');
  });

  it('reads the same server facts, counters and clean-up as an ioredis client does', async () => {
    await admin.mset('a', '1', 'b', '2', 'bench:1', 'x', 'bench:2', 'y');
    const link = await raw();
    const viaIoredis = ioredisLink(admin);
    assert.deepEqual(await readServerFacts(link, ['hz']), await readServerFacts(viaIoredis, ['hz']));
    const counters = await readServerCounters(link, 'node', { slowlogEntries: 2 });
    assert.ok(counters.counters.commands.get !== undefined || Object.keys(counters.counters.commands).length > 0, 'no commandstats read');
    assert.ok(counters.slowlog !== undefined, 'no slowlog read');
    assert.deepEqual(await deleteKeysMatching(link, 'bench:*', { count: 1 }), { deleted: 2, leftAlone: 0 });
    assert.equal(await admin.dbsize(), 2);
  });

  it('an ACL user: facts without CONFIG, and without INFO (HELLO); an error reply is a ReplyError, in a batch too', async () => {
    await admin.mset('a', '1', 'b', '2', 'c', '3');
    await admin.call('ACL', 'SETUSER', 'noconfig', 'on', '>pw', '~*', '+@all', '-config');
    await admin.call('ACL', 'SETUSER', 'safe', 'on', '>pw', '~*', '+@all', '-@dangerous');
    const version = String((await readServerFacts(ioredisLink(admin))).version);
    const noConfig = await readServerFacts(await raw({ username: 'noconfig', password: 'pw' }));
    assert.deepEqual({ ...noConfig.config }, {});
    assert.equal(noConfig.keys, 3);
    assert.equal(noConfig.version, version);
    const safe = await raw({ username: 'safe', password: 'pw' });
    const facts = await readServerFacts(safe);
    assert.deepEqual({ ...facts, config: { ...facts.config } }, { version, mode: 'standalone', config: {}, keys: 3 });
    const refused = await safe.call('INFO').catch((error: unknown) => error);
    assert.ok(isReplyError(refused) && /^NOPERM/.test(refused.message), String(refused));
    const [first, second] = await safe.batch([['INFO'], ['DBSIZE']]);
    assert.ok(isReplyError(first[0]), 'the refused INFO in a batch');
    assert.deepEqual(second, [null, 3]);
  });

  it('a wrong password and a closed port fail with a plain message naming the place', async () => {
    await admin.call('ACL', 'SETUSER', 'safe', 'on', '>pw', '~*', '+@all');
    const wrong = await openRawControl(optionsFor(server(), { username: 'safe', password: 'nope' })).catch((error: unknown) => error);
    assert.ok(wrong instanceof RedisConnectionError, String(wrong));
    assert.match(wrong.message, /WRONGPASS|password|authenticat/i);
    const closed = await openRawControl({ ...optionsFor(server()), port: 1 }).catch((error: unknown) => error);
    assert.ok(closed instanceof RedisConnectionError, String(closed));
    assert.match(closed.message, /127\.0\.0\.1:1.*refused/);
  });

  it('the tally counts exactly what the connection sends, as the server counts it', async () => {
    const tally = new CommandTally();
    const link = await raw({ clientName: 'rbench-run:tally:1' }, tally);
    await link.call('DBSIZE');
    await link.batch([['INFO', 'server'], ['CONFIG', 'GET', 'save'], ['DBSIZE']]);
    const sent = Object.fromEntries(tally.mark().sent);
    assert.deepEqual(sent, { ping: 1, 'client|setname': 1, dbsize: 2, info: 1, 'config|get': 1 });
    assert.equal(tally.mark().inFlight, 0);
  });

  it('a connection the server drops is opened again, named again, and the next command works', async () => {
    const link = await raw({ clientName: 'rbench-run:dropped:1' });
    assert.equal(await link.call('DBSIZE'), 0);
    assert.equal(await admin.call('CLIENT', 'KILL', 'USER', 'default', 'SKIPME', 'yes'), 1);
    // The command in flight when the server closes fails as a lost connection; the next one reconnects.
    for (let tries = 0; tries < 50; tries++) {
      const reply = await link.call('DBSIZE').catch(() => undefined);
      if (reply === 0) break;
    }
    assert.equal(await link.call('DBSIZE'), 0);
    const list = String(await admin.call('CLIENT', 'LIST'));
    assert.match(list, /name=rbench-run:dropped:1 /);
  });

  it('a reply past the control limits ends the command with a message, not a hang or an out-of-memory', async () => {
    const fake = await startFakeRedis('127.0.0.1', { answer: (args) => (args[0].toUpperCase() === 'INFO' ? { raw: '*2000000\r\n:1\r\n' } : undefined) });
    try {
      const link = await openRawControl({ ...optionsFor(server()), host: fake.host, port: fake.port });
      opened.push(link);
      const refused = await link.call('INFO', 'server').catch((error: unknown) => error);
      assert.ok(refused instanceof Error && /more than 1,000,000 elements/.test(refused.message), String(refused));
    } finally {
      await fake.close();
    }
  });
});
