// Issue 41 (judgements), the evidence of persistence and foreign load on real servers: another client's PING
// flood is foreign load (RBench's own PINGs and INFO polls are counted as sent, not left out by name); the
// HGETALLs RediSearch runs inside each FT.SEARCH are the test's own; `appendfsync always` is persistence,
// with the fsync named and its figures.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LoadResult } from '../../../src/engine/types';
import { cliPath, runCli, startCli, useScratch } from '../../helpers/cli';
import { REDISEARCH } from '../../helpers/modules';
import { useRedisServer, waitForCalls, withRedis } from '../../helpers/redis';
import { kinds, whyOf } from '../../helpers/verdict';

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

  describe('a lossy path: 1 % of the packets to and from the server dropped, in a network namespace of its own', () => {
    const ns = `rbench-loss-${randomBytes(3).toString('hex')}`;
    const inside = (command: string, args: string[], cwd?: string) => spawnSync('ip', ['netns', 'exec', ns, command, ...args], { encoding: 'utf8', cwd });
    let server: ReturnType<typeof spawn> | undefined;

    before(async function () {
      this.timeout(20_000);
      for (const args of [
        ['netns', 'add', ns],
        ['-n', ns, 'link', 'set', 'lo', 'up'],
      ]) {
        const made = spawnSync('ip', args, { encoding: 'utf8' });
        assert.equal(made.status, 0, `ip ${args.join(' ')} (needs root and iproute2): ${made.stderr}`);
      }
      for (const side of ['--dport', '--sport']) {
        const rule = inside('iptables', [
          '-A',
          'OUTPUT',
          '-o',
          'lo',
          '-p',
          'tcp',
          side,
          '6379',
          '-m',
          'statistic',
          '--mode',
          'random',
          '--probability',
          '0.01',
          '-j',
          'DROP',
        ]);
        assert.equal(rule.status, 0, `iptables in the namespace (apt-get install -y iptables): ${rule.stderr}`);
      }
      server = spawn('ip', ['netns', 'exec', ns, 'redis-server', '--port', '6379', '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: 'ignore',
      });
      for (let i = 0; i < 100 && inside('redis-cli', ['PING']).stdout.trim() !== 'PONG'; i++) await sleep(50);
    });

    after(() => {
      server?.kill('SIGKILL');
      spawnSync('ip', ['netns', 'del', ns]);
    });

    it('seen 6: retransmission timeouts set the tail — the network verdict cites the retransmits, p99 and max, not p50 or "add clients"', async () => {
      const file = scratch.write('lossy.rbench', '### lossy\nclients 10\nduration 3s\nGET k:__rand_int__\n');
      const run = inside(process.execPath, [cliPath, 'run', '--yes', file, '--url', 'redis://127.0.0.1:6379'], scratch.dir);
      assert.equal(run.status, 0, run.stdout + run.stderr);
      const [load] = lastLoads(scratch);
      assert.ok(load.tcp && load.tcp.retransmits > 0, `the host's namespace counted retransmits: ${JSON.stringify(load.tcp)}`);
      assert.ok(load.total.latency.maxUs >= 200_000, `a resend waits at least 200 ms: max ${load.total.latency.maxUs} µs`);
      assert.ok(kinds(load.bottleneck).includes('network'), JSON.stringify({ verdict: load.bottleneck, tcp: load.tcp }));
      const why = whyOf(load.bottleneck!, 'network');
      assert.match(why, /^[\d,]+ of [\d,]+ TCP segments were retransmitted on this host during the test.*: p99 [\d.]+ (µs|ms), max [\d.]+ ms/);
      assert.doesNotMatch(load.bottleneck!.why, /add clients or pipeline/);
    });
  });
});
