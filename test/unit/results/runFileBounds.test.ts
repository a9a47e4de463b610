import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TimelineSecond } from '../../../src/engine/types';
import { readRunFile, type RunFile } from '../../../src/results/runFile';
import { writeRunFile } from '../../../src/results/runFileWriter';
import { MAX_SERVER_SAMPLES, MAX_TIMELINE_POINTS } from '../../../src/results/runFileBounds';
import { repoRoot } from '../scenario/helpers';

const HOURS = 10;

/** The fixture run stretched to a 10-hour load: one timeline entry and one INFO sample per second. */
function longRun(): RunFile {
  const run = JSON.parse(readFileSync(join(repoRoot(), 'test', 'browser', 'fixtures', 'finished.rbench-run.json'), 'utf8')) as RunFile;
  const seconds = HOURS * 3600;
  const timeline: TimelineSecond[] = Array.from({ length: seconds }, (_, t) => ({
    t,
    ops: 100_000 + (t % 7) * 1000,
    errors: t === 12_345 ? 17 : 0,
    p50Us: 200,
    p99Us: t === 20_000 ? 90_000 : 900, // one bad second must survive the merge
    maxUs: t === 20_000 ? 250_000 : 2_000,
  }));
  for (const point of run.points) for (const loads of point.repeats) for (const load of loads) load.timeline = timeline;
  const sample = run.server.samples[0] ?? ({ t: 0 } as RunFile['server']['samples'][number]);
  run.server.samples = Array.from({ length: seconds }, (_, i) => ({ ...sample, t: i * 1000 }));
  return run;
}

describe('run files of long runs stay bounded', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rbench-bounds-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it(`a ${HOURS}-hour run keeps at most ${MAX_TIMELINE_POINTS} timeline points per load and says so`, () => {
    const run = longRun();
    const unbounded = JSON.stringify(run, null, 1).length;
    const path = writeRunFile(dir, run);
    const size = statSync(path).size;
    assert.ok(size < unbounded / 4, `${size} bytes written, ${unbounded} unbounded`);
    assert.ok(size < 4 * 1024 * 1024, `${size} bytes`);
    const stored = readRunFile(path); // still a valid run file
    const load = stored.points[0].repeats[0][0] as RunFile['points'][number]['repeats'][number][number] & {
      timelineDownsampled?: { entriesPerPoint: number; originalPoints: number };
    };
    assert.ok(load.timeline.length <= MAX_TIMELINE_POINTS);
    assert.deepEqual({ ...load.timelineDownsampled }, { entriesPerPoint: 10, originalPoints: HOURS * 3600 });
    // Nothing flattered: errors all kept, the worst second's p99 and max kept, the rate a true mean.
    assert.equal(
      load.timeline.reduce((sum, entry) => sum + entry.errors, 0),
      17,
    );
    assert.equal(Math.max(...load.timeline.map((entry) => entry.p99Us)), 90_000);
    assert.equal(Math.max(...load.timeline.map((entry) => entry.maxUs)), 250_000);
    const meanRate = load.timeline.reduce((sum, entry) => sum + entry.ops, 0) / load.timeline.length;
    assert.ok(Math.abs(meanRate - 103_000) < 100, `mean rate ${meanRate}`);
    assert.equal(load.timeline[1].t, 10);
    const server = stored.server as RunFile['server'] & { samplesThinned?: { keptEvery: number; originalSamples: number } };
    assert.ok(server.samples.length <= MAX_SERVER_SAMPLES + 1);
    assert.deepEqual({ ...server.samplesThinned }, { keptEvery: 10, originalSamples: HOURS * 3600 });
    assert.equal(server.samples[server.samples.length - 1].t, (HOURS * 3600 - 1) * 1000, 'the last sample is kept');
  });

  it('a short run is written unchanged', () => {
    const run = JSON.parse(readFileSync(join(repoRoot(), 'test', 'browser', 'fixtures', 'finished.rbench-run.json'), 'utf8')) as RunFile;
    const path = writeRunFile(dir, run);
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), run);
  });
});
