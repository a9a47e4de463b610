import assert from 'node:assert/strict';
import { compareRuns, COMPARED_METRICS, deltaOf, plansMatch, type ComparisonRow } from '../../../src/results/compare';
import { comparisonToCsv, comparisonToMarkdown, comparisonToText } from '../../../src/results/compareFormat';
import { loadResult, makeRun, setGetRun } from './fixtures';

const rowIds = (rows: ComparisonRow[]) => rows.map((row) => [row.point, row.test, row.command].filter(Boolean).join(' '));

describe('compare: aligning rows across runs', () => {
  it('keys rows by point, phase, test and command; first run order, then new rows; gaps where a run lacks one', () => {
    const text = '### set get\nclients 4\nrequests 10000\nSET k:__key__ __value__\nGET k:__key__\nINCR n\n';
    const first = makeRun({ text, results: { '': [[loadResult('main', 'SET', { ops: 100, p99: 10 }), loadResult('main', 'GET', { ops: 200, p99: 10 })]] } });
    // The second run measured in another order, lacks SET (cancelled early, say) and has INCR.
    const second = makeRun({
      text,
      results: { '': [[loadResult('main', 'GET', { ops: 220, p99: 10 }), loadResult('main', 'INCR', { ops: 300, p99: 10 })]] },
    });
    const comparison = compareRuns([first, second]);
    assert.deepEqual(rowIds(comparison.rows), ['SET total', 'GET total', 'INCR total']);
    const [set, get, incr] = comparison.rows;
    assert.equal(set.cells[1], null, 'SET: a gap in the second run');
    assert.equal(incr.cells[0], null, 'INCR: a gap in the first run');
    assert.equal(incr.cells[1]!.metrics.ops.delta, undefined, 'no reference, no delta');
    assert.equal(get.cells[1]!.metrics.ops.value, 220);
    assert.equal(get.cells[1]!.metrics.ops.delta!.percent, 10);
    assert.match(comparisonToMarkdown(comparison), /\| SET \| ops\/s \| 100 \| — \|/);
  });

  it('aligns each command inside a mix as well as the mix total', () => {
    const text = '### mix\nclients 4\nrequests 10000\n80% GET k:__key__\n20% SET k:__key__ __value__\n';
    const a = makeRun({
      text,
      results: { '': [[loadResult('main', 'mix', { ops: 1000, p99: 100 }, { GET: { ops: 800, p99: 90 }, SET: { ops: 200, p99: 120 } })]] },
    });
    const b = makeRun({
      text,
      results: { '': [[loadResult('main', 'mix', { ops: 1100, p99: 100 }, { SET: { ops: 220, p99: 240 }, GET: { ops: 880, p99: 90 } })]] },
    });
    const comparison = compareRuns([a, b]);
    assert.deepEqual(rowIds(comparison.rows), ['mix total', 'mix GET', 'mix SET']);
    const set = comparison.rows[2];
    assert.equal(set.cells[0]!.metrics.p99.value, 120);
    assert.equal(set.cells[1]!.metrics.p99.value, 240);
    assert.equal(set.cells[1]!.metrics.p99.delta!.verdict, 'worse');
    assert.match(comparisonToText(comparison), /mix › SET\s+ops\/s\s+200\s+220\s+\+10\.0%\s+better/);
  });

  it('aligns sweep points by label and flags a point only one run has', () => {
    const sweep = (values: string) => `### sweep\nrequests 10000\nsweep clients ${values}\nPING\n`;
    const labels = (text: string) => makeRun({ text, results: {} }).plan.points.map((p) => p.label);
    const [one, four] = labels(sweep('1, 4'));
    const eight = labels(sweep('1, 4, 8'))[2];
    const a = makeRun({
      text: sweep('1, 4'),
      results: { [one]: [[loadResult('main', 'PING', { ops: 100, p99: 10 })]], [four]: [[loadResult('main', 'PING', { ops: 300, p99: 20 })]] },
    });
    const b = makeRun({
      text: sweep('1, 4, 8'),
      results: {
        [one]: [[loadResult('main', 'PING', { ops: 90, p99: 10 })]],
        [four]: [[loadResult('main', 'PING', { ops: 330, p99: 20 })]],
        [eight]: [[loadResult('main', 'PING', { ops: 500, p99: 30 })]],
      },
    });
    const comparison = compareRuns([a, b]);
    assert.deepEqual(rowIds(comparison.rows), [`${one} PING total`, `${four} PING total`, `${eight} PING total`]);
    assert.equal(comparison.rows[0].cells[1]!.metrics.ops.delta!.percent, -10);
    assert.equal(comparison.rows[2].cells[0], null);
    assert.ok(
      comparison.differences.some((d) => d.kind === 'plan' && d.text === `point ${eight}: only in #2`),
      JSON.stringify(comparison.differences),
    );
    assert.match(comparisonToMarkdown(comparison), new RegExp(`\\| ${one} \\| PING \\| ops/s \\| 100 \\| 90 \\(-10\\.0% ❌\\) \\|`));
  });
});

