// Issue 22 (7): the charts' models show what matters — a log latency axis when the tail is far above the
// median, a timeline latency axis that one spike does not set, no spike from the last sliver of a bucket,
// no one-dot server chart — and status colours that reach 4.5:1 on the theme's background.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TimelineSecond } from '../../../src/engine/types';
import type { RunFile } from '../../../src/results/runFile';
import { AA_CONTRAST, contrastRatio, parseColour, readableOn } from '../../../src/views/contrast';
import { buildViewModel, drawnBuckets, latencyClip, serverNote, serverSeries, tailRatio, timelineSeries } from '../../../src/views/model';
import { repoRoot } from '../scenario/helpers';

const fixture = (name: string) => JSON.parse(readFileSync(join(repoRoot(), 'test', 'browser', 'fixtures', `${name}.rbench-run.json`), 'utf8')) as RunFile;
const second = (t: number, p99Us: number, partialMs?: number, ops = 1000): TimelineSecond => ({
  t,
  ops,
  errors: 0,
  p50Us: p99Us / 2,
  p99Us,
  maxUs: p99Us,
  ...(partialMs !== undefined ? { partialMs } : {}),
});

describe('charts: the percentile chart’s latency axis', () => {
  it('is log when max/p50 is large (a real run: p50 0.25 ms, max 13 ms), linear when the curve is flat', () => {
    const m = buildViewModel(fixture('compare-a'));
    assert.ok(tailRatio(m.percentiles!.x, m.percentiles!.series) > 10);
    assert.equal(m.percentiles!.log, true);
    const x = [1, 2, 10, 100];
    assert.equal(tailRatio(x, [{ values: [0.1, 1, 1.5, 3] }]), 3);
    assert.equal(tailRatio(x, [{ values: [0.1, 1, 1.5, 3] }, { values: [0.1, 0.2, 1, 40] }]), 200);
    assert.equal(tailRatio(x, [{ values: [null, null, null, null] }]), 1, 'an empty histogram');
  });
});

describe('charts: the timeline', () => {
  it('cuts the latency axis at a high percentile of the buckets when a start-up spike towers over them, and names the spike', () => {
    const buckets = [second(0, 90_000), ...Array.from({ length: 19 }, (_, i) => second(i + 1, 1000 + 10 * i))];
    const t = timelineSeries([{ label: 'SET', offset: 0, timeline: buckets }])!;
    assert.ok(t.latencyAxisMaxMs! < 2, `axis top ${t.latencyAxisMaxMs} ms, not the 90 ms spike`);
    assert.ok(t.latencyAxisMaxMs! >= Math.max(...t.p99Ms.slice(1).map(Number)), 'every other bucket fits');
    assert.deepEqual(t.latencyOutliers, [{ x: 1, ms: 90 }]);
  });

  it('fits every point when none stands out, or when there are too few buckets to tell', () => {
    const even = Array.from({ length: 20 }, (_, i) => second(i, 1000 + 50 * (i % 3)));
    assert.equal(timelineSeries([{ label: 'SET', offset: 0, timeline: even }])!.latencyAxisMaxMs, undefined);
    assert.equal(latencyClip([1, 2, 3], [1, 1, 50]), undefined);
  });

  it('does not draw the last 10–30 ms of a 100 ms grid (a sliver reads as a spike), nor a stub of a second; keeps a full last bucket', () => {
    const fine = [0, 0.1, 0.2, 0.3].map((t) => second(t, 500, 100)).concat(second(0.4, 500, 20, 9000));
    assert.equal(drawnBuckets(fine).length, 4);
    const t = timelineSeries([{ label: 'GET', offset: 0, timeline: fine }])!;
    assert.ok(!t.ops.includes(9000), 'the sliver is not drawn');
    const seconds = [second(0, 500), second(1, 500), second(2, 500, 300)];
    assert.equal(drawnBuckets(seconds).length, 2);
    const whole = [second(0, 500), second(1, 500), second(2, 500, 700)];
    assert.equal(drawnBuckets(whole).length, 3, 'a last second of 700 ms is most of a bucket');
    assert.equal(drawnBuckets([second(0, 500, 20)]).length, 1, 'a load of one bucket keeps it');
  });

  it('a real short run’s last partial bucket is left out', () => {
    const run = fixture('finished');
    const load = run.points[0].repeats[0][0];
    const last = load.timeline[load.timeline.length - 1];
    assert.ok(last.partialMs !== undefined && last.partialMs < 500, 'the fixture ends with a sliver');
    assert.equal(drawnBuckets(load.timeline).length, load.timeline.length - 1);
  });
});

