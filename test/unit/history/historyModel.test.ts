import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinBaseline, readBaselines } from '../../../src/results/baselines';
import { readFileSync } from 'node:fs';
import { groupRuns, measuredNothing, NO_FILE_LABEL, oldestFirst, scenarioRuns } from '../../../src/editor/historyModel';
import { runEntry, type RunEntry } from '../../../src/editor/runsIndex';
import type { RunFile } from '../../../src/results/runFile';
import { repoRoot } from '../scenario/helpers';

// Real CLI runs of test/browser/fixtures/compare.rbench: 10 clients, then 50.
const fixture = (name: string) => JSON.parse(readFileSync(join(repoRoot(), 'test', 'browser', 'fixtures', `${name}.rbench-run.json`), 'utf8')) as RunFile;

const ROOT = '/srv/project';
const NOW = Date.parse('2026-11-30T12:00:00.000Z');

function entry(id: string, scenario: string, file: string | undefined, overrides: Partial<RunEntry> = {}): RunEntry {
  return {
    path: `${ROOT}/.rbench/runs/${id}.rbench-run.json`,
    id,
    file,
    scenario,
    status: 'complete',
    verdict: 'passed',
    verdictText: '',
    finishedAt: '2026-11-30T11:58:00.000Z',
    headline: `${id} headline`,
    ...overrides,
  };
}

const ENTRIES = [
  entry('20261130-100000-000-writes', 'writes', 'bench/cache.rbench'),
  entry('20261130-110000-000-writes', 'writes', './bench/cache.rbench'),
  entry('20261130-090000-000-reads', 'reads', 'bench\\cache.rbench', {
    status: 'failed',
    verdict: 'error',
    verdictText: 'run failed',
    headline: 'failed: boom',
  }),
  entry('20261130-080000-000-ping', 'ping', 'a.rbench', {
    status: 'cancelled',
    verdict: 'cancelled',
    verdictText: 'cancelled',
    finishedAt: '2026-11-28T12:00:00.000Z',
  }),
  entry('20261130-070000-000-loose', 'loose', undefined),
];

