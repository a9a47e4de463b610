// Issue 45, seen 5: a comparison whose runs the client limited flagged every cell "not comparable" — the reference
// column too — while its header counted the same changes as better and worse, the reason only in a hover.
import assert from 'node:assert/strict';
import type { RunFile } from '../../../src/results/runFile';
import { compareRuns } from '../../../src/results/compare';
import { comparisonToText, countsSentence, notComparableChanges, statisticsLines, verdictCounts } from '../../../src/results/compareFormat';
import { buildCompareViewModel } from '../../../src/views/compareModel';
import { setGetRun } from './fixtures';

/** Every load of the run judged client-cpu: the client set the pace. */
function clientBound(run: RunFile): RunFile {
  for (const point of run.points)
    for (const repeat of point.repeats) for (const load of repeat) load.bottleneck = { kind: 'client-cpu', why: 'the client used its CPU to the full' };
  return run;
}

describe('compare: changes that are not comparable', () => {
  const a = clientBound(setGetRun({ set: { ops: 100_000, p99: 900 }, get: { ops: 120_000, p99: 800 } }));
  const b = clientBound(setGetRun({ set: { ops: 150_000, p99: 500 }, get: { ops: 60_000, p99: 1600 }, id: 'b' }));
  const comparison = compareRuns([a, b]);

  it('are counted apart, never as better or worse, and the sentence says how many', () => {
    const counts = verdictCounts(comparison);
    assert.equal(counts.better + counts.worse, 0, JSON.stringify(counts));
    const { changes, reasons } = notComparableChanges(comparison);
    assert.ok(changes >= 2, String(changes));
    assert.equal(reasons.length, 1);
    assert.match(countsSentence(comparison), new RegExp(`0 better, 0 worse, \\d+ within noise, ${changes} not comparable \\(neither better nor worse\\)`));
  });

  it('the reason is said once for the rows and runs it holds in, not a line per cell', () => {
    const lines = statisticsLines(comparison).filter((line) => line.startsWith('Not comparable'));
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(
      lines[0],
      /^Not comparable: \d+ rows of #1, #2: client CPU set the pace: the figures measure the client, not the setup; their changes count neither better nor worse\.$/,
    );
    assert.equal(
      comparisonToText(comparison)
        .split('\n')
        .filter((line: string) => line.trimStart().startsWith('Not comparable')).length,
      1,
    );
  });

  it('the panel flags changes only (the reference column has none) and says why in its header', () => {
    const model = buildCompareViewModel([a, b]);
    const reference = model.lines.map((line) => line.cells[0]).filter((cell) => cell.notComparable);
    assert.deepEqual(reference, [], 'no reference cell is flagged');
    assert.ok(
      model.lines.some((line) => line.cells[1]?.notComparable),
      'the changes are',
    );
    assert.deepEqual(model.notComparable, ['client CPU set the pace: the figures measure the client, not the setup']);
    assert.ok(model.summary.some((part) => /not comparable/.test(part.text)));
  });
});
