// Issue 41 (judgements), the evidence of persistence and foreign load on real servers: another client's PING
// flood is foreign load (RBench's own PINGs and INFO polls are counted as sent, not left out by name); the
// HGETALLs RediSearch runs inside each FT.SEARCH are the test's own; `appendfsync always` is persistence,
// with the fsync named and its figures.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { Bottleneck, LoadResult } from '../../../src/engine/types';
import { runCli, startCli, useScratch } from '../../helpers/cli';
import { REDISEARCH } from '../../helpers/modules';
import { useRedisServer, waitForCalls, withRedis } from '../../helpers/redis';

function kinds(verdict: Bottleneck | undefined): string[] {
  if (!verdict) return [];
  return verdict.parts ? verdict.parts.map((part) => part.kind) : [verdict.kind];
}

function whyOf(verdict: Bottleneck, kind: string): string {
  return verdict.parts?.find((part) => part.kind === kind)?.why ?? verdict.why;
}

function lastLoads(scratch: ReturnType<typeof useScratch>): LoadResult[] {
  const runs = scratch.runFiles();
  return runs[runs.length - 1].points.flatMap((point) => point.repeats.flat());
}

describe('the evidence of persistence and foreign load (issue 41)', function () {
  this.timeout(120_000);
  const scratch = useScratch();

  describe('a user’s server', () => {
    const server = useRedisServer();

    it('seen 5: another client’s PING flood during the test is foreign load, with its count', async () => {
      const file = scratch.write('pings.rbench', '### pings\nclients 2\nduration 5s\nkeys 1000\nGET k:__key__\n');
      const cli = startCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir });
      await withRedis(server(), (redis) => waitForCalls(redis, 'get', 2000, 1000));
      // PING_INLINE and PING_MBULK: 2 × 30,000 PINGs from 4 other connections.
      const flood = spawn('redis-benchmark', ['-h', server().host, '-p', String(server().port), '-c', '4', '-n', '30000', '-t', 'ping', '-q'], {
        stdio: 'ignore',
      });
      const code = await new Promise<number | null>((resolve) => flood.on('exit', resolve));
      assert.equal(code, 0, 'redis-benchmark ran');
      const result = await cli.done;
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const [load] = lastLoads(scratch);
      const foreign = load.server?.foreign;
      assert.ok(foreign, `no foreign load: ${JSON.stringify(load.server)}`);
      // Every PING the server ran in the window is the flood's but RBench's own handshakes, counted as sent.
      const pings = load.server!.commands.ping.calls;
      assert.ok(pings > 1000, `the flood overlapped the window: ${pings} PINGs`);
      assert.equal(foreign.commands.ping + (load.server?.own?.sent.ping ?? 0), pings, JSON.stringify({ foreign, own: load.server?.own }));
      assert.ok(kinds(load.bottleneck).includes('foreign-load'), JSON.stringify(load.bottleneck));
      assert.match(whyOf(load.bottleneck!, 'foreign-load'), /ping [\d,]+/);
    });

    it('a PING test alone: its PINGs and RBench’s own (handshakes, sampling) are no foreign load', async () => {
      const file = scratch.write('own.rbench', '### own\nclients 3\nrequests 20000\nPING\n');
      const result = await runCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const [load] = lastLoads(scratch);
      assert.equal(load.server?.foreign, undefined, JSON.stringify(load.server));
      assert.equal(load.server?.own?.sent.ping, 3, 'one handshake PING per connection, counted as sent');
      assert.ok((load.server?.own?.sent.info ?? 0) >= 1, JSON.stringify(load.server?.own));
    });
  });

  describe('a server with RediSearch', () => {
    const server = useRedisServer({ modules: [REDISEARCH] });

    it('seen 5: the HGETALLs FT.SEARCH runs inside the server are the test’s own, not foreign load', async () => {
      await withRedis(server(), async (redis) => {
        await redis.call('FT.CREATE', 'books', 'SCHEMA', 'title', 'TEXT');
        for (let i = 0; i < 5; i++) await redis.call('FT.ADD', 'books', `book:${i}`, '1.0', 'FIELDS', 'title', `hello reader ${i}`);
      });
      const file = scratch.write('search.rbench', '### search\nclients 2\nrequests 4000\nFT.SEARCH books hello\n');
      const result = await runCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const [load] = lastLoads(scratch);
      assert.ok((load.server?.commands.hgetall?.calls ?? 0) >= 4000, `the server counts the nested calls: ${JSON.stringify(load.server?.commands)}`);
      assert.equal(load.server?.foreign, undefined, JSON.stringify(load.server?.foreign));
      assert.equal(load.server?.nested?.hgetall, 'ft.search', JSON.stringify(load.server?.nested));
      assert.ok(!kinds(load.bottleneck).includes('foreign-load'), JSON.stringify(load.bottleneck));
    });
  });

  describe('a throwaway server', () => {
    it('seen 4: appendfsync always is persistence, with the fsync per write named and its figures', async () => {
      const file = scratch.write(
        'fsync.rbench',
        '### fsync\nserver appendonly yes\nserver appendfsync always\nclients 4\nrequests 5000\nkeys 1000\nSET f:__key__ v\n',
      );
      const result = await runCli(['run', '--yes', file], { cwd: scratch.dir });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const [load] = lastLoads(scratch);
      assert.equal(load.server?.aof?.fsync, 'always', JSON.stringify(load.server?.aof));
      assert.ok(kinds(load.bottleneck).includes('persistence'), JSON.stringify(load.bottleneck));
      assert.match(whyOf(load.bottleneck!, 'persistence'), /appendfsync always: each of the [\d,]+ writes waited for an fsync/);
      assert.match(whyOf(load.bottleneck!, 'persistence'), /p50 [\d.]+ (µs|ms) at the client/);
    });
  });
});
