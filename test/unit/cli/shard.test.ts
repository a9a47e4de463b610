// Several load machines: `rbench run --shard I/N --start-at …` processes at once against one real server,
// then `rbench merge`. The parts together must be the scenario, and merged percentiles come from added histograms.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as hdr from 'hdr-histogram-js';
import Redis from 'ioredis';
import type { RunFile } from '../../../src/results/runFile';
import { parseRunId, parseShard, parseStartAt, shardPlan, startAtGroup } from '../../../src/runner/shard';
import { commandCalls, useRedisServer } from '../../helpers/redis';
import { runCli, startCli, useScratch } from '../../helpers/cli';
import { check } from '../scenario/helpers';
import { ratesOverCommonWindow } from '../../helpers/commonWindow';

describe('--shard and --start-at', () => {
  it('parses I/N and times with a zone or epoch milliseconds, and refuses the rest', () => {
    assert.deepEqual(parseShard('2/3'), { index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '2', 'a/b', '1/0']) assert.match(parseShard(bad) as string, /write --shard I\/N with 1 ≤ I ≤ N/);
    assert.equal(parseStartAt('2026-11-30T12:00:00Z'), Date.UTC(2026, 10, 30, 12));
    assert.equal(parseStartAt('2026-11-30T13:00:00.5+01:00'), Date.UTC(2026, 10, 30, 12, 0, 0, 500));
    assert.equal(parseStartAt('1796040000000'), 1796040000000);
    assert.match(parseStartAt('1796040000') as string, /looks like epoch seconds/);
    assert.match(parseStartAt('2026-11-30T12:00:00') as string, /without a zone the machines could disagree/);
    assert.match(parseStartAt('tomorrow') as string, /is not a time/);
  });

  it('divides clients, requests and rate so that the parts add up to the scenario', () => {
    const [plan] = check('### s\nclients 5\nrequests 1001\nrate 1000/s\nSET k:__key__ v\n').scenarios;
    const parts = [1, 2].map((index) => shardPlan(plan, { index, count: 2 }));
    const loads = parts.map((part) => (typeof part === 'string' ? assert.fail(part) : part.points[0].phases[0].load));
    assert.deepEqual(
      loads.map((load) => [load.clients, load.requests, load.rate, load.shard]),
      [
        // Client shares of 1001 requests: 201, 200, 200 | 200, 200.
        [3, 601, 600, { firstClient: 0, totalClients: 5 }],
        [2, 400, 400, { firstClient: 3, totalClients: 5 }],
      ],
    );
    assert.deepEqual((parts[1] as typeof plan).shard, { index: 2, count: 2 });
  });

  it('gives the parts of one --start-at or --run-id one run id, another for another run, split or scenario', () => {
    const [plan] = check('### s\nclients 4\nrequests 100\nSET k:__key__ v\n').scenarios;
    const idOf = (group: string | undefined, index: number, count = 2, of = plan) => {
      const part = shardPlan(of, { index, count, ...(group === undefined ? {} : { group }) });
      return typeof part === 'string' ? assert.fail(part) : part.shard?.runId;
    };
    const group = startAtGroup(1796040000000);
    assert.match(idOf(group, 1) ?? '', /^[0-9a-f]{8}$/);
    assert.equal(idOf(group, 1), idOf(group, 2));
    assert.notEqual(idOf(group, 1), idOf(startAtGroup(1796040000001), 1));
    assert.notEqual(idOf(group, 1), idOf(group, 1, 4));
    assert.notEqual(idOf(group, 1), idOf(group, 1, 2, { ...plan, name: 'other' }));
    assert.equal(idOf(undefined, 1), undefined);
    assert.equal(parseRunId(' nightly-42 '), 'nightly-42');
    for (const bad of ['', 'two words', 'x'.repeat(65)]) assert.match((parseRunId(bad) as { error: string }).error, /give 1 to 64 visible characters/);
  });

  it('refuses a test with fewer clients than parts, naming it', () => {
    const [plan] = check('### s\nclients 2\nrequests 10\nSET k v\n').scenarios;
    assert.match(
      shardPlan(plan, { index: 1, count: 3 }) as string,
      /--shard 1\/3: phase main has 2 clients, fewer than the 3 parts — give it at least 3 clients, or use fewer parts/,
    );
  });
});

async function serverCounts(port: number): Promise<{ keys: number; sets: number }> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
  try {
    await redis.connect();
    return { keys: await redis.dbsize(), sets: await commandCalls(redis, 'set') };
  } finally {
    redis.disconnect();
  }
}

