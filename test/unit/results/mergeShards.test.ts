// `rbench merge` of parts that did not measure over the very same window: the merged throughput is what the
// server ran while all parts ran (their rates over the common window added up), not the requests spread over
// the union of their windows. Recorded part loads, 100 ms buckets as the engine writes them.
import assert from 'node:assert/strict';
import type { LoadResult, TimelineSecond } from '../../../src/engine/types';
import { mergeRuns } from '../../../src/results/merge';
import type { RunFile } from '../../../src/results/runFile';
import { runWarnings } from '../../../src/results/warnings';
import { loadResult, makeRun } from '../compare/fixtures';
import { ratesOverCommonWindow } from '../../helpers/commonWindow';

const TEXT = '### spread\nclients 4\nduration 3s\nSET k:__key__ v\n';

/** A part measuring `ms` from `from` at `rates` ops/s, one rate per 100 ms bucket (the last repeated). */
function partLoad(from: string, ms: number, rates: number[]): LoadResult {
  const timeline: TimelineSecond[] = [];
  for (let t = 0; t < ms; t += 100) {
    const ops = rates[Math.min(timeline.length, rates.length - 1)];
    timeline.push({ t: t / 1000, ops, errors: 0, p50Us: 100, p99Us: 500, maxUs: 900, partialMs: Math.min(100, ms - t) });
  }
  const requests = Math.round(timeline.reduce((sum, b) => sum + (b.ops * b.partialMs!) / 1000, 0));
  const load = loadResult('main', 'SET', { ops: (requests * 1000) / ms, p99: 500 });
  for (const result of [load.total, ...load.commands]) {
    result.requests = requests;
    result.latency.count = requests;
    result.opsPerSec = (requests * 1000) / ms;
  }
  return { ...load, startedAt: from, measuredFrom: from, durationMs: ms, timeline };
}

function part(index: number, load: LoadResult, runId = 'a1b2c3d4'): RunFile {
  const run = makeRun({ text: TEXT, results: { '': [[load]] }, id: `part-${index}` });
  run.plan.shard = { index, count: 2, runId };
  run.startedAt = load.startedAt;
  run.finishedAt = new Date(Date.parse(load.startedAt) + load.durationMs).toISOString();
  return run;
}

describe('rbench merge: throughput of parts that ran together', () => {
  it('parts 1 s apart in a 3 s test: the rates over their common window add up (not the requests over the union, 25 % below)', () => {
    const a = partLoad('2026-12-06T10:00:00.000Z', 3000, [12_000]);
    const b = partLoad('2026-12-06T10:00:01.000Z', 3000, [8_000]);
    const { run, warnings } = mergeRuns([part(1, a), part(2, b)]);
    const merged = run.points[0].repeats[0][0];
    const expected = ratesOverCommonWindow([a, b])!;
    assert.equal(Math.round(expected), 20_000);
    assert.ok(Math.abs(merged.total.opsPerSec - expected) <= expected * 0.02, `merged ${merged.total.opsPerSec} vs ${expected} over the common window`);
    // Every request still counted, and the command's rate is the total's (one command).
    assert.equal(merged.total.requests, 60_000);
    assert.ok(Math.abs(merged.commands[0].opsPerSec - merged.total.opsPerSec) < 1e-6);
    assert.deepEqual(warnings, []);
  });

  it('a part whose rate changes: only its buckets inside the common window count', () => {
    // Part 2 starts 2 s late; part 1 ran at 20k/s while alone, then 5k/s once part 2 (15k/s) joined.
    const a = partLoad('2026-12-06T10:00:00.000Z', 4000, [...Array(20).fill(20_000), 5_000]);
    const b = partLoad('2026-12-06T10:00:02.000Z', 4000, [15_000]);
    const merged = mergeRuns([part(1, a), part(2, b)]).run.points[0].repeats[0][0];
    assert.equal(Math.round(ratesOverCommonWindow([a, b])!), 20_000);
    assert.ok(Math.abs(merged.total.opsPerSec - 20_000) <= 400, `merged ${merged.total.opsPerSec}`);
  });

  it('parts that never measured together: requests over the whole window, and a warning says so', () => {
    const a = partLoad('2026-12-06T10:00:00.000Z', 1000, [10_000]);
    const b = partLoad('2026-12-06T10:00:05.000Z', 1000, [10_000]);
    const { run, warnings } = mergeRuns([part(1, a), part(2, b)]);
    assert.ok(Math.abs(run.points[0].repeats[0][0].total.opsPerSec - 20_000 / 6) < 1);
    assert.deepEqual(warnings, [
      'SET: the parts never measured at the same time, so its throughput is the requests over the whole window, not what the server ran at once.',
    ]);
  });

  it('parts of different run ids: a warning names them; a part that left cleanup to the last says so until one cleaned', () => {
    const a = partLoad('2026-12-06T10:00:00.000Z', 1000, [10_000]);
    const b = partLoad('2026-12-06T10:00:00.000Z', 1000, [10_000]);
    const [p1, p2] = [part(1, a), part(2, b, 'ffff0000')];
    assert.match(mergeRuns([p1, p2]).warnings.join('\n'), /different run ids \(a1b2c3d4, ffff0000\): they were not started as one run/);

    const [q1, q2] = [part(1, a), part(2, b)];
    q1.cleanupLeft = { ended: 1, parts: 2 };
    assert.match(runWarnings(q1).join('\n'), /`cleanup` left to the last part to end: 1 of 2 parts had ended with this one/);
    q2.cleanedUpKeys = 500;
    const merged = mergeRuns([q1, q2]).run;
    assert.equal(merged.cleanedUpKeys, 500);
    assert.equal(merged.cleanupLeft, undefined);
    assert.deepEqual(mergeRuns([q1, part(2, b)]).run.cleanupLeft, { ended: 1, parts: 2 });
  });
});
