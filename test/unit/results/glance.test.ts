// Issue 45, terminal items 1 and 3: results that read at a glance. The verdict's short label (`limit`) in the
// table and the CSV, identical verdict sentences said once, the time each test took, and figures in the units
// people read: sizes in KiB/MiB/GiB, server time below 1 µs with the digits it needs.
import assert from 'node:assert/strict';
import type { Bottleneck, LoadResult } from '../../../src/engine/types';
import type { ServerDelta } from '../../../src/redis/types';
import { toRedisBenchmarkCsv, toTextTable } from '../../../src/results/export';
import { formatLatency, formatMicros, formatMicrosChange, formatUsPerCall } from '../../../src/results/format';
import { bottleneckLines } from '../../../src/results/headlines';
import { briefLines } from '../../../src/results/briefLines';
import { resultRows } from '../../../src/results/rows';
import { settingText } from '../../../src/results/settingText';
import { compareRuns } from '../../../src/results/compare';
import { comparisonToText } from '../../../src/results/compareFormat';
import { compareLabels } from '../../../src/results/compareLabels';
import { micros } from '../../../src/results/bottleneck/figures';
import { verdictShort } from '../../../src/results/bottleneck';
import { verdictShort as panelVerdictShort } from '../../../src/views/verdictLabels';
import { loadResult, makeRun, setGetRun } from '../compare/fixtures';

const UNDETERMINED: Bottleneck = { kind: 'undetermined', why: 'the client had headroom; the server was not read' };
const SERVER_CPU: Bottleneck = { kind: 'server-cpu', why: "the server's main thread ran 97 % of the window" };

function judged(load: LoadResult, bottleneck: Bottleneck, durationMs = 1000): LoadResult {
  return { ...load, bottleneck, durationMs };
}

/** Three tests, two of them held by the same sentence. */
function threeTests() {
  const text = '### suite\nrequests 10000\nSET k:__key__ __value__\nGET k:__key__\nINCR counter\n';
  return makeRun({
    text,
    results: {
      '': [
        [
          judged(loadResult('main', 'SET', { ops: 50_000, p99: 900 }), UNDETERMINED, 200),
          judged(loadResult('main', 'GET', { ops: 60_000, p99: 800 }), SERVER_CPU, 1500),
          judged(loadResult('main', 'INCR', { ops: 55_000, p99: 850 }), UNDETERMINED, 65_000),
        ],
      ],
    },
  });
}

describe('results at a glance (issue 45)', () => {
  it('identical verdict sentences are said once, naming the tests they apply to', () => {
    assert.deepEqual(bottleneckLines(threeTests()), [
      `SET, INCR bottleneck: undetermined — ${UNDETERMINED.why}`,
      `GET bottleneck: server-cpu — ${SERVER_CPU.why}`,
    ]);
  });

  it("the table has the verdict's short label (limit) and each test's time", () => {
    const [header, , set, get, incr] = toTextTable(resultRows(threeTests())).split('\n');
    assert.match(header, /value size\s+time\s+ops\/s/);
    assert.match(header, /errors\s+limit$/);
    assert.match(set, /\s0\.2s\s.*\s0\s+undetermined$/);
    assert.match(get, /\s1\.5s\s.*\s0\s+server CPU$/);
    assert.match(incr, /\s1m05s\s/);
  });

  it('the CSV has limit and elapsed_s after the verdict', () => {
    const [header, set, get] = toRedisBenchmarkCsv(resultRows(threeTests())).trim().split('\n');
    assert.match(header, /,"bottleneck","bottleneck_why","limit","elapsed_s"$/);
    assert.match(set, /,"undetermined","[^"]+","undetermined","0\.200"$/);
    assert.match(get, /,"server-cpu","[^"]+","server CPU","1\.500"$/);
  });

  it('brief lines: one per test with ops/s, p50/p99, errors, the short label and the time', () => {
    const lines = briefLines(threeTests());
    assert.equal(lines.length, 3);
    assert.match(lines[1], /^GET:\s+60,000 ops\/s\s+p50 0\.200 ms\s+p99 0\.800 ms\s+0 errors\s+limit: server CPU\s+1\.5s$/);
  });

  it('the short label is one table: the CLI, the CSV and the panel read the same words', () => {
    const mixed: Bottleneck = { kind: 'mixed', why: '…', parts: [SERVER_CPU as never, { kind: 'persistence', why: 'a fork' }] };
    assert.equal(verdictShort(mixed), 'mixed: server CPU + persistence');
    assert.equal(panelVerdictShort, verdictShort);
  });

  it('server time under 1 µs keeps the digits it needs; one formatter for every µs figure', () => {
    assert.equal(formatUsPerCall(0.12), '0.12');
    assert.equal(formatUsPerCall(0.012), '0.012');
    assert.equal(formatUsPerCall(3.14), '3.1');
    assert.equal(formatUsPerCall(410.4), '410');
    assert.equal(formatLatency(0.12), '0.12 µs');
    assert.equal(formatLatency(850), '850 µs');
    assert.equal(micros(0.12), '0.12 µs');
    assert.equal(formatMicros(0), '0');
  });

  it('a change between two close figures shows enough digits to differ', () => {
    assert.deepEqual(formatMicrosChange(0.114, 0.104), ['0.11', '0.10']);
    assert.deepEqual(formatMicrosChange(0.1004, 0.1001), ['0.1004', '0.1001']);
    assert.deepEqual(formatMicrosChange(3.14, 3.12), ['3.14', '3.12']);
    assert.deepEqual(formatMicrosChange(0.12, 0.3), ['0.12', '0.30']);
    assert.deepEqual(formatMicrosChange(410, 1420), ['410', '1,420']);
    assert.deepEqual(formatMicrosChange(0.1, 0.1), ['0.1', '0.1']);
  });

  it('a comparison never says "fell 8.8% (0.1 → 0.1 µs)"', () => {
    const server = (usecPerCall: number) => ({ nodes: 1, windowMs: 1000, calls: 10_000, usec: usecPerCall * 10_000, commands: {}, usecPerCall }) as ServerDelta;
    const withServer = (usecPerCall: number, p99: number) => {
      const run = setGetRun({ set: { ops: 50_000, p99 } });
      run.points[0].repeats[0][0].server = server(usecPerCall);
      return run;
    };
    const text = comparisonToText(compareRuns([withServer(0.114, 1000), withServer(0.104, 1500)]));
    assert.match(text, /server time per call fell 8\.8% \(0\.11 → 0\.10 µs\)/);
  });

  it('sizes Redis reads back in bytes are shown in human units (comparison titles, Test Connection)', () => {
    assert.equal(settingText('maxmemory', '12637437952'), '11.8 GiB');
    assert.equal(settingText('maxmemory', '268435456'), '256 MiB');
    assert.equal(settingText('maxmemory', '0'), '0');
    assert.equal(settingText('appendfsync', 'always'), 'always');
    const runs = [setGetRun({ set: { ops: 50_000, p99: 900 } }), setGetRun({ set: { ops: 40_000, p99: 900 } })];
    runs[0].target.server!.config.maxmemory = '12637437952';
    runs[1].target.server!.config.maxmemory = '268435456';
    assert.deepEqual(compareLabels(runs), ['maxmemory 11.8 GiB', 'maxmemory 256 MiB']);
    assert.match(comparisonToText(compareRuns(runs)), /server maxmemory: 11\.8 GiB → 256 MiB/);
    assert.doesNotMatch(comparisonToText(compareRuns(runs)), /12637437952/);
  });
});
