import assert from 'node:assert/strict';
import { codeLensesFor } from '../../../src/editor/codeLenses';
import type { RunEntry } from '../../../src/editor/runsIndex';
import { parseDocument } from '../../../src/scenario';

const TEXT = ['### writes', 'SET k v', '### reads', 'GET k'].join('\n');
const NOW = Date.parse('2026-11-30T12:00:00.000Z');

function entry(id: string, scenario: string): RunEntry {
  return {
    path: `/runs/${id}.rbench-run.json`,
    id,
    file: 'bench.rbench',
    scenario,
    status: 'complete',
    verdict: 'passed',
    verdictText: '',
    finishedAt: '2026-11-30T11:59:00.000Z',
    headline: `${id}`,
  };
}

describe('history: compare CodeLenses', () => {
  const { scenarios } = parseDocument(TEXT);
  const runs: Record<string, RunEntry[]> = { writes: [entry('w2', 'writes'), entry('w1', 'writes')], reads: [entry('r1', 'reads')] };

  it('offers "Compare with last" once a scenario has two runs, newest against the one before', () => {
    const lenses = codeLensesFor(scenarios, (s) => runs[s]?.[0], { enabled: true, now: NOW, previousRunOf: (s) => runs[s]?.[1] });
    const compare = lenses.filter((l) => l.kind === 'compare');
    assert.deepEqual(
      compare.map((l) => [l.line, l.title, l.kind === 'compare' && l.runPaths]),
      [[0, 'Compare with last', ['/runs/w1.rbench-run.json', '/runs/w2.rbench-run.json']]],
    );
  });

  it('offers "Compare with baseline" where one is pinned, unless the newest run is the baseline', () => {
    const baselines: Record<string, string> = { writes: '/runs/w1.rbench-run.json', reads: '/runs/r1.rbench-run.json' };
    const lenses = codeLensesFor(scenarios, (s) => runs[s]?.[0], { enabled: true, now: NOW, baselineOf: (s) => baselines[s] });
    assert.deepEqual(
      lenses.filter((l) => l.kind === 'compare').map((l) => [l.line, l.title, l.kind === 'compare' && l.runPaths]),
      [[0, 'Compare with baseline', ['/runs/w1.rbench-run.json', '/runs/w2.rbench-run.json']]],
    );
  });

  it('shows no compare lens without runs', () => {
    const lenses = codeLensesFor(scenarios, () => undefined, {
      enabled: true,
      now: NOW,
      previousRunOf: () => entry('x', 'writes'),
      baselineOf: () => '/runs/x.rbench-run.json',
    });
    assert.deepEqual(
      lenses.filter((l) => l.kind === 'compare'),
      [],
    );
  });
});
