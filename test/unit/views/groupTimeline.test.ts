// Issue 43 (client groups) in the results panel's model: groups run at the same time, so the timeline draws a
// line per group on one x, named after the group, instead of one line through loads that overlap.
import assert from 'node:assert/strict';
import type { TimelineSecond } from '../../../src/engine/types';
import { buildViewModel, timelineSeries } from '../../../src/views/model';
import { groupsRun } from '../../browser/synthetic';

const second = (t: number, ops: number): TimelineSecond => ({ t, ops, errors: 0, p50Us: 100, p99Us: 200, maxUs: 300 });

describe('panel timeline: a line per client group', () => {
  it('two groups of a run draw two lines named by group, each with all its own buckets', () => {
    const run = groupsRun();
    const timeline = buildViewModel(run).timeline!;
    assert.deepEqual(
      timeline.groups?.map((line) => [line.name, line.background]),
      [
        ['readers', false],
        ['writers', true],
      ],
    );
    run.points[0].repeats[0].forEach((load, i) => {
      const drawn = timeline.groups![i].ops.filter((v) => typeof v === 'number');
      // Every bucket of the load is on its line (the last only when it is not a sliver: drawnBuckets).
      assert.ok(drawn.length >= load.timeline.length - 1 && drawn.length <= load.timeline.length, `${load.test}: ${drawn.length} of ${load.timeline.length}`);
    });
    assert.ok(
      timeline.ops.every((v) => v === undefined),
      'no load outside the groups: the plain line is empty',
    );
  });

  it("a group's repeats are one line with a gap between them; another group's buckets never break it", () => {
    const t = timelineSeries([
      { label: 'a #1', group: { name: 'a', background: false }, offset: 0, timeline: [second(0, 10), second(1, 11)] },
      { label: 'b #1', group: { name: 'b', background: true }, offset: 0.25, timeline: [second(0, 20), second(1, 21)] },
      { label: 'a #2', group: { name: 'a', background: false }, offset: 5, timeline: [second(0, 12), second(1, 13)] },
    ])!;
    const [a, b] = t.groups!;
    const at = (line: typeof a, x: number) => line.ops[t.x.indexOf(x)];
    assert.deepEqual([at(a, 1), at(a, 2), at(a, 6), at(a, 7)], [10, 11, 12, 13]);
    assert.deepEqual([at(b, 1.25), at(b, 2.25)], [20, 21]);
    assert.equal(at(a, 1.25), undefined, "a runs on across b's bucket");
    assert.equal(a.ops.filter((v) => v === null).length, 1, 'one gap, between its two loads');
    assert.ok(b.ops.every((v) => v !== null));
  });
});