describe('history: grouping runs for the Benchmark Runs view', () => {
  it('groups by scenario file then scenario (by name), runs newest first, whatever the recorded path style', () => {
    const groups = groupRuns(ENTRIES, { now: NOW });
    assert.deepEqual(
      groups.map((g) => [g.label, g.scenarios.map((s) => [s.name, s.runs.map((r) => r.entry.id)])]),
      [
        ['a.rbench', [['ping', ['20261130-080000-000-ping']]]],
        [
          'bench/cache.rbench',
          [
            ['reads', ['20261130-090000-000-reads']],
            ['writes', ['20261130-110000-000-writes', '20261130-100000-000-writes']],
          ],
        ],
        [NO_FILE_LABEL, [['loose', ['20261130-070000-000-loose']]]],
      ],
    );
  });

  it('labels each run with its headline, age and status icon, and a tooltip with the file', () => {
    const [ping] = groupRuns(ENTRIES, { now: NOW })[0].scenarios[0].runs;
    assert.equal(ping.label, '20261130-080000-000-ping headline');
    assert.equal(ping.description, '2 days ago · cancelled');
    assert.equal(ping.icon, 'cancelled');
    assert.match(
      ping.tooltip,
      /^ping — a\.rbench\n.*\ncancelled\ncancelled, finished 2026-11-28 12:00:00 UTC \(2 days ago\)\n\/srv\/project\/\.rbench\/runs\/20261130-080000-000-ping\.rbench-run\.json$/,
    );
    const reads = groupRuns(ENTRIES, { now: NOW })[1].scenarios[0].runs[0];
    assert.deepEqual([reads.label, reads.icon, reads.description], ['failed: boom', 'error', '2 min ago · run failed']);
  });

  it('marks the run pinned in baselines.json, and only that run of that scenario', () => {
    const root = mkdtempSync(join(tmpdir(), 'rbench-history-'));
    const entries = ENTRIES.map((e) => ({ ...e, path: e.path.replace(ROOT, root) }));
    pinBaseline(root, { scenarioFile: 'bench/cache.rbench', scenarioName: 'writes', runFile: entries[0].path });
    assert.deepEqual({ ...readBaselines(root) }, { 'bench/cache.rbench#writes': '.rbench/runs/20261130-100000-000-writes.rbench-run.json' });
    const groups = groupRuns(entries, { now: NOW, root, baselines: readBaselines(root) });
    const writes = groups[1].scenarios[1];
    assert.equal(writes.baselinePath, entries[0].path);
    assert.deepEqual(
      writes.runs.map((r) => [r.isBaseline, r.icon, r.description]),
      [
        [false, 'passed', '2 min ago'],
        [true, 'baseline', '2 min ago · baseline'],
      ],
    );
    assert.match(writes.runs[1].tooltip, /Pinned as this scenario’s baseline/);
    assert.equal(groups[1].scenarios[0].baselinePath, undefined, 'the other scenario of the file has none');
    assert.ok(
      groups
        .flatMap((g) => g.scenarios)
        .flatMap((s) => s.runs)
        .filter((r) => r.isBaseline).length === 1,
    );
  });

  it('leads each row with the settings changed since the previous run and the figures by test, never "2 results · …" (issue 22)', () => {
    const a = runEntry(`${ROOT}/.rbench/runs/${fixture('compare-a').id}.rbench-run.json`, fixture('compare-a'));
    const b = runEntry(`${ROOT}/.rbench/runs/${fixture('compare-b').id}.rbench-run.json`, fixture('compare-b'));
    const [newer, older] = groupRuns([a, b], { now: NOW })[0].scenarios[0].runs;
    assert.equal(newer.entry, b);
    assert.match(newer.label, /^clients 50 · SET [\d.]+k · GET [\d.]+k ops\/s · p99 ≤ [\d.]+ ms$/);
    assert.match(older.label, /^SET [\d.]+k · GET [\d.]+k ops\/s · p99 ≤ [\d.]+ ms$/, 'the oldest run has no previous one');
    assert.ok(!newer.label.includes('results'), newer.label);
    // The age first (a narrow view cuts the end of a description), in full.
    assert.match(newer.description, /^\d+ (min|h|days?) ago$/);
    // Every setting in the tooltip, and what changed.
    assert.match(newer.tooltip, /^clients: 50$/m);
    assert.match(newer.tooltip, /^pipeline: 1$/m);
    assert.match(newer.tooltip, /^target: /m);
    assert.match(newer.tooltip, /^Changed since the previous run: clients 50$/m);
  });

  it('hides failed attempts that measured nothing behind the filter, counted, and compares a run with the previous one that measured something', () => {
    const a = runEntry(`${ROOT}/.rbench/runs/${fixture('compare-a').id}.rbench-run.json`, fixture('compare-a'));
    const refusedRun = { ...structuredClone(fixture('compare-b')), status: 'failed' as const, error: 'connect ECONNREFUSED 127.0.0.1:6390' };
    refusedRun.points = refusedRun.points.map((p) => ({ ...p, repeats: [], summary: [] }));
    refusedRun.id = '20261130-000400-000-set-and-get';
    const refused = runEntry(`${ROOT}/.rbench/runs/${refusedRun.id}.rbench-run.json`, refusedRun);
    assert.equal(refused.measured, false);
    const b = runEntry(`${ROOT}/.rbench/runs/${fixture('compare-b').id}.rbench-run.json`, { ...fixture('compare-b'), id: '20261130-000500-000-set-and-get' });
    const entries = [a, refused, { ...b, id: '20261130-000500-000-set-and-get' }];
    const hidden = groupRuns(entries, { now: NOW })[0].scenarios[0];
    assert.deepEqual(
      hidden.runs.map((r) => r.entry.status),
      ['complete', 'complete'],
    );
    assert.equal(hidden.hidden, 1);
    assert.match(hidden.runs[0].label, /^clients 50 · /, 'against the previous run that measured something');
    const shown = groupRuns(entries, { now: NOW, showUnmeasured: true })[0].scenarios[0];
    assert.equal(shown.hidden, 0);
    assert.equal(shown.runs.length, 3);
    assert.match(shown.runs[1].label, /^clients 50 · failed: connect ECONNREFUSED 127\.0\.0\.1:6390$/);
    assert.equal(measuredNothing(refused), true);
    assert.equal(measuredNothing(a), false);
  });

  it("finds a scenario's runs newest first, and orders a comparison oldest first", () => {
    assert.deepEqual(
      scenarioRuns(ENTRIES, 'bench/cache.rbench', 'writes').map((e) => e.id),
      ['20261130-110000-000-writes', '20261130-100000-000-writes'],
    );
    assert.deepEqual(scenarioRuns(ENTRIES, 'other.rbench', 'writes'), []);
    assert.deepEqual(
      oldestFirst(scenarioRuns(ENTRIES, 'bench/cache.rbench', 'writes')).map((e) => e.id),
      ['20261130-100000-000-writes', '20261130-110000-000-writes'],
    );
  });
});
