import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunsIndex } from '../../../src/editor/runsIndex';
import { readRunFiles } from '../../../src/results/baselines';
import { parseRunFileText, readRunFile, RunFileError } from '../../../src/results/runFile';
import { MAX_RUN_FILE_BYTES } from '../../../src/results/runFileSchema';
import { runCli } from '../../helpers/cli';
import { repoRoot } from '../scenario/helpers';

const FIXTURES = join(repoRoot(), 'test', 'browser', 'fixtures');
const FIXTURE_NAMES = ['finished', 'oom', 'repeat', 'snapshot', 'sweep', 'compare-a', 'compare-b'];

function fixtureText(name = 'finished'): string {
  return readFileSync(join(FIXTURES, `${name}.rbench-run.json`), 'utf8');
}

/** The message parseRunFileText gives for `text`, or undefined when it reads. */
function problem(text: string): string | undefined {
  try {
    parseRunFileText(text, 'x.rbench-run.json');
    return undefined;
  } catch (error) {
    assert.ok(error instanceof RunFileError, `a RunFileError, got ${(error as Error).stack}`);
    return error.message;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- hand edits reach anywhere in the JSON
function edited(edit: (run: any) => void): string {
  const run = JSON.parse(fixtureText());
  edit(run);
  return JSON.stringify(run);
}

describe('run-file readers: schema, size cap, versions', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rbench-runfile-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every run file the tests keep as fixtures', () => {
    for (const name of FIXTURE_NAMES) assert.equal(problem(fixtureText(name)), undefined, name);
  });

  it('accepts unknown extra properties and the status complete-with-errors (newer writers add them)', () => {
    const text = edited((run) => {
      run.status = 'complete-with-errors';
      run.shard = { index: 1, of: 4 };
      run.points[0].repeats[0][0].total.newMetric = 3;
      run.points[0].repeats[0][0].status = 'complete-with-errors';
    });
    assert.equal(problem(text), undefined);
  });

  it("reads a Sentinel run's primaries, and refuses them when they are not addresses (files without them still read)", () => {
    assert.equal(problem(edited((run) => (run.target.primaries = ['127.0.0.1:6380', '127.0.0.1:6381']))), undefined);
    assert.match(problem(edited((run) => (run.target.primaries = '127.0.0.1:6380'))) ?? '', /target\.primaries/);
    assert.match(problem(edited((run) => (run.target.primaries = [6380]))) ?? '', /target\.primaries\[0\]/);
  });

  it('a file cut short anywhere says it ends too early', () => {
    const text = fixtureText();
    for (let cut = 1; cut < text.length - 2; cut += Math.ceil(text.length / 40)) {
      assert.match(
        problem(text.slice(0, cut)) ?? '',
        /^x\.rbench-run\.json: not a readable run file — it ends too early \(cut short while copying or writing\?\)$/,
        `cut at ${cut}`,
      );
    }
  });

  it('a hand-edited file names the first wrong places, not a TypeError later', () => {
    assert.match(
      problem(edited((run) => (run.points[0].repeats[0][0].total.latency.p99Us = 'fast'))) ?? '',
      /points\[0\]\.repeats\[0\]\[0\]\.total\.latency\.p99Us: .*expected number.*Was it edited by hand or cut short\?/,
    );
    assert.match(problem(edited((run) => delete run.points)) ?? '', /: not a valid run file — points: /);
    assert.match(problem(edited((run) => (run.points = {}))) ?? '', /points: .*expected array/);
    assert.match(problem(edited((run) => (run.scenario = null))) ?? '', /scenario: /);
    assert.match(problem(edited((run) => (run.thresholds[0] = { passed: 'yes' }))) ?? '', /thresholds\[0\]\./);
    assert.match(problem('[1, 2]') ?? '', /not a run file \(the JSON is not an object\)/);
    assert.match(problem('{ "hello": 1,, }') ?? '', /invalid JSON .*was it edited by hand\?/);
  });

  it('files of another version are refused with what to do', () => {
    assert.match(
      problem(edited((run) => (run.version = 2))) ?? '',
      /run file version 2 was written by a newer RBench \(this one reads version 1\) — update RBench to open it/,
    );
    assert.match(
      problem(edited((run) => (run.version = 0))) ?? '',
      /run file version 0 is not supported \(this RBench reads version 1\) — run the scenario again/,
    );
    assert.match(problem(edited((run) => delete run.version)) ?? '', /no `version` number/);
  });

  it('a file over the size cap is refused before it is read', () => {
    const path = join(dir, 'huge.rbench-run.json');
    writeFileSync(path, '');
    truncateSync(path, MAX_RUN_FILE_BYTES + 1); // sparse: reading it would take 64 MB of memory
    const started = performance.now();
    assert.throws(() => readRunFile(path), /huge\.rbench-run\.json: 64 MB is larger than any run file RBench writes \(the limit is 64 MB\) — it was not read/);
    assert.throws(() => readRunFiles(path), /it was not read/);
    assert.ok(performance.now() - started < 100);
  });

  it('the history index lists unreadable files apart, with their reasons, and keeps the good ones', async () => {
    writeFileSync(join(dir, 'good.rbench-run.json'), fixtureText());
    writeFileSync(join(dir, 'cut.rbench-run.json'), fixtureText().slice(0, 500));
    writeFileSync(
      join(dir, 'newer.rbench-run.json'),
      edited((run) => (run.version = 3)),
    );
    writeFileSync(join(dir, 'huge.rbench-run.json'), '');
    truncateSync(join(dir, 'huge.rbench-run.json'), MAX_RUN_FILE_BYTES + 1);
    const index = new RunsIndex();
    const entries = await index.entries(dir);
    assert.deepEqual(
      entries.map((entry) => entry.id),
      ['good'],
    );
    const reasons = Object.fromEntries(index.unreadable.map(({ path, message }) => [path.split('/').pop(), message.replace(`${dir}/`, '')]));
    assert.deepEqual(Object.keys(reasons).sort(), ['cut.rbench-run.json', 'huge.rbench-run.json', 'newer.rbench-run.json']);
    assert.match(reasons['cut.rbench-run.json'], /ends too early/);
    assert.match(reasons['newer.rbench-run.json'], /newer RBench/);
    assert.match(reasons['huge.rbench-run.json'], /it was not read/);
  });

  it('rbench compare prints the reason for a truncated or hand-edited file and fails without a stack trace', async function () {
    this.timeout(30_000);
    const good = join(dir, 'good.rbench-run.json');
    writeFileSync(good, fixtureText('compare-a'));
    const cases: [string, string, RegExp][] = [
      ['cut.rbench-run.json', fixtureText('compare-b').slice(0, 2000), /cut\.rbench-run\.json: not a readable run file — it ends too early/],
      ['edited.rbench-run.json', edited((run) => (run.points[0].summary = 'x')), /edited\.rbench-run\.json: not a valid run file — points\[0\]\.summary: /],
      ['newer.rbench-run.json', edited((run) => (run.version = 2)), /newer\.rbench-run\.json: run file version 2 was written by a newer RBench/],
    ];
    for (const [name, text, message] of cases) {
      writeFileSync(join(dir, name), text);
      const result = await runCli(['compare', good, name], { cwd: dir });
      assert.match(result.stderr, message, result.stderr);
      assert.doesNotMatch(result.stderr + result.stdout, /TypeError|\n {4}at /);
      assert.notEqual(result.code, 0);
      assert.notEqual(result.code, 70, 'not an internal error');
    }
  });
});
