// Client groups share engine threads (issue 43: groups must not make the engine slower). Each group was an engine
// load with worker threads of its own, so two groups of 25 clients ran two engine threads where one group of 50
// ran one, and lost throughput on a 2-core machine. The groups of `threads auto` now share: the engine threads a
// run starts are counted by a preload (NODE_OPTIONS=--require, which Node applies to worker threads too) that
// notes every thread whose workerData is an engine thread's, while each group's requests are still counted by
// the server apart and its rows stay its own.
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { commandCalls, useRedisServer } from '../../helpers/redis';
import { runCli, useScratch } from '../../helpers/cli';

/** The preload: `RBENCH-ENGINE-THREAD <threadId>` for a thread started with an engine load's data or a shared engine thread's. */
const ENGINE_THREADS = `
const { threadId, workerData, isMainThread } = require('node:worker_threads');
const { writeSync } = require('node:fs');
if (!isMainThread && workerData && (workerData.host === true || Array.isArray(workerData.connections))) {
  writeSync(2, 'RBENCH-ENGINE-THREAD ' + threadId + '\\n');
}
`;

function engineThreads(stderr: string): number {
  return new Set([...stderr.matchAll(/^RBENCH-ENGINE-THREAD (\d+)$/gm)].map(([, id]) => id)).size;
}

interface GroupRow {
  group?: { name: string };
  total: { requests: number };
  commands: { command: string; requests: number }[];
}

describe('client groups share engine threads (issue 43)', function () {
  this.timeout(90_000);
  const server = useRedisServer();
  const scratch = useScratch();

  async function run(name: string, scenario: string): Promise<{ threads: number; rows: GroupRow[]; calls: Record<string, number> }> {
    const redis = new Redis({ host: server().host, port: server().port, lazyConnect: true });
    await redis.connect();
    try {
      await redis.config('RESETSTAT');
      const preload = scratch.write('engine-threads.cjs', ENGINE_THREADS);
      const file = scratch.write(`${name}.rbench`, scenario);
      const result = await runCli(['run', '--yes', file, '--url', server().url, '--quiet', '--out', name], {
        cwd: scratch.dir,
        env: { NODE_OPTIONS: `--require ${preload}` },
      });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const calls: Record<string, number> = {};
      for (const command of ['set', 'get', 'incr']) calls[command] = await commandCalls(redis, command);
      return { threads: engineThreads(result.stderr), rows: scratch.runFiles(name)[0].points[0].repeats[0] as GroupRow[], calls };
    } finally {
      redis.disconnect();
    }
  }

  const rowOf = (rows: GroupRow[], name: string) => {
    const row = rows.find((each) => each.group?.name === name);
    assert.ok(row, `no row for group ${name}: ${rows.map((each) => each.group?.name).join(', ')}`);
    return { requests: row.total.requests, commands: row.commands.map((c) => [c.command, c.requests]) };
  };

  it('two default groups run on ONE engine thread, as one group does; each group counted apart by the server and in its own row', async () => {
    const { threads, rows, calls } = await run(
      'two',
      '### two groups\nkeys 1000\nload writers\nclients 4\nrequests 3000\nSET shared:w:__key__ __value__\nload readers\nclients 4\nrequests 2000\nGET shared:r:__key__\n',
    );
    assert.equal(threads, 1, `engine threads started: ${threads}`);
    assert.deepEqual(calls, { set: 3000, get: 2000, incr: 0 });
    assert.deepEqual(rowOf(rows, 'writers'), { requests: 3000, commands: [['SET', 3000]] });
    assert.deepEqual(rowOf(rows, 'readers'), { requests: 2000, commands: [['GET', 2000]] });
  });

  it('a group that asks for `threads 2` gets its own two; the default groups beside it share one more', async () => {
    const { threads, rows, calls } = await run(
      'explicit',
      '### explicit threads\nkeys 1000\nload writers\nthreads 2\nclients 4\nrequests 3000\nSET shared:w:__key__ __value__\n' +
        'load readers\nclients 3\nrequests 2000\nGET shared:r:__key__\nload counters\nclients 2\nrequests 1500\nINCR shared:c:__key__\n',
    );
    assert.equal(threads, 3, `engine threads started: ${threads}`);
    assert.deepEqual(calls, { set: 3000, get: 2000, incr: 1500 });
    assert.deepEqual(rowOf(rows, 'writers'), { requests: 3000, commands: [['SET', 3000]] });
    assert.deepEqual(rowOf(rows, 'readers'), { requests: 2000, commands: [['GET', 2000]] });
    assert.deepEqual(rowOf(rows, 'counters'), { requests: 1500, commands: [['INCR', 1500]] });
  });
});
