// The one run-file writer: every path that writes a run file (a run through RunSession's saveRun, a merge,
// `--json`) bounds what a long run or a hostile server puts in it (issue 18, seen 9; issue 19).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TimelineSecond } from '../../../src/engine/types';
import { saveRun, writeRunFileAt, writeRunListAt } from '../../../src/results/runFileWriter';
import { readRunFile, readRunFileJson, type RunFile } from '../../../src/results/runFile';
import {
  boundCommand,
  boundRunFile,
  boundSample,
  boundServerFacts,
  capCounts,
  capText,
  MAX_CONFIG_ENTRIES,
  MAX_ERROR_KINDS,
  MAX_KIND_NAME,
  MAX_SERVER_TEXT,
  MAX_TIMELINE_POINTS,
} from '../../../src/results/runFileBounds';
import { repoRoot } from '../scenario/helpers';

const MB = 1024 * 1024;

function fixture(): RunFile {
  return JSON.parse(readFileSync(join(repoRoot(), 'test', 'browser', 'fixtures', 'finished.rbench-run.json'), 'utf8')) as RunFile;
}

/** What a hostile server makes of a run: a 30 MB `os:` field and 300k errorstats in every INFO sample. */
function hostileServerRun(): RunFile {
  const run = fixture();
  run.target.server = { ...run.target.server!, os: 'L'.repeat(30 * MB) };
  const errorstats: Record<string, number> = {};
  for (let i = 0; i < 300_000; i++) errorstats[`ERR${i}`] = i % 1000;
  errorstats.OOM = 5_000_000;
  run.server.samples = run.server.samples.slice(0, 2).map((sample) => ({ ...sample, errorstats }));
  run.server.before = { ...run.server.before!, errorstats };
  return run;
}

/** A run whose one load has `seconds` timeline entries (a 10-hour load: 36,000). */
function longRun(seconds: number): RunFile {
  const run = fixture();
  const timeline: TimelineSecond[] = Array.from({ length: seconds }, (_, t) => ({ t, ops: 1000, errors: 0, p50Us: 100, p99Us: 200, maxUs: 300 }));
  run.points[0].repeats[0][0].timeline = timeline;
  return run;
}

describe('the one run-file writer', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rbench-writer-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a run saved the way RunSession saves it (saveRun) has its timeline bounded and reads back', () => {
    const saved = saveRun(join(dir, 'runs'), longRun(10 * MAX_TIMELINE_POINTS));
    assert.ok('path' in saved, JSON.stringify(saved));
    const load = readRunFile(saved.path).points[0].repeats[0][0] as RunFile['points'][number]['repeats'][number][number] & { timelineDownsampled?: unknown };
    assert.ok(load.timeline.length <= MAX_TIMELINE_POINTS, `${load.timeline.length} entries`);
    assert.deepEqual({ ...(load.timelineDownsampled as object) }, { entriesPerPoint: 10, originalPoints: 10 * MAX_TIMELINE_POINTS });
  });

  it('a hostile server (30 MB os field, 300k errorstats) gives a file well under the 64 MB read cap, on every write path', () => {
    const run = hostileServerRun();
    const saved = saveRun(join(dir, 'runs'), run);
    assert.ok('path' in saved, JSON.stringify(saved));
    const paths = [saved.path, writeRunFileAt(join(dir, 'out.json'), run)];
    for (const path of paths) {
      assert.ok(statSync(path).size < 2 * MB, `${path}: ${statSync(path).size} bytes`);
      const stored = readRunFile(path);
      assert.match(stored.target.server!.os!, /^L{1024}… \(31456256 more characters\)$/);
      const sample = stored.server.samples[0] as RunFile['server']['samples'][number] & { errorstatsOmitted?: number };
      assert.equal(Object.keys(sample.errorstats).length, MAX_ERROR_KINDS);
      assert.equal(sample.errorstats.OOM, 5_000_000, 'the largest counts are kept');
      assert.equal(sample.errorstatsOmitted, 300_001 - MAX_ERROR_KINDS);
      assert.equal(Object.keys(stored.server.before!.errorstats).length, MAX_ERROR_KINDS);
    }
    const list = writeRunListAt(join(dir, 'runs.json'), [run]);
    assert.ok(statSync(list).size < 4 * MB, `${statSync(list).size} bytes`);
    assert.equal((readRunFileJson(list) as RunFile[]).length, 1);
  });

  it('saveRun names the cause and the fix: a folder outside its root, a link, a system error', () => {
    const outside = saveRun(join(tmpdir(), 'elsewhere'), fixture(), { root: dir });
    assert.ok('saveError' in outside);
    assert.match(
      outside.saveError,
      /^the run file could not be saved in .*elsewhere: .*elsewhere\/.*: outside .* — replace the link with a real folder, or choose a runs folder yourself \(--out, or rbench\.runsFolder in your user settings\)$/,
    );
    writeFileSync(join(dir, 'blocker'), '');
    const blocked = saveRun(join(dir, 'blocker', 'runs'), fixture(), { root: dir });
    assert.ok('saveError' in blocked);
    assert.match(
      blocked.saveError,
      /blocker: not a folder \(it is a file\) — move it away or choose another folder — pick a writable runs folder \(--out, or the setting rbench\.runsFolder\)$/,
    );
    const system = saveRun(join(dir, 'blocker', 'runs'), fixture());
    assert.ok('saveError' in system);
    assert.match(system.saveError, /blocker\/runs: a file stands where a folder is needed \(ENOTDIR\) — pick a writable runs folder/);
  });

  it('a short, ordinary run is written unchanged', () => {
    const run = fixture();
    assert.equal(boundRunFile(run), run);
    const saved = saveRun(join(dir, 'runs'), run);
    assert.ok('path' in saved);
    assert.deepEqual(JSON.parse(readFileSync(saved.path, 'utf8')), run);
  });
});