/** What the merged percentiles must be: the parts' histograms decoded and added by hdr-histogram-js itself. */
function addedHistogram(encoded: string[]): hdr.Histogram {
  const sum = hdr.build({ bitBucketSize: 64, lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
  for (const text of encoded) sum.add(hdr.decodeFromCompressedBase64(text, 64, false));
  return sum;
}

describe('rbench run --shard, then rbench merge', function () {
  this.timeout(120_000);
  const server = useRedisServer();
  const scratch = useScratch();

  const SCENARIO = '### spread\nclients 4\npipeline 4\nrequests 20000\nkeys 20000 sequential\nvalue 8\nSET shard:__key__ __value__\n';

  async function runParts(count: number): Promise<{ files: string[]; runs: RunFile[]; startAt: number }> {
    const file = scratch.write('spread.rbench', SCENARIO);
    const startAt = Date.now() + 3000;
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        runCli(['run', '--yes', file, '--url', server().url, '--shard', `${i + 1}/${count}`, '--start-at', String(startAt), '--out', `part${i + 1}`], {
          cwd: scratch.dir,
        }),
      ),
    );
    results.forEach((result, i) => {
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, new RegExp(`spread\\s+→\\s+redis://127\\.0\\.0\\.1:\\d+\\s+\\(part ${i + 1}/${count}\\)`));
    });
    const runs = results.map((_, i) => scratch.runFiles(`part${i + 1}`)[0]);
    const files = runs.map((run, i) => join(scratch.dir, `part${i + 1}`, `${run.id}.rbench-run.json`));
    return { files, runs, startAt };
  }

  it('three parts at once add up to the scenario, and merge joins them exactly', async () => {
    const admin = new Redis({ port: server().port, host: '127.0.0.1' });
    await admin.flushall().finally(() => admin.disconnect());
    const before = await serverCounts(server().port);
    const { files, runs, startAt } = await runParts(3);

    // The parts waited for --start-at, recorded their shard and ran their clients' shares.
    // One run id for the three, from --start-at: they know each other on the server.
    const runId = runs[0].plan.shard?.runId;
    assert.match(runId ?? '', /^[0-9a-f]{8}$/);
    runs.forEach((run, i) => {
      assert.deepEqual(run.plan.shard, { index: i + 1, count: 3, runId });
      assert.equal(run.otherRuns, undefined);
      assert.ok(Date.parse(run.startedAt) >= startAt, `part ${i + 1} started at ${run.startedAt}, before --start-at`);
    });
    assert.deepEqual(
      runs.map((run) => run.plan.points[0].phases[0].load.clients),
      [2, 1, 1],
    );
    assert.deepEqual(
      runs.map((run) => run.points[0].repeats[0][0].total.requests),
      [10000, 5000, 5000],
    );
    // Together exactly the scenario: every SET reached the server and each of the 20,000 keys was written once.
    const after = await serverCounts(server().port);
    assert.equal(after.sets - before.sets, 20000);
    assert.equal(after.keys, 20000);

    const merged = await runCli(['merge', ...files, '--out', 'merged.rbench-run.json'], { cwd: scratch.dir });
    assert.equal(merged.code, 0, merged.stderr);
    assert.match(merged.stdout, /^SET\s+20,000\s+4\s+4\s/m);
    for (const [i, n] of [10000, 5000, 5000].entries()) {
      assert.match(merged.stdout, new RegExp(`^  shard ${i + 1}/3\\s+${n.toLocaleString('en-US')}\\s+${i === 0 ? 2 : 1}\\s+4\\s`, 'm'));
    }
    const run = JSON.parse(readFileSync(join(scratch.dir, 'merged.rbench-run.json'), 'utf8')) as RunFile;
    const load = run.points[0].repeats[0][0];
    assert.equal(run.status, 'complete');
    assert.equal(run.plan.shard, undefined);
    assert.deepEqual([run.plan.points[0].phases[0].load.clients, run.plan.points[0].phases[0].load.requests], [4, 20000]);
    assert.equal(load.total.requests, 20000);
    assert.equal(load.total.errors, 0);
    assert.deepEqual(
      load.parts?.map((part) => [part.part, part.total.requests]),
      [
        ['shard 1/3', 10000],
        ['shard 2/3', 5000],
        ['shard 3/3', 5000],
      ],
    );
    assert.deepEqual(
      run.merged?.parts.map((part) => part.id),
      runs.map((r) => r.id),
    );

    const expected = addedHistogram(runs.map((r) => r.points[0].repeats[0][0].total.histogram));
    assert.equal(expected.totalCount, 20000);
    assert.deepEqual(
      [load.total.latency.p50Us, load.total.latency.p90Us, load.total.latency.p99Us, load.total.latency.p999Us, load.total.latency.count],
      [
        expected.getValueAtPercentile(50),
        expected.getValueAtPercentile(90),
        expected.getValueAtPercentile(99),
        expected.getValueAtPercentile(99.9),
        expected.totalCount,
      ],
    );
    assert.equal(addedHistogram([load.total.histogram]).getValueAtPercentile(99), expected.getValueAtPercentile(99));
    // Throughput: the parts' rates over the window all three measured in, added up; 20,000 SETs take well under a
    // second, so on a busy machine the parts may not overlap at all: then the requests over the whole window, said so.
    const loads = runs.map((r) => r.points[0].repeats[0][0]);
    const together = ratesOverCommonWindow(loads);
    if (together !== undefined) {
      assert.ok(Math.abs(load.total.opsPerSec - together) <= together * 0.02, `${load.total.opsPerSec} vs ${together} over the common window`);
    } else {
      assert.ok(Math.abs(load.total.opsPerSec - (20000 * 1000) / load.durationMs) < 1e-6);
      assert.match(merged.stdout, /SET: the parts never measured at the same time/);
    }
    // Timeline seconds add the parts' requests.
    const timelineOps = load.timeline.reduce((sum, second) => sum + (second.ops * (second.partialMs ?? 1000)) / 1000, 0);
    assert.ok(
      Math.abs(timelineOps - 20000) < 20000 * 0.05,
      `timeline holds ${timelineOps} requests: ${JSON.stringify(load.timeline)} from ${JSON.stringify(runs.map((r) => [r.points[0].repeats[0][0].measuredFrom, r.points[0].repeats[0][0].timeline]))}`,
    );
  });

  it('refuses runs of different plans, a part given twice, and says which parts are missing', async () => {
    const { files } = await runParts(2);
    const other = JSON.parse(readFileSync(files[1], 'utf8')) as RunFile;
    other.plan.points[0].phases[0].load.pipeline = 8;
    const otherFile = join(scratch.dir, 'other.rbench-run.json');
    writeFileSync(otherFile, JSON.stringify(other));
    const different = await runCli(['merge', files[0], otherFile], { cwd: scratch.dir });
    assert.equal(different.code, 2);
    assert.match(
      different.stderr,
      /other\.rbench-run\.json and .*part1.* ran different plans \(points\[0\]\.phases\[0\]\.load\.pipeline: 8 vs 4\): merge joins parts of one scenario/,
    );

    const twice = await runCli(['merge', files[0], files[0]], { cwd: scratch.dir });
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /are both part 1\/2: give each part once/);

    const none = await runCli(['merge'], { cwd: scratch.dir });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /rbench merge: name the run files to merge/);
    const lonely = await runCli(['merge', files[0]], { cwd: scratch.dir });
    assert.equal(lonely.code, 2);
    assert.match(lonely.stderr, /name at least two run files/);

    const third = JSON.parse(readFileSync(files[1], 'utf8')) as RunFile;
    third.plan.shard = { index: 2, count: 3 };
    for (const [i, run] of [JSON.parse(readFileSync(files[0], 'utf8')) as RunFile, third].entries()) {
      if (i === 0) run.plan.shard = { index: 1, count: 3 };
      writeFileSync(join(scratch.dir, `of3-${i}.json`), JSON.stringify(run));
    }
    const partial = await runCli(['merge', 'of3-0.json', 'of3-1.json', '--out', 'partial'], { cwd: scratch.dir });
    assert.equal(partial.code, 0, partial.stderr);
    assert.match(partial.stdout, /! Parts 3\/3 are missing: these figures are 2 of 3 parts, not the whole scenario\./);
  });

  it('leaves expectations to the merge, and merges each scenario of a file on its own', async () => {
    const file = scratch.write(
      'two.rbench',
      '### first\nclients 2\nrequests 2000\nexpect throughput > 100000000/s\nSET a:__key__ v\n### second\nclients 2\nrequests 1000\nGET a:__key__\n',
    );
    const parts = await Promise.all(
      [1, 2].map((i) => runCli(['run', '--yes', file, '--url', server().url, '--shard', `${i}/2`, '--out', `p${i}`], { cwd: scratch.dir })),
    );
    for (const part of parts) {
      assert.equal(part.code, 0, part.stderr);
      assert.match(part.stdout, /Expectations are checked on the whole: rbench merge the parts' run files\./);
    }
    const files = [1, 2].flatMap((i) => scratch.runFiles(`p${i}`).map((run) => join(scratch.dir, `p${i}`, `${run.id}.rbench-run.json`)));
    assert.equal(files.length, 4);
    const merged = await runCli(['merge', ...files, '--out', 'merged'], { cwd: scratch.dir });
    assert.equal(merged.code, 1, merged.stderr);
    assert.match(merged.stderr, /^FAIL {2}expect throughput > 100000000\/s {2}\[SET\]/m);
    const runs = scratch.runFiles('merged');
    assert.deepEqual(runs.map((run) => [run.scenario.name, run.points[0].repeats[0][0].total.requests]).sort(), [
      ['first', 2000],
      ['second', 1000],
    ]);
    assert.equal(runs.find((run) => run.scenario.name === 'first')?.thresholds[0]?.passed, false);
  });

  it('waits for --start-at, and Ctrl-C during the wait cancels without running', async () => {
    const file = scratch.write('spread.rbench', SCENARIO);
    const before = await serverCounts(server().port);
    const cli = startCli(['run', '--yes', file, '--url', server().url, '--shard', '1/2', '--start-at', new Date(Date.now() + 60_000).toISOString()], {
      cwd: scratch.dir,
    });
    await cli.waitFor(/Waiting until \d{4}-\d\d-\d\dT/);
    cli.kill('SIGINT');
    const started = Date.now();
    const result = await cli.done;
    assert.equal(result.code, 130, result.stderr);
    assert.ok(Date.now() - started < 5000, 'cancelled at once');
    assert.deepEqual(scratch.runFiles(), []);
    assert.equal((await serverCounts(server().port)).sets, before.sets);
  });
});
