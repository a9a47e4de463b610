// Issue 46: the engine's latency recorder (LatencyRecorder.record, countsIndex) is shared by every reply of a load
// and by the client-pause judge. V8 optimizes it, and the reply loops it is inlined into, for the small integers
// (Smis) the reply path hands it; one caller handing it the same values as heap doubles (read back from a
// Float64Array) threw that code away mid-run and had it compiled again (seen: `--trace-deopt` of a 1M-request GET
// run: record and countsIndex "not a Smi" with 3525.0 and 16.0, countReplies recompiled, ~10 ms of compiling).
// Whether a number is a Smi is V8's to tell: the check runs in a child Node with --allow-natives-syntax.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const measure = join(__dirname, '../../../src/engine/measure');

// The child: a real PauseMonitor, a real block of its loop, a slow reply inside it; every value the monitor hands
// the recorder is checked by V8's own %IsSmi.
const child = `
const { PauseMonitor } = require(${JSON.stringify(join(measure, 'clientPauses.js'))});
const { LatencyRecorder } = require(${JSON.stringify(join(measure, 'histogram.js'))});
const isSmi = new Function('x', 'return %IsSmi(x)');
const seen = [];
const record = LatencyRecorder.prototype.record;
LatencyRecorder.prototype.record = function (micros, count) {
  seen.push({ micros, count, smis: isSmi(micros) && isSmi(count) });
  return record.call(this, micros, count);
};
const monitor = new PauseMonitor();
monitor.start();
const from = performance.now();
while (performance.now() - from < 40);
monitor.slowReply(3525 * 10 + 25, 16, performance.now());
const result = monitor.finish();
process.stdout.write(JSON.stringify({ seen, overlapped: result.overlappedReplies }));
`;

describe('the latency recorder is handed small integers by each of its callers', () => {
  it('a slow reply that overlapped the client’s own pause reaches the recorder as Smis', () => {
    const ran = spawnSync(process.execPath, ['--allow-natives-syntax', '-e', child], { encoding: 'utf8' });
    assert.equal(ran.status, 0, ran.stderr);
    const { seen, overlapped } = JSON.parse(ran.stdout) as { seen: { micros: number; count: number; smis: boolean }[]; overlapped: number };
    assert.equal(overlapped, 16, 'the reply overlapped the 40 ms block: the test made the condition it asserts');
    assert.deepEqual(seen, [{ micros: 35_275, count: 16, smis: true }]);
  });
});