describe('run-file bounds', () => {
  it('capText keeps texts up to the cap and says how much it cut', () => {
    assert.equal(capText('abc', 3), 'abc');
    assert.equal(capText('abcd', 3), 'abc… (1 more characters)');
    assert.equal(capText('', 0), '');
  });

  it('capCounts keeps the largest kinds, cuts long names (which add up) and counts what it dropped', () => {
    const few = { ERR: 1, OOM: 2 };
    assert.deepEqual(capCounts(few), { counts: few, omitted: 0, changed: false });
    assert.equal(capCounts(few).counts, few, 'unchanged: the same object');
    const many: Record<string, number> = {};
    for (let i = 0; i < MAX_ERROR_KINDS + 3; i++) many[`K${i}`] = i;
    const capped = capCounts(many);
    assert.equal(capped.changed, true);
    assert.equal(capped.omitted, 3);
    assert.deepEqual(Object.keys(capped.counts), Object.keys(many).slice(3), 'the three smallest dropped, order kept');
    const exactly: Record<string, number> = {};
    for (let i = 0; i < MAX_ERROR_KINDS; i++) exactly[`K${i}`] = i;
    assert.equal(capCounts(exactly).changed, false);
    const long = capCounts({ ['A'.repeat(MAX_KIND_NAME) + 'x']: 1, ['A'.repeat(MAX_KIND_NAME) + 'y']: 2, ['B'.repeat(MAX_KIND_NAME)]: 4 });
    assert.equal(long.changed, true);
    assert.equal(long.omitted, 0);
    assert.deepEqual(long.counts, { [`${'A'.repeat(MAX_KIND_NAME)}… (1 more characters)`]: 3, ['B'.repeat(MAX_KIND_NAME)]: 4 });
    const proto = capCounts(JSON.parse('{"__proto__": 3}') as Record<string, number>);
    assert.equal(proto.changed, false);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('boundSample cuts status texts and errorstats, marking what it dropped; an ordinary sample is kept as is', () => {
    const sample = fixture().server.samples[0];
    assert.equal(boundSample(sample), sample);
    const noisy = { ...sample, rdbLastBgsaveStatus: 'e'.repeat(MAX_KIND_NAME + 1), aofLastBgrewriteStatus: 'ok' };
    const bounded = boundSample(noisy) as typeof sample & { errorstatsOmitted?: number };
    assert.equal(bounded.rdbLastBgsaveStatus, `${'e'.repeat(MAX_KIND_NAME)}… (1 more characters)`);
    assert.equal(bounded.aofLastBgrewriteStatus, 'ok');
    assert.equal('errorstatsOmitted' in bounded, false);
    const aof = boundSample({ ...sample, aofLastBgrewriteStatus: 'f'.repeat(MAX_KIND_NAME + 2) });
    assert.match(aof.aofLastBgrewriteStatus, /… \(2 more characters\)$/);
    const errorstats: Record<string, number> = {};
    for (let i = 0; i <= MAX_ERROR_KINDS; i++) errorstats[`E${i}`] = i + 1;
    const many = boundSample({ ...sample, errorstats }) as typeof sample & { errorstatsOmitted?: number };
    assert.equal(many.errorstatsOmitted, 1);
    assert.equal(many.errorstats.E0, undefined);
  });

  it('boundServerFacts cuts version, mode, os and CONFIG (keys, values, entries)', () => {
    const facts = fixture().target.server!;
    assert.equal(boundServerFacts(facts), facts);
    const config: Record<string, string> = {};
    for (let i = 0; i < MAX_CONFIG_ENTRIES + 5; i++) config[`k${i}`] = 'v';
    config['k0'] = 'v'.repeat(MAX_SERVER_TEXT + 1);
    const bounded = boundServerFacts({
      ...facts,
      version: 'v'.repeat(MAX_SERVER_TEXT + 1),
      mode: 'm'.repeat(MAX_SERVER_TEXT + 2),
      os: 'o'.repeat(MAX_SERVER_TEXT + 3),
      config: { ...config, ['K'.repeat(MAX_KIND_NAME + 1)]: 'x' },
    });
    assert.match(bounded.version, /… \(1 more characters\)$/);
    assert.match(bounded.mode, /… \(2 more characters\)$/);
    assert.match(bounded.os!, /… \(3 more characters\)$/);
    assert.equal(Object.keys(bounded.config).length, MAX_CONFIG_ENTRIES);
    assert.match(bounded.config.k0, /… \(1 more characters\)$/);
    const longKey = boundServerFacts({ ...facts, config: { ['K'.repeat(MAX_KIND_NAME + 1)]: 'x' } });
    assert.deepEqual(Object.keys(longKey.config), [`${'K'.repeat(MAX_KIND_NAME)}… (1 more characters)`]);
    const withoutOs = { ...facts };
    delete withoutOs.os;
    assert.equal('os' in boundServerFacts({ ...withoutOs, version: 'v'.repeat(MAX_SERVER_TEXT + 1) }), false);
  });

  it('boundCommand caps error kinds and their example texts (server replies)', () => {
    const command = fixture().points[0].repeats[0][0].total;
    assert.equal(boundCommand(command), command);
    const errorsByKind: Record<string, number> = {};
    const errorExamples: Record<string, string> = {};
    for (let i = 0; i <= MAX_ERROR_KINDS; i++) {
      errorsByKind[`E${i}`] = i + 1;
      errorExamples[`E${i}`] = `E${i} text`;
    }
    const bounded = boundCommand({ ...command, errorsByKind, errorExamples }) as typeof command & { errorKindsOmitted?: number };
    assert.equal(bounded.errorKindsOmitted, 1);
    assert.equal(bounded.errorsByKind.E0, undefined);
    assert.equal(bounded.errorExamples.E0, undefined, 'no example for a dropped kind');
    assert.equal(bounded.errorExamples.E1, 'E1 text');
    const longText = boundCommand({ ...command, errorsByKind: { ERR: 1 }, errorExamples: { ERR: 'x'.repeat(MAX_SERVER_TEXT + 1) } }) as typeof command & {
      errorKindsOmitted?: number;
    };
    assert.match(longText.errorExamples.ERR, /… \(1 more characters\)$/);
    assert.equal('errorKindsOmitted' in longText, false);
    const longKind = 'K'.repeat(MAX_KIND_NAME + 1);
    const cut = boundCommand({ ...command, errorsByKind: { [longKind]: 1 }, errorExamples: { [longKind]: 'why' } });
    assert.deepEqual(cut.errorExamples, { [`${'K'.repeat(MAX_KIND_NAME)}… (1 more characters)`]: 'why' });
  });

  it('boundRunFile reaches every command, cluster node, load text and the server error', () => {
    const run = fixture();
    const load = run.points[0].repeats[0][0];
    const errorsByKind: Record<string, number> = {};
    for (let i = 0; i <= MAX_ERROR_KINDS; i++) errorsByKind[`E${i}`] = 1;
    load.commands[0] = { ...load.commands[0], errorsByKind };
    load.error = 'x'.repeat(MAX_SERVER_TEXT * 4 + 1);
    load.errorStatusReason = 'y'.repeat(MAX_SERVER_TEXT * 4 + 1);
    load.cluster = {
      detected: false,
      moved: 0,
      ask: 0,
      topologyRefreshes: 0,
      nodes: [{ node: 'n:1', role: 'master', total: { ...load.total, errorsByKind }, moved: 0, ask: 0 }],
    };
    run.server.error = 'z'.repeat(MAX_SERVER_TEXT * 4 + 1);
    run.server.after = { ...run.server.after!, errorstats: errorsByKind };
    const bounded = boundRunFile(run);
    const boundedLoad = bounded.points[0].repeats[0][0];
    assert.equal(Object.keys(boundedLoad.commands[0].errorsByKind).length, MAX_ERROR_KINDS);
    assert.equal(Object.keys(boundedLoad.cluster!.nodes[0].total.errorsByKind).length, MAX_ERROR_KINDS);
    assert.match(boundedLoad.error!, /… \(1 more characters\)$/);
    assert.match(boundedLoad.errorStatusReason!, /… \(1 more characters\)$/);
    assert.match(bounded.server.error!, /… \(1 more characters\)$/);
    assert.equal(Object.keys(bounded.server.after!.errorstats).length, MAX_ERROR_KINDS);
    assert.equal(bounded.target, run.target, 'unchanged parts are shared');
    // Texts at the limit stay whole.
    const atLimit = fixture();
    atLimit.points[0].repeats[0][0].error = 'x'.repeat(MAX_SERVER_TEXT * 4);
    atLimit.server.error = 'z'.repeat(MAX_SERVER_TEXT * 4);
    assert.equal(boundRunFile(atLimit), atLimit);
  });
});