describe('compare: deltas and their signs', () => {
  const pair = (after: { ops: number; p99: number; errors?: number }, noisePercent?: number) =>
    compareRuns([setGetRun({ set: { ops: 1000, p99: 1000 } }), setGetRun({ set: after })], { noisePercent }).rows[0].cells[1]!.metrics;

  it('throughput up is better, down is worse', () => {
    assert.deepEqual(pair({ ops: 1100, p99: 1000 }).ops.delta, { absolute: 100, percent: 10, verdict: 'better', test: 'limit-only' });
    assert.deepEqual(pair({ ops: 880, p99: 1000 }).ops.delta, { absolute: -120, percent: -12, verdict: 'worse', test: 'limit-only' });
  });

  it('latency down is better, up is worse, for every percentile', () => {
    const faster = pair({ ops: 1000, p99: 800 });
    const slower = pair({ ops: 1000, p99: 1300 });
    for (const metric of ['p50', 'p90', 'p99', 'p99.9', 'max'] as const) {
      assert.equal(faster[metric].delta!.verdict, 'better', metric);
      assert.equal(faster[metric].delta!.percent, -20, metric);
      assert.equal(slower[metric].delta!.verdict, 'worse', metric);
    }
    assert.equal(slower.p99.delta!.absolute, 300);
  });

  it('changes below the noise threshold are noise; the threshold is an option', () => {
    assert.equal(pair({ ops: 1040, p99: 1000 }).ops.delta!.verdict, 'noise', '4% < default 5%');
    assert.equal(pair({ ops: 1060, p99: 1000 }).ops.delta!.verdict, 'better', '6% > 5%');
    assert.equal(pair({ ops: 1100, p99: 1000 }, 15).ops.delta!.verdict, 'noise', '10% < 15%');
    assert.equal(pair({ ops: 1000, p99: 1000 }).p99.delta!.verdict, 'noise', 'no change');
  });

  it('errors: more is worse; from zero the change has no percentage', () => {
    const errors = pair({ ops: 1000, p99: 1000, errors: 5 }).errors.delta!;
    assert.deepEqual(errors, { absolute: 5, percent: null, verdict: 'worse', test: 'limit-only' });
  });

  it('3 repeats a side cannot reach 5 %: the noise limit alone; from 4, repeats that interleave are noise, repeats far apart are not', () => {
    const runOf = (repeat: number) => (ops: number[]) =>
      makeRun({
        text: `### repeated\nclients 4\nrequests 10000\nrepeat ${repeat}\nGET k\n`,
        results: { '': ops.map((o) => [loadResult('main', 'GET', { ops: o, p99: 500 })]) },
      });
    const three = compareRuns([runOf(3)([1000, 1100, 1200]), runOf(3)([1150, 1250, 1300])]).rows[0].cells[1]!.metrics.ops;
    assert.ok(Math.abs(three.value - Math.cbrt(1150 * 1250 * 1300)) < 1e-6, "the repeats' geometric mean");
    assert.deepEqual([three.spread!.min, three.spread!.max], [1150, 1300]);
    assert.equal(three.delta!.test, 'limit-only');
    assert.equal(three.delta!.verdict, 'better', 'above the noise limit, not judged further');
    const run = runOf(4);
    const overlapping = compareRuns([run([1000, 1100, 1200, 1050]), run([1150, 1250, 1300, 1020])]).rows[0].cells[1]!.metrics.ops;
    assert.ok(overlapping.delta!.percent! > 5, 'well above the 5% threshold…');
    assert.equal(overlapping.delta!.test, 'permutation-repeats');
    assert.ok(overlapping.delta!.interval!.low < 0 && overlapping.delta!.interval!.high > 0, JSON.stringify(overlapping.delta!.interval));
    assert.equal(overlapping.delta!.verdict, 'noise', '…but its interval includes 0');
    const separate = compareRuns([run([1000, 1010, 1020, 1005]), run([1200, 1210, 1220, 1205])]).rows[0].cells[1]!.metrics.ops;
    assert.equal(separate.delta!.verdict, 'better');
    assert.ok(separate.delta!.interval!.low > 15 && separate.delta!.interval!.high < 25, JSON.stringify(separate.delta!.interval));
  });

  it('the interval alone is not enough: a change under the noise limit is noise even when its interval excludes 0', () => {
    const text = '### repeated\nclients 4\nrequests 10000\nrepeat 5\nGET k\n';
    const run = (ops: number[]) => makeRun({ text, results: { '': ops.map((o) => [loadResult('main', 'GET', { ops: o, p99: 500 })]) } });
    const small = compareRuns([run([1000, 1001, 1000, 1001, 1000]), run([1030, 1031, 1030, 1031, 1030])]).rows[0].cells[1]!.metrics.ops.delta!;
    assert.ok(small.interval!.low > 0, 'the interval excludes 0…');
    assert.equal(small.verdict, 'noise', '…but 3% is under the 5% limit');
  });

  it('deltaOf without an interval: the noise limit alone decides, named limit-only', () => {
    assert.equal(deltaOf('ops', { value: 100 }, { value: 125 }, 5).verdict, 'better');
    assert.equal(deltaOf('ops', { value: 100 }, { value: 125 }, 5).test, 'limit-only');
    const interval = { low: -2, high: 40, estimate: 25, pValue: 0.3, test: 'permutation-repeats' as const, samples: [5, 5] as [number, number] };
    assert.equal(deltaOf('ops', { value: 100 }, { value: 125 }, 5, interval).verdict, 'noise', 'an interval through 0');
    assert.equal(deltaOf('p99', { value: 100 }, { value: 125 }, 5, { ...interval, low: 10 }).verdict, 'worse');
  });

  it('the same runs give the same intervals (counted, not drawn)', () => {
    const text = '### repeated\nclients 4\nrequests 10000\nrepeat 4\nGET k\n';
    const run = (ops: number[]) => makeRun({ text, results: { '': ops.map((o) => [loadResult('main', 'GET', { ops: o, p99: 500 })]) } });
    const once = () => compareRuns([run([1000, 1100, 950, 1030]), run([1150, 1250, 1100, 1190])]).rows[0].cells[1]!.metrics.ops.delta!.interval;
    assert.deepEqual(once(), once());
  });
});

