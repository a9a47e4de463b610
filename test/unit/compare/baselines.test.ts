import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  baselineFor,
  baselineKey,
  BaselinesError,
  matchBaseline,
  pinBaseline,
  readBaselines,
  readRunFiles,
  writeBaselines,
} from '../../../src/results/baselines';
import { RunFileError } from '../../../src/results/runFile';
import { setGetRun } from './fixtures';

describe('baselines', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'rbench-baselines-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const file = () => readFileSync(join(root, '.rbench', 'baselines.json'), 'utf8');

  it('reads nothing when no baseline is pinned', () => {
    assert.deepEqual({ ...readBaselines(root) }, {});
    assert.equal(baselineFor(root, 'bench/a.rbench', 'x'), undefined);
  });

  it('pins per scenario: file (relative, forward slashes) # name → run file relative to the root', () => {
    const pinned = pinBaseline(root, {
      scenarioFile: join(root, 'bench', 'cache.rbench'),
      scenarioName: 'SET and GET',
      runFile: join(root, '.rbench/runs/r1.rbench-run.json'),
    });
    assert.deepEqual(pinned, { key: 'bench/cache.rbench#SET and GET', runFile: '.rbench/runs/r1.rbench-run.json' });
    assert.equal(baselineFor(root, 'bench/cache.rbench', 'SET and GET'), join(root, '.rbench/runs/r1.rbench-run.json'));
    assert.equal(baselineFor(root, join(root, 'bench/cache.rbench'), 'SET and GET'), join(root, '.rbench/runs/r1.rbench-run.json'), 'absolute file, same key');
    assert.equal(baselineFor(root, 'bench/cache.rbench', 'other'), undefined);
    assert.equal(baselineKey(root, 'bench\\win.rbench', 's'), 'bench/win.rbench#s', 'backslashes become forward slashes');
  });

  it('writes sorted keys, so a committed file diffs cleanly, and re-pinning replaces the entry', () => {
    pinBaseline(root, { scenarioFile: 'z.rbench', scenarioName: 'z', runFile: 'runs/z1.json' });
    pinBaseline(root, { scenarioFile: 'a.rbench', scenarioName: 'a', runFile: 'runs/a1.json' });
    pinBaseline(root, { scenarioFile: 'z.rbench', scenarioName: 'z', runFile: 'runs/z2.json' });
    assert.deepEqual(Object.keys(JSON.parse(file())), ['a.rbench#a', 'z.rbench#z']);
    assert.deepEqual({ ...readBaselines(root) }, { 'a.rbench#a': 'runs/a1.json', 'z.rbench#z': 'runs/z2.json' });
    writeBaselines(root, { 'm#m': 'm.json', 'b#b': 'b.json' });
    assert.deepEqual(Object.keys(JSON.parse(file())), ['b#b', 'm#m']);
    assert.ok(file().endsWith('\n'));
  });

  it('refuses a broken baselines file with its path', () => {
    mkdirSync(join(root, '.rbench'));
    writeFileSync(join(root, '.rbench', 'baselines.json'), '{ nope');
    assert.throws(
      () => readBaselines(root),
      (e: Error) => e instanceof BaselinesError && e.message.includes('baselines.json: not readable JSON'),
    );
    writeFileSync(join(root, '.rbench', 'baselines.json'), '{ "a#b": 3 }');
    assert.throws(() => readBaselines(root), /the entry "a#b" is not a run file path/);
  });

  it('reads a run file or the array rbench run --json writes; refuses others', () => {
    const a = setGetRun({ id: 'a', set: { ops: 1, p99: 1 } });
    const b = setGetRun({ id: 'b', set: { ops: 1, p99: 1 } });
    writeFileSync(join(root, 'one.json'), JSON.stringify(a));
    writeFileSync(join(root, 'many.json'), JSON.stringify([a, b]));
    writeFileSync(join(root, 'bad.json'), JSON.stringify([a, { version: 9 }]));
    assert.deepEqual(
      readRunFiles(join(root, 'one.json')).map((r) => r.id),
      ['a'],
    );
    assert.deepEqual(
      readRunFiles(join(root, 'many.json')).map((r) => r.id),
      ['a', 'b'],
    );
    assert.throws(
      () => readRunFiles(join(root, 'bad.json')),
      (e: Error) => e instanceof RunFileError && /bad\.json \[1\]: run file version 9/.test(e.message),
    );
    assert.throws(() => readRunFiles(join(root, 'missing.json')), /missing\.json: not a readable run file/);
  });

  it('matches a baseline: a single run applies to a single scenario; otherwise by scenario name', () => {
    const other = setGetRun({ set: { ops: 1, p99: 1 } });
    other.scenario.name = 'other';
    const mine = setGetRun({ set: { ops: 1, p99: 1 } });
    const run = setGetRun({ set: { ops: 2, p99: 1 } });
    assert.equal(matchBaseline([other], run, 1), other, 'one scenario, one baseline: compare them (the name difference is flagged)');
    assert.equal(matchBaseline([other], run, 2), undefined, 'several scenarios: by name');
    assert.equal(matchBaseline([other, mine], run, 1), mine);
  });
});
