import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newestRun, recordedScenarioFile, resolveRunsFolder, RunsIndex, type RunEntry } from '../../../src/editor/runsIndex';
import { writeRunFile } from '../../../src/results/runFileWriter';
import { loadResult, planOf, runFileOf } from './fixtures';

function entry(id: string, file: string | undefined, scenario: string): RunEntry {
  return {
    path: `/runs/${id}.rbench-run.json`,
    id,
    file,
    scenario,
    status: 'complete',
    verdict: 'passed',
    verdictText: '',
    finishedAt: '2026-11-29T12:00:00.000Z',
    headline: id,
  };
}

describe('editor: runs index lookup', () => {
  const entries = [
    entry('20261129-100000-000-writes', 'bench/a.rbench', 'writes'),
    entry('20261129-120000-000-writes', 'bench/a.rbench', 'writes'),
    entry('20261129-110000-000-writes', 'bench/a.rbench', 'writes'),
    entry('20261129-130000-000-writes', 'bench/b.rbench', 'writes'),
    entry('20261129-140000-000-reads', 'bench/a.rbench', 'reads'),
    entry('20261129-150000-000-writes', undefined, 'writes'),
  ];

  it('finds the newest run of a scenario in a file, by name', () => {
    assert.equal(newestRun(entries, 'bench/a.rbench', 'writes')?.id, '20261129-120000-000-writes');
    assert.equal(newestRun(entries, 'bench/b.rbench', 'writes')?.id, '20261129-130000-000-writes');
    assert.equal(newestRun(entries, 'bench/a.rbench', 'reads')?.id, '20261129-140000-000-reads');
  });

  it('finds nothing for a scenario or file without runs', () => {
    assert.equal(newestRun(entries, 'bench/a.rbench', 'deletes'), undefined);
    assert.equal(newestRun(entries, 'bench/c.rbench', 'writes'), undefined);
  });

  it('matches files recorded with Windows separators or ./', () => {
    const windows = [entry('20261129-100000-000-writes', 'bench\\a.rbench', 'writes')];
    assert.equal(newestRun(windows, 'bench/a.rbench', 'writes')?.id, '20261129-100000-000-writes');
    assert.equal(newestRun([entry('x', './bench/a.rbench', 'writes')], 'bench/a.rbench', 'writes')?.id, 'x');
  });

  it('records scenario files relative to the workspace, or absolute outside it', () => {
    assert.equal(recordedScenarioFile('/srv/ws/bench/a.rbench', '/srv/ws'), 'bench/a.rbench');
    assert.equal(recordedScenarioFile('/elsewhere/a.rbench', '/srv/ws'), '/elsewhere/a.rbench');
    assert.equal(recordedScenarioFile('/elsewhere/a.rbench', undefined), '/elsewhere/a.rbench');
  });

  it('resolves the runs folder setting', () => {
    assert.equal(resolveRunsFolder(undefined, '/srv/ws', '/srv/ws/bench'), '/srv/ws/.rbench/runs');
    assert.equal(resolveRunsFolder('results', '/srv/ws', '/srv/ws/bench'), '/srv/ws/results');
    assert.equal(resolveRunsFolder('/var/runs', '/srv/ws', '/srv/ws/bench'), '/var/runs');
    assert.equal(resolveRunsFolder('', undefined, '/srv/bench'), '/srv/bench/.rbench/runs');
  });
});

describe('editor: runs index on disk', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'rbench-runs-index-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('reads run files once, skips other files, and sees new runs', async () => {
    const plan = planOf('### writes\nSET k v\n');
    const older = writeRunFile(folder, runFileOf(plan, [loadResult('SET', 100_000, 900)], { file: 'a.rbench', finishedAt: '2026-11-29T10:00:00.000Z' }));
    writeFileSync(join(folder, 'broken.rbench-run.json'), '{not json');
    writeFileSync(join(folder, 'notes.txt'), 'not a run');
    const index = new RunsIndex();
    const first = await index.entries(folder);
    assert.deepEqual(
      first.map((e) => [e.path, e.scenario, e.file, e.headline]),
      [[older, 'writes', 'a.rbench', '100k ops/s · p99 900 µs']],
    );

    const newer = writeRunFile(folder, runFileOf(plan, [loadResult('SET', 250_000, 1200)], { file: 'a.rbench', finishedAt: '2026-11-29T11:00:00.000Z' }));
    const second = await index.entries(folder);
    assert.equal(newestRun(second, 'a.rbench', 'writes')?.path, newer);
    assert.equal(newestRun(second, 'a.rbench', 'writes')?.headline, '250k ops/s · p99 1.20 ms');
  });

  it('has no runs for a folder that does not exist yet', async () => {
    assert.deepEqual(await new RunsIndex().entries(join(folder, 'missing')), []);
  });
});