describe('compare: differences before numbers', () => {
  const numbers = { set: { ops: 1000, p99: 500 }, get: { ops: 1200, p99: 400 } };
  const texts = (a: Parameters<typeof setGetRun>[0], b: Parameters<typeof setGetRun>[0]) =>
    compareRuns([setGetRun(a), setGetRun(b)]).differences.map((d) => `${d.kind} ${d.text}`);

  it('reports nothing for two runs of the same plan on the same setup', () => {
    const comparison = compareRuns([setGetRun(numbers), setGetRun(numbers)]);
    assert.deepEqual(comparison.differences, []);
    assert.ok(plansMatch(comparison));
    assert.match(comparisonToText(comparison), /No differences in plan, server, client path, machine or status\./);
  });

  it('flags 1 client against 50 as a plan difference, not (only) as a regression', () => {
    const comparison = compareRuns([setGetRun({ ...numbers, clients: 1 }), setGetRun({ ...numbers, clients: 50, set: { ops: 500, p99: 5000 } })]);
    assert.deepEqual(
      comparison.differences.map((d) => [d.kind, d.field, d.values, d.text]),
      [['plan', 'clients', ['1', '50'], 'clients: 1 → 50']],
    );
    assert.equal(plansMatch(comparison), false);
  });

  it('calls the changes of runs whose plans differ differences, not better or worse, in every output and in the counts (issue 22)', () => {
    const comparison = compareRuns([setGetRun({ ...numbers, clients: 10 }), setGetRun({ ...numbers, clients: 50, set: { ops: 500, p99: 5000 } })]);
    const verdicts = comparison.rows.flatMap((row) => row.cells[1]!.metrics.ops.delta!.verdict);
    assert.ok(verdicts.includes('differs') && !verdicts.includes('better') && !verdicts.includes('worse'), verdicts.join());
    const markdown = comparisonToMarkdown(comparison);
    assert.doesNotMatch(markdown, /[✅❌]|\d+ better|\d+ worse/);
    assert.match(markdown, /Against #1: \d+ differ \(different loads: not better or worse\), \d+ within noise/);
    assert.match(comparisonToText(comparison), /^SET\s+ops\/s\s+\S+\s+\S+\s+\S+%\s+differs$/m);
    // The same runs at one client count: better and worse again.
    const same = compareRuns([setGetRun({ ...numbers, clients: 10 }), setGetRun({ ...numbers, clients: 10, set: { ops: 500, p99: 5000 } })]);
    assert.match(comparisonToText(same), /Against #1: \d+ better, \d+ worse, \d+ within noise/);
  });

  it('flags pipeline and value size', () => {
    assert.deepEqual(texts({ ...numbers, pipeline: 1, value: 16 }, { ...numbers, pipeline: 16, value: 1024 }), [
      'plan pipeline: 1 → 16',
      'plan value: 16 → 1024',
    ]);
  });

  it('flags the server version, the client path and the machine', () => {
    assert.deepEqual(texts(numbers, { ...numbers, serverVersion: '7.4.1' }), ['setup server version: 7.2.4 → 7.4.1']);
    assert.deepEqual(texts(numbers, { ...numbers, client: 'ioredis' }), ['plan client: fast → ioredis']);
    assert.deepEqual(texts(numbers, { ...numbers, cores: 2 }), ['setup machine: Test CPU (8 cores) → Test CPU (2 cores)']);
  });

  it('flags cancelled and failed runs first', () => {
    const failed = setGetRun({ ...numbers, status: 'failed' });
    failed.error = 'the server went away';
    const differences = compareRuns([setGetRun(numbers), setGetRun({ ...numbers, status: 'cancelled' }), failed]).differences;
    assert.deepEqual(
      differences.map((d) => [d.kind, d.text]),
      [
        ['status', '#2 was cancelled: partial results'],
        ['status', '#3 failed: partial results (the server went away)'],
      ],
    );
  });

  it('compares phases field by field, naming the phase, and lists several runs in order', () => {
    const text = (clients: number, keys: string) =>
      `### phased\nrequests 1000\nphase write\nclients ${clients}\nSET k:__key__ v\nphase read\nkeys ${keys}\nGET k:__key__\n`;
    const run = (clients: number, keys: string) => makeRun({ text: text(clients, keys), results: {} });
    const differences = compareRuns([run(1, '1000 uniform'), run(8, '1000 uniform'), run(8, '5000 zipf')]).differences.map((d) => d.text);
    assert.deepEqual(differences, [
      'phase write: clients: 1 → 8 → 8',
      'phase read: keys: 1,000 → 1,000 → 5,000',
      'phase read: key distribution: uniform → uniform → zipf 0.99',
    ]);
  });
});

describe('compare: output', () => {
  const before = setGetRun({ id: 'run-a', set: { ops: 400_000, p99: 1000 }, get: { ops: 500_000, p99: 800 } });
  const after = setGetRun({ id: 'run-b', clients: 8, set: { ops: 412_345, p99: 1120 }, get: { ops: 502_000, p99: 800 } });
  const comparison = compareRuns([before, after], { noisePercent: 2 });

  it('Markdown: runs, then the differences, then a table with a column per run and deltas in the cells', () => {
    const markdown = comparisonToMarkdown(comparison);
    const lines = markdown.split('\n');
    assert.equal(lines[0], '### RBench comparison: "set get": #2 vs #1');
    assert.match(markdown, /- #1 \(reference\): `run-a` — /);
    const differencesAt = lines.indexOf('- clients: 4 → 8');
    const tableAt = lines.indexOf('| command | metric | #1 | #2 |');
    assert.ok(differencesAt > 0 && tableAt > differencesAt, markdown);
    assert.equal(lines[tableAt + 1], '| :--- | :--- | ---: | ---: |');
    assert.ok(lines.includes('| SET | ops/s | 400,000 | 412,345 (+3.1% ≠) |'), markdown);
    assert.ok(lines.includes('|  | p99 ms | 1.000 | 1.120 (+12.0% ≠) |'), markdown);
    assert.ok(lines.includes('| GET | ops/s | 500,000 | 502,000 (+0.4% ~) |'), markdown);
    assert.equal(
      lines.filter((line) => line.startsWith('|  | ')).length,
      2 * 6,
      'p50, p90, p99, p99.9, max and the bottleneck verdict under each ops/s line; no errors line without errors',
    );
  });

  it('labels the noise threshold it used', () => {
    assert.match(comparisonToMarkdown(comparison), /within noise \(±2%\)/);
    assert.match(comparisonToMarkdown(compareRuns([before, after])), /SET \| ops\/s \| 400,000 \| 412,345 \(\+3\.1% ~\) \|/, 'default 5%: +3.1% is noise');
  });

  it('text: aligned columns, with the change and verdict in their own columns', () => {
    const text = comparisonToText(comparison);
    assert.match(text, /^Differences \(read these before the numbers\):\n {2}! clients: 4 → 8$/m);
    const table = text.split('\n').filter((line) => /^(command|SET|GET|\s+p\d)/.test(line));
    assert.match(table[0], /^command\s+metric\s+#1\s+#2\s+change$/);
    assert.match(text, /^SET\s+ops\/s\s+400,000\s+412,345\s+\+3\.1%\s+differs$/m);
    assert.match(text, /^\s+p99 ms\s+1\.000\s+1\.120\s+\+12\.0%\s+differs$/m);
    const ends = text
      .split('\n')
      .filter((line) => /^(SET|GET)\s+ops\/s/.test(line))
      .map((line) => line.indexOf('%'));
    assert.equal(new Set(ends).size, 1, 'the percentages line up');
  });

  it('CSV: one line per row × metric × run in plain units', () => {
    const csv = comparisonToCsv(comparison).trim().split('\n');
    assert.equal(
      csv[0],
      '"point","phase","test","command","metric","run","run_id","value","min","max","change","change_percent","verdict","ci_low_percent","ci_high_percent","test","not_comparable","group"',
    );
    // Each metric of each run (the miss rate only for a read that counted misses: none here), then each run's bottleneck verdict (the server's time per call too when the server was read).
    assert.equal(csv.length, 1 + comparison.rows.length * (COMPARED_METRICS.length - 1 + 1) * 2);
    assert.ok(
      csv.some((line) => line.startsWith('"","main","SET","total","ops","#2","run-b","412345","","","12345","3.086","differs",')),
      csv.join('\n'),
    );
    assert.ok(csv.includes('"","main","SET","total","p99","#1","run-a","1000","","","","","","","","","",""'));
  });

  it('JSON: the comparison is plain data', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(comparison)), comparison);
  });
});
