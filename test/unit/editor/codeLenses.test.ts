import assert from 'node:assert/strict';
import { codeLensesFor } from '../../../src/editor/codeLenses';
import type { RunEntry } from '../../../src/editor/runsIndex';
import { parseDocument } from '../../../src/scenario';

const THREE_SCENARIOS = [
  'clients 4', // 0: file-level line
  '', // 1
  '### writes', // 2
  'SET k v', // 3
  '', // 4
  '### reads', // 5
  'GET k', // 6
  '### pings', // 7
  'PING', // 8
].join('\n');

const NOW = Date.parse('2026-11-29T12:02:30.000Z');

function entry(scenario: string, headline: string, finishedAt = '2026-11-29T12:00:00.000Z'): RunEntry {
  return {
    path: `/runs/${scenario}.rbench-run.json`,
    id: scenario,
    file: 'bench.rbench',
    scenario,
    status: 'complete',
    verdict: 'passed',
    verdictText: '',
    finishedAt,
    headline,
  };
}

describe('editor: CodeLens placement', () => {
  const { scenarios } = parseDocument(THREE_SCENARIOS);

  it('shows "Running…" (a click cancels) in place of "▶ Run" on the scenario that is running', () => {
    const lenses = codeLensesFor(scenarios, () => undefined, { enabled: true, now: NOW, running: (index) => index === 1 });
    assert.deepEqual(
      lenses.filter((lens) => lens.kind === 'run' || lens.kind === 'running').map((lens) => [lens.line, lens.kind, lens.title]),
      [
        [2, 'run', '▶ Run'],
        [5, 'running', '$(sync~spin) Running… (click to cancel)'],
        [7, 'run', '▶ Run'],
      ],
    );
  });

  it('puts a Run lens on each scenario header line, and Run all only on the first', () => {
    const lenses = codeLensesFor(scenarios, () => undefined, { enabled: true, now: NOW });
    assert.deepEqual(
      lenses.map((lens) => [lens.line, lens.kind, lens.title]),
      [
        [2, 'run', '▶ Run'],
        [2, 'runAll', 'Run all'],
        [5, 'run', '▶ Run'],
        [7, 'run', '▶ Run'],
      ],
    );
    assert.deepEqual(
      lenses.flatMap((lens) => (lens.kind === 'run' ? [lens.scenarioIndex] : [])),
      [0, 1, 2],
    );
  });

  it('adds the newest run summary only to scenarios that have a run', () => {
    const runs = new Map([['reads', entry('reads', '412k ops/s · p99 1.90 ms')]]);
    const lenses = codeLensesFor(scenarios, (name) => runs.get(name), { enabled: true, now: NOW });
    const summaries = lenses.filter((lens) => lens.kind === 'lastRun');
    assert.equal(summaries.length, 1);
    assert.deepEqual(summaries[0], {
      kind: 'lastRun',
      line: 5,
      title: '412k ops/s · p99 1.90 ms · 2 min ago',
      tooltip: 'Open the last run: /runs/reads.rbench-run.json',
      runPath: '/runs/reads.rbench-run.json',
    });
  });

  it('shows nothing when the setting turns lenses off', () => {
    assert.deepEqual(
      codeLensesFor(scenarios, (name) => entry(name, 'x'), { enabled: false, now: NOW }),
      [],
    );
  });

  it('has no Run all for a file with a single scenario, which has no header line', () => {
    const single = parseDocument('clients 2\nGET k\n').scenarios;
    const lenses = codeLensesFor(single, () => undefined, { enabled: true, now: NOW });
    assert.deepEqual(
      lenses.map((lens) => [lens.line, lens.kind]),
      [[0, 'run']],
    );
  });
});
