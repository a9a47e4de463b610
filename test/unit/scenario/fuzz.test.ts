import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkText } from '../../../src/scenario';
import { checkLanguageProperties, FUZZ_ENV, rbenchFile } from '../../fuzz/language';
import { cpuMs } from '../../fuzz/linearity';

// Seeded: a failure prints its seed and path, and reruns the same way. The long run is
// bench/fuzz-language.mjs (hundreds of thousands of files).
const SEED = 12;

describe('language fuzzing (fast-check)', () => {
  it('checking, editor features and formatting keep their properties on generated files', function () {
    this.timeout(60_000);
    fc.assert(
      fc.property(rbenchFile(), fc.nat(), (text, probe) => checkLanguageProperties(text, probe)),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('keeps what the long fuzz run found fixed', () => {
    // bench/fuzz-language.mjs, seed 20261130, file 167,793: formatting `@v =#…` as `@v = #…` turned the value into a comment.
    for (const text of ['@V0 =# __KEY__ ${ENV:EMPTY}', '@a =#x\n### s\nGET {{a}}\n']) checkLanguageProperties(text);
  });

  it('generated files repeated to about 1 MB check in linear time', function () {
    this.timeout(120_000);
    // Each sample is checked once as it is and once repeated to ~1 MB: the big one may cost its
    // size times a generous per-byte constant, so a superlinear step in any construct shows.
    const samples = fc.sample(rbenchFile(30), { seed: SEED, numRuns: 15 }).filter((text) => text.length > 50);
    assert.ok(samples.length >= 10);
    for (const text of samples) {
      const big = (text + '\n').repeat(Math.ceil((1 << 20) / (text.length + 1)));
      const started = cpuMs();
      const resolved = checkText(big, { env: FUZZ_ENV });
      const elapsed = cpuMs() - started;
      assert.ok(resolved.diagnostics.every((diagnostic) => diagnostic.code !== 'internal-error'));
      // 1 µs per byte would be 1 s for 1 MB: far above today's figures, far below a quadratic step.
      assert.ok(elapsed < 3000, `${(big.length / 1e6).toFixed(1)} MB built from ${JSON.stringify(text.slice(0, 80))}… took ${elapsed.toFixed(0)} ms CPU`);
    }
  });
});
