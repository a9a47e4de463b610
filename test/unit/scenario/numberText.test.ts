import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { groupDigits } from '../../../src/scenario/numberText';

describe('groupDigits', () => {
  it('writes numbers as toLocaleString("en-US") does', () => {
    for (const n of [
      0,
      -0,
      1,
      12,
      123,
      1234,
      12345,
      123456,
      1234567,
      -1234567,
      0.5,
      0.0005,
      0.0004,
      1.0625,
      999.9996,
      -999.9996,
      1e20,
      2 ** 53,
      1e21,
      NaN,
      Infinity,
      -Infinity,
    ])
      assert.equal(groupDigits(n), n.toLocaleString('en-US'), String(n));
  });
  it('agrees with toLocaleString("en-US") on any double and integer', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.maxSafeInteger()), (n) => groupDigits(n) === n.toLocaleString('en-US')),
      { numRuns: 20000 },
    );
  });
});