describe('charts: the server chart of a short run', () => {
  it('is no chart for one sample (one dot on a 0–0.008 s axis) but a sentence with the sample', () => {
    const run = fixture('oom');
    assert.equal(run.server.samples.length, 1);
    const m = buildViewModel(run);
    assert.equal(m.server, undefined);
    assert.match(m.serverNote!, /^Server: one sample \(the run was shorter than the 1 s sampling period\): used_memory [\d.]+ MiB, \d+ connected clients?\.$/);
    assert.equal(serverSeries(run.server.samples), undefined);
    assert.equal(serverNote([]), undefined);
  });
});

describe('status colours: WCAG AA contrast', () => {
  const white = parseColour('#ffffff')!;
  const dark = parseColour('#1f1f1f')!;

  it('measures contrast as WCAG 2 does', () => {
    assert.equal(contrastRatio(parseColour('#000')!, white).toFixed(1), '21.0');
    assert.equal(contrastRatio(white, white), 1);
    // VS Code's "passed" green on white: the "about 2:1".
    assert.ok(contrastRatio(parseColour('#73c991')!, white) < 2.2);
    assert.deepEqual(parseColour('rgba(10, 20, 30, 0.5)'), { r: 10, g: 20, b: 30, a: 0.5 });
    assert.deepEqual(parseColour('#0a141e80'), { r: 10, g: 20, b: 30, a: 128 / 255 });
    assert.equal(parseColour('green'), undefined);
  });

  it('darkens a light colour on white and lightens a dark one on a dark background just to 4.5:1, keeping one that is readable', () => {
    for (const [colour, background] of [
      ['#73c991', white],
      ['#f14c4c', white],
      ['#cca700', white],
      ['#3794ff', white],
      ['#388a34', dark],
      ['#e51400', dark],
      ['#cccccc80', dark],
    ] as const) {
      const readable = readableOn(parseColour(colour)!, background);
      const ratio = contrastRatio(readable, background);
      assert.ok(ratio >= AA_CONTRAST && ratio < AA_CONTRAST + 1.5, `${colour}: ${ratio.toFixed(2)}`);
    }
    assert.deepEqual(readableOn(parseColour('#000000')!, white), { r: 0, g: 0, b: 0, a: 1 });
  });
});

describe('a failed attempt that measured nothing (issue 22)', () => {
  const refused = (error: string, status: RunFile['status'] = 'failed'): RunFile => {
    const run = structuredClone(fixture('compare-a'));
    run.status = status;
    run.error = error;
    run.points = run.points.map((p) => ({ ...p, repeats: [], summary: [] }));
    return run;
  };

  it('has no table to show but the failure and what to do about it', () => {
    const m = buildViewModel(refused('connect ECONNREFUSED 127.0.0.1:6390'));
    assert.equal(m.nothingMeasured?.headline, 'Nothing was measured: the run failed before its first test ended.');
    assert.match(m.nothingMeasured!.advice, /RBench: Test Connection/);
    assert.match(buildViewModel(refused('NOAUTH Authentication required.')).nothingMeasured!.advice, /RBench: Set Password/);
    assert.match(buildViewModel(refused('something odd')).nothingMeasured!.advice, /output channel/);
    assert.match(buildViewModel(refused('', 'cancelled')).nothingMeasured!.headline, /was cancelled/);
  });

  it('is not said of a run that measured something, failed or not', () => {
    assert.equal(buildViewModel(fixture('compare-a')).nothingMeasured, undefined);
    const partial = { ...structuredClone(fixture('compare-a')), status: 'failed' as const, error: 'connection reset' };
    assert.equal(buildViewModel(partial).nothingMeasured, undefined);
  });
});
