// Issue 18, seen 1 (second half): a run file whose `errorsByKind` holds `constructor` left both panels on
// "Loading" and made `rbench merge` exit 70. Names a stranger put in a run file are data: they load,
// merge, compare and show, and never reach a prototype.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunFile } from '../../../src/results/runFile';
import { parseRunFileText } from '../../../src/results/runFile';
import { mergeRuns } from '../../../src/results/merge';
import { runWarnings } from '../../../src/results/warnings';
import { buildCompareViewModel } from '../../../src/views/compareModel';
import { buildViewModel } from '../../../src/views/model';
import { runCli, useScratch } from '../../helpers/cli';
import { loadResult, makeRun } from '../compare/fixtures';
import { GlobalsWatch } from './globals';

/** The hostile counters, written as JSON text (an object literal would take `__proto__` as its prototype). */
const HOSTILE_COUNTS = '{"constructor":3,"__proto__":1,"toString":2,"hasOwnProperty":4}';
const HOSTILE_EXAMPLES = '{"toString":"toString oops","__proto__":"__proto__ x"}';

/** A run file's text with hostile keys in its error counters, its server config and at its top level. */
function hostileRunText(id: string): string {
  const run = makeRun({ id, text: '### s\nrequests 10000\nGET k\n', results: { '': [[loadResult('main', 'GET k', { ops: 100, p99: 100, errors: 10 })]] } });
  const load = run.points[0].repeats[0][0];
  for (const result of [load.total, ...load.commands]) {
    (result as unknown as Record<string, unknown>).errorsByKind = 'COUNTS';
    (result as unknown as Record<string, unknown>).errorExamples = 'EXAMPLES';
  }
  (run.target.server!.config as unknown) = 'CONFIG';
  run.server.events = ['constructor', '__proto__', 'toString', 'bgsave-start'].map((kind, t) => ({ t: t * 1000, kind }));
  return JSON.stringify({ ...run, polluter: 'TOP' })
    .split('"COUNTS"')
    .join(HOSTILE_COUNTS)
    .split('"EXAMPLES"')
    .join(HOSTILE_EXAMPLES)
    .replace('"CONFIG"', '{"constructor":"x","__proto__":{"passwordEnv":"SOME_SECRET"}}')
    .replace('"polluter":"TOP"', '"__proto__":{"passwordEnv":"SOME_SECRET"},"constructor":{"prototype":{"polluted":true}}');
}

describe('gate: hostile names in run files are data (issue 18, seen 1)', function () {
  this.timeout(60_000);
  let watch: GlobalsWatch;
  beforeEach(() => (watch = new GlobalsWatch()));
  afterEach(() => watch.restore());

  it('reads the counters as own data: prototype names kept, `__proto__` dropped, nothing inherited', () => {
    const run = parseRunFileText(hostileRunText('a'), 'a.rbench-run.json');
    const total = run.points[0].repeats[0][0].total;
    assert.equal(total.errorsByKind.constructor, 3);
    assert.equal(total.errorsByKind.toString, 2 as unknown);
    assert.equal(total.errorsByKind.hasOwnProperty, 4 as unknown);
    assert.equal(Object.hasOwn(total.errorsByKind, '__proto__'), false);
    assert.equal(Object.getPrototypeOf(total.errorsByKind), null);
    assert.equal(total.errorExamples.constructor, undefined, 'no example for constructor: nothing inherited either');
    assert.equal(Object.hasOwn(run, '__proto__'), false);
    assert.equal((run as unknown as Record<string, unknown>).passwordEnv, undefined);
    assert.equal(run.target.server?.config.constructor, 'x');
    assert.equal((run.target.server?.config as Record<string, unknown>).passwordEnv, undefined);
    assert.deepEqual(watch.changes(), []);
  });

  it('builds the results and compare panels, merges and warns without touching a prototype', () => {
    const a = parseRunFileText(hostileRunText('a'), 'a.rbench-run.json');
    const b = parseRunFileText(hostileRunText('b'), 'b.rbench-run.json');
    const model = buildViewModel(a);
    assert.ok(model.rows.length > 0);
    assert.equal(model.marks.length, 4);
    for (const mark of model.marks) assert.equal(typeof mark.label, 'string', mark.kind);
    assert.deepEqual(
      model.marks.slice(0, 3).map((mark) => mark.label),
      ['constructor', '__proto__', 'toString'],
      'unknown kinds are shown as written',
    );
    assert.doesNotMatch(JSON.stringify(model), /function|native code|\[object Object\]/);
    const compare = buildCompareViewModel([a, b]);
    assert.doesNotMatch(JSON.stringify(compare), /function|native code|\[object Object\]/);
    const merged: RunFile = mergeRuns([a, b]).run;
    const total = merged.points[0].repeats[0][0].total;
    assert.deepEqual({ ...total.errorsByKind }, { constructor: 6, toString: 4, hasOwnProperty: 8 });
    assert.equal(Object.hasOwn(total.errorExamples, 'constructor'), false);
    assert.equal(total.errorExamples.toString, 'toString oops' as unknown);
    const warnings = runWarnings(merged).join('\n');
    assert.match(warnings, /6 constructor errors/);
    assert.doesNotMatch(warnings, /function|native code/);
    assert.deepEqual(watch.changes(), []);
  });

  describe('rbench merge and compare', () => {
    const scratch = useScratch();

    it('merge exits 0 with counters added as numbers; compare exits 0', async () => {
      scratch.write('a.rbench-run.json', hostileRunText('a'));
      scratch.write('b.rbench-run.json', hostileRunText('b'));
      const merge = await runCli(['merge', 'a.rbench-run.json', 'b.rbench-run.json', '--out', 'merged.json'], { cwd: scratch.dir });
      assert.equal(merge.code, 0, merge.stderr);
      assert.doesNotMatch(merge.stdout + merge.stderr, /internal error|function|native code/);
      const merged = JSON.parse(readFileSync(join(scratch.dir, 'merged.json'), 'utf8')) as RunFile;
      assert.deepEqual(merged.points[0].repeats[0][0].total.errorsByKind, { constructor: 6, toString: 4, hasOwnProperty: 8 });
      const compare = await runCli(['compare', 'a.rbench-run.json', 'merged.json'], { cwd: scratch.dir });
      assert.equal(compare.code, 0, compare.stderr);
      assert.doesNotMatch(compare.stdout + compare.stderr, /internal error|function|native code/);
    });
  });
});
