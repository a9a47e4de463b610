// A run saved through RunSession (the path of every `rbench run` and every editor run) is bounded as
// docs/run-file.md promises and reads back (issue 19: the one run-file writer). The caps (one hour of
// timeline and of INFO samples) are too long to reach in a test, so the run is saved with lowered ones
// through the same setting, and the default is checked against the documented figures.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useRedisServer } from '../../helpers/redis';
import { runScenarios } from '../../helpers/session';
import { RunSession, type SessionPorts } from '../../../src/runner/session';
import { readRunFile, type RunFile } from '../../../src/results/runFile';
import { RUN_FILE_LIMITS } from '../../../src/results/runFileBounds';
import { repoRoot } from '../scenario/helpers';

type StoredLoad = RunFile['points'][number]['repeats'][number][number] & { timelineDownsampled?: { entriesPerPoint: number; originalPoints: number } };
type StoredServer = RunFile['server'] & { samplesThinned?: { keptEvery: number; originalSamples: number } };

const ports: SessionPorts = { confirm: async () => true, secret: async () => undefined, log: () => undefined };

describe('a run saved through RunSession', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  let runs: string;
  beforeEach(() => (runs = mkdtempSync(join(tmpdir(), 'rbench-session-save-'))));
  afterEach(() => rmSync(runs, { recursive: true, force: true }));

  it('keeps at most the caps of timeline entries and INFO samples, says so, and reads back', async () => {
    // 3 s of load: about 30 timeline entries of 100 ms and 3 INFO samples, past caps of 8 and 2.
    const session = new RunSession(
      { env: {}, trusted: true, runsFolder: runs, userTarget: { value: server().url, override: true }, runFileLimits: { timelinePoints: 8, serverSamples: 2 } },
      ports,
    );
    const [outcome] = await runScenarios(session, '### long\nduration 3s\nclients 2\nSET k v\n');
    assert.equal(outcome.kind, 'finished', outcome.kind === 'not-run' ? outcome.message : '');
    if (outcome.kind !== 'finished') return;
    assert.ok(outcome.path, outcome.saveError);
    assert.deepEqual(readdirSync(runs), [outcome.path.slice(runs.length + 1)]);

    const measured = outcome.run.points[0].repeats[0][0];
    assert.ok(measured.timeline.length > 8, `the run measured ${measured.timeline.length} timeline entries`);
    const stored = readRunFile(outcome.path);
    const load = stored.points[0].repeats[0][0] as StoredLoad;
    assert.ok(load.timeline.length <= 8, `${load.timeline.length} entries stored`);
    assert.deepEqual({ ...load.timelineDownsampled }, { entriesPerPoint: Math.ceil(measured.timeline.length / 8), originalPoints: measured.timeline.length });

    const taken = outcome.run.server.samples.length;
    assert.ok(taken > 2, `the run took ${taken} INFO samples`);
    const samples = stored.server as StoredServer;
    assert.deepEqual({ ...samples.samplesThinned }, { keptEvery: Math.ceil(taken / 2), originalSamples: taken });
    assert.ok(samples.samples.length < taken);
  });

  it('is bounded by default with the caps docs/run-file.md states (3600 timeline entries, one hour of INFO samples)', async () => {
    assert.deepEqual(RUN_FILE_LIMITS, { timelinePoints: 3600, serverSamples: 3600 });
    const doc = readFileSync(join(repoRoot(), 'docs', 'run-file.md'), 'utf8');
    assert.match(doc, /A load's `timeline` keeps at most 3600 entries/);
    assert.match(doc, /`server.samples` keeps at most 3600 INFO samples/);

    // A short run under the default caps is stored whole.
    const session = new RunSession({ env: {}, trusted: true, runsFolder: runs, userTarget: { value: server().url, override: true } }, ports);
    const [outcome] = await runScenarios(session, '### short\nduration 1s\nclients 1\nSET k v\n');
    assert.ok(outcome.kind === 'finished' && outcome.path, JSON.stringify(outcome.kind === 'not-run' ? outcome.message : ''));
    const load = readRunFile(outcome.path).points[0].repeats[0][0] as StoredLoad;
    assert.equal(load.timelineDownsampled, undefined);
    assert.equal(load.timeline.length, outcome.run.points[0].repeats[0][0].timeline.length);
  });
});
