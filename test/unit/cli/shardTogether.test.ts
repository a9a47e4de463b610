// The parts of one sharded run, started as separate `rbench run --shard I/N` processes against one real server,
// know each other: neither is the other's foreign load or "another run", the `cleanup` runs once after both have
// ended, and the merged throughput is what the server ran while both measured.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import type { LoadResult } from '../../../src/engine/types';
import type { RunFile } from '../../../src/results/runFile';
import { notComparableReason } from '../../../src/results/statisticsSamples';
import { commandCalls, useRedisServer } from '../../helpers/redis';
import { runCli, startCli, useScratch, type CliRun } from '../../helpers/cli';
import { ratesOverCommonWindow } from '../../helpers/commonWindow';

const SCENARIO = '### together\nclients 4\nduration 3s\nkeys 2000\nvalue 8\nSET together:__key__ __value__\ncleanup together:*\n';

const kinds = (load: LoadResult) => (load.bottleneck?.kind === 'mixed' ? (load.bottleneck.parts ?? []).map((p) => p.kind) : [load.bottleneck?.kind]);

describe('the parts of one sharded run know each other', function () {
  this.timeout(120_000);
  const server = useRedisServer();
  const scratch = useScratch();

  async function admin<T>(fn: (redis: Redis) => Promise<T>): Promise<T> {
    const redis = new Redis({ port: server().port, host: '127.0.0.1' });
    try {
      return await fn(redis);
    } finally {
      redis.disconnect();
    }
  }

  function startPart(file: string, index: number, startAt: number, extra: string[] = []): CliRun {
    const args = ['run', '--yes', file, '--url', server().url, '--shard', `${index}/2`, '--start-at', String(startAt), '--out', `part${index}`, ...extra];
    return startCli(args, { cwd: scratch.dir });
  }

  function partRun(index: number): { run: RunFile; file: string } {
    const run = scratch.runFiles(`part${index}`)[0];
    return { run, file: join(scratch.dir, `part${index}`, `${run.id}.rbench-run.json`) };
  }

  async function merge(files: string[]): Promise<{ run: RunFile; stdout: string }> {
    const merged = await runCli(['merge', ...files, '--out', 'merged.rbench-run.json'], { cwd: scratch.dir });
    assert.equal(merged.code, 0, merged.stderr);
    const run = JSON.parse(readFileSync(join(scratch.dir, 'merged.rbench-run.json'), 'utf8')) as RunFile;
    return { run, stdout: merged.stdout };
  }

  it('started at once: neither part is the other’s foreign load, the merge is comparable and adds their rates up', async () => {
    await admin((redis) => redis.flushall());
    const file = scratch.write('together.rbench', SCENARIO);
    const startAt = Date.now() + 3000;
    const results = await Promise.all([1, 2].map((index) => startPart(file, index, startAt).done));
    results.forEach((result) => assert.equal(result.code, 0, result.stderr));
    const parts = [1, 2].map(partRun);
    for (const [i, { run }] of parts.entries()) {
      const load = run.points[0].repeats[0][0];
      assert.equal(run.otherRuns, undefined, `part ${i + 1} named its sibling as another run: ${JSON.stringify(run.otherRuns)}`);
      assert.equal(load.server?.otherRuns, undefined);
      assert.equal(load.server?.foreign, undefined, `part ${i + 1} counted foreign load: ${JSON.stringify(load.server?.foreign)}`);
      assert.ok(!kinds(load).includes('foreign-load'), JSON.stringify(load.bottleneck));
      assert.doesNotMatch(results[i].stdout + results[i].stderr, /overlapped this one|run them one after another/);
    }
    // The last part to end cleaned up, once: the other left it to the last.
    const cleaned = parts.filter(({ run }) => run.cleanedUpKeys !== undefined);
    assert.equal(cleaned.length, 1, JSON.stringify(parts.map(({ run }) => [run.cleanedUpKeys, run.cleanupLeft, run.server.error])));
    assert.deepEqual(parts.find(({ run }) => run.cleanedUpKeys === undefined)?.run.cleanupLeft, { ended: 1, parts: 2 });
    assert.deepEqual(await admin((redis) => redis.keys('*')), []);

    const { run, stdout } = await merge(parts.map((p) => p.file));
    const load = run.points[0].repeats[0][0];
    assert.equal(load.server?.foreign, undefined, JSON.stringify(load.server?.foreign));
    assert.ok(!kinds(load).includes('foreign-load'), JSON.stringify(load.bottleneck));
    assert.doesNotMatch(notComparableReason([{ load, result: load.total }]) ?? '', /more than this run/);
    assert.doesNotMatch(stdout, /overlapped this one/);
    const expected = ratesOverCommonWindow(parts.map(({ run: part }) => part.points[0].repeats[0][0]))!;
    assert.ok(Math.abs(load.total.opsPerSec - expected) <= expected * 0.02, `merged ${load.total.opsPerSec} ops/s vs ${expected} over the common window`);
  });

  it('a part that ends first leaves the keys to its sibling still running; the last cleans; the merge counts the common window', async () => {
    await admin((redis) => redis.flushall());
    const file = scratch.write('together.rbench', SCENARIO.replace('duration 3s', 'duration 4s'));
    const startAt = Date.now() + 3000;
    // Part 2 starts 2 s after part 1: one run by --run-id, not by the time.
    const unlinksBefore = await admin((redis) => commandCalls(redis, 'unlink'));
    const first = startPart(file, 1, startAt, ['--run-id', 'staggered-1']);
    const second = startPart(file, 2, startAt + 2000, ['--run-id', 'staggered-1']);
    let secondEnded = false;
    void second.done.then(() => (secondEnded = true));
    const firstResult = await first.done;
    assert.equal(firstResult.code, 0, firstResult.stderr);
    // Part 1 has ended and part 2 is still loading: nothing deleted yet.
    const unlinksMeanwhile = (await admin((redis) => commandCalls(redis, 'unlink'))) - unlinksBefore;
    assert.equal(secondEnded, false, 'part 2 ended before part 1: the stagger did not hold');
    assert.equal(unlinksMeanwhile, 0, 'part 1 deleted keys part 2 was still using');
    assert.ok((await admin((redis) => redis.dbsize())) > 0);
    const secondResult = await second.done;
    assert.equal(secondResult.code, 0, secondResult.stderr);
    assert.ok((await admin((redis) => commandCalls(redis, 'unlink'))) > unlinksBefore, 'part 2 cleaned up');

    const [one, two] = [1, 2].map(partRun);
    assert.deepEqual(one.run.cleanupLeft, { ended: 1, parts: 2 });
    assert.equal(one.run.cleanedUpKeys, undefined);
    assert.match(firstResult.stdout + firstResult.stderr, /`cleanup` left to the last part to end: 1 of 2 parts had ended with this one/);
    assert.ok((two.run.cleanedUpKeys ?? 0) > 0, JSON.stringify([two.run.cleanedUpKeys, two.run.server.error]));
    assert.deepEqual(await admin((redis) => redis.keys('*')), [], 'the keys and the parts’ counter are gone');
    for (const { run } of [one, two]) assert.equal(run.otherRuns, undefined);

    const { run } = await merge([one.file, two.file]);
    const load = run.points[0].repeats[0][0];
    const loads = [one, two].map(({ run: part }) => part.points[0].repeats[0][0]);
    const expected = ratesOverCommonWindow(loads)!;
    assert.ok(Math.abs(load.total.opsPerSec - expected) <= expected * 0.02, `merged ${load.total.opsPerSec} ops/s vs ${expected} over the common window`);
  });

  it('refuses --run-id without --shard, and one with spaces, naming the fix', async () => {
    const file = scratch.write('together.rbench', SCENARIO);
    const alone = await runCli(['run', '--yes', file, '--url', server().url, '--run-id', 'x'], { cwd: scratch.dir });
    assert.equal(alone.code, 2, alone.stderr);
    assert.match(alone.stderr, /--run-id names the parts of one sharded run: give it with --shard I\/N/);
    const spaced = await runCli(['run', '--yes', file, '--url', server().url, '--shard', '1/2', '--run-id', 'two words'], { cwd: scratch.dir });
    assert.equal(spaced.code, 2, spaced.stderr);
    assert.match(spaced.stderr, /--run-id "two words": give 1 to 64 visible characters without spaces/);
    assert.deepEqual(scratch.runFiles('part1'), []);
  });
});
