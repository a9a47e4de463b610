// `rbench check` lists at most DIAGNOSTIC_LIMIT problems, but its summary counts every error.
import assert from 'node:assert/strict';
import { runCli, useScratch } from '../../helpers/cli';
import { DIAGNOSTIC_LIMIT, DiagnosticSink, errorCount, hiddenCount, rangeOf } from '../../../src/scenario/diagnostics';

describe('rbench check: counting past the cap', () => {
  const scratch = useScratch();

  it('a file with 1,100 errors summarises 1,100 errors, and says how many are not shown', async () => {
    const lines = Array.from({ length: 1100 }, (_, i) => `pipeline ${i}x`);
    const file = scratch.write('many.rbench', `### many\n${lines.join('\n')}\nPING\n`);
    const result = await runCli(['check', file], { cwd: scratch.dir });
    assert.equal(result.code, 2);
    const listed = result.stderr.split('\n').filter((line) => line.includes(': error: '));
    assert.equal(listed.length, DIAGNOSTIC_LIMIT, 'the list stays capped');
    assert.match(result.stderr, /100 more problems not shown/);
    assert.match(result.stdout + result.stderr, /1 file, 1 scenario, 1,100 errors \(100 problems not shown\)/);
  });

  it('counts the errors past the cap, not the warnings', () => {
    const sink = new DiagnosticSink();
    for (let i = 0; i < DIAGNOSTIC_LIMIT + 30; i++) sink.error(rangeOf(i, 0, 1), 'x', `error ${i}`);
    for (let i = 0; i < 20; i++) sink.warning(rangeOf(i, 0, 1), 'y', `warning ${i}`);
    sink.countDropped(5);
    const diagnostics = sink.finish();
    assert.equal(errorCount(diagnostics), DIAGNOSTIC_LIMIT + 35);
    assert.equal(hiddenCount(diagnostics), 55);
    // Carried through a second sink, as the resolver does with the parser's problems.
    assert.equal(errorCount(new DiagnosticSink(diagnostics, sink.dropped).finish()), DIAGNOSTIC_LIMIT + 35);
  });
});
