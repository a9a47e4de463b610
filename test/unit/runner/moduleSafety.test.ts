// Issue 23: a command's classes from the server's own table, in the run session the CLI and the editor share.
// On a read-only profile a module's write command is refused, its read command runs; the consent (asked from
// the built-in table, where a module's command counts as the worst) covers what the server then says.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConsentRequest } from '../../../src/runner/consent';
import { RunSession, type SessionSettings } from '../../../src/runner/session';
import { REDISEARCH, requireRediSearch } from '../../helpers/modules';
import { useRedisServer, withRedis } from '../../helpers/redis';
import { runScenarios } from '../../helpers/session';

describe('module commands in a run session (the server’s classes)', function () {
  this.timeout(60_000);
  requireRediSearch();
  const server = useRedisServer({ modules: [REDISEARCH] });
  let runs: string;
  let questions: ConsentRequest[];
  let lines: string[];
  beforeEach(() => {
    runs = mkdtempSync(join(tmpdir(), 'rbench-modules-'));
    questions = [];
    lines = [];
  });
  afterEach(() => rmSync(runs, { recursive: true, force: true }));

  const session = (more: Partial<SessionSettings>) =>
    new RunSession(
      { env: {}, runsFolder: runs, trusted: true, ...more },
      { confirm: async (question) => (questions.push(question), true), secret: async () => undefined, log: (line) => lines.push(line) },
    );

  it("on a readOnly profile a module's write command is refused before any load; its read command runs", async () => {
    await withRedis(server(), async (redis) => {
      await redis.call('FT.CREATE', 'ro-idx', 'SCHEMA', 'title', 'TEXT');
      await redis.call('FT.ADD', 'ro-idx', 'doc1', '1.0', 'FIELDS', 'title', 'hello');
    });
    const profiles = { shared: { url: server().url, readOnly: true } };
    const outcomes = await runScenarios(
      session({ profiles, userTarget: { value: 'shared', override: false } }),
      '### write\nrequests 20\nFT.ADD ro-idx doc:__key__ 1.0 REPLACE FIELDS title hello\n### read\nrequests 50\nFT.SEARCH ro-idx hello\n',
    );
    const [write, read] = outcomes;
    assert.equal(write.kind, 'not-run');
    assert.match(write.kind === 'not-run' ? write.message : '', /connection profile "shared" is read-only, but "write" writes \(FT\.ADD\)/);
    assert.equal(read.kind, 'finished', read.kind === 'not-run' ? read.message : '');
    if (read.kind === 'finished') assert.equal(read.run.points[0].repeats[0][0].total.requests, 50);
    await withRedis(server(), async (redis) => {
      const info = (await redis.call('FT.INFO', 'ro-idx')) as unknown[];
      assert.equal(String(info[info.indexOf('num_docs') + 1]), '1', 'FT.ADD never ran');
    });
    // The consent was asked from the built-in table: FT.SEARCH, unknown to it, was listed as the worst it could be.
    assert.ok(questions.length >= 1);
  });

  it('a read-only run on your own target asks nothing, and the server agrees it only reads', async () => {
    await withRedis(server(), async (redis) => {
      await redis.call('FT.CREATE', 'own-idx', 'SCHEMA', 'title', 'TEXT').catch(() => undefined);
    });
    const [outcome] = await runScenarios(session({ userTarget: { value: server().url, override: true, supplier: 'user' } }), '### r\nrequests 30\nGET k\n');
    assert.equal(outcome.kind, 'finished', outcome.kind === 'not-run' ? outcome.message : '');
    assert.deepEqual(questions, []);
  });
});
