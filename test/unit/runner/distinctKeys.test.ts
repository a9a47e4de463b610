import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { DistinctKeys } from '../../../src/runner/distinctKeys';

describe('DistinctKeys (the count of keys a run left)', () => {
  it('counts each distinct byte string once, as a Set of them would', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 6 }), { maxLength: 300 }), fc.array(fc.nat(), { maxLength: 300 }), (keys, repeats) => {
        const all = [...keys, ...repeats.map((i) => keys[i % Math.max(keys.length, 1)]).filter((k) => k !== undefined)];
        const distinct = new DistinctKeys();
        const seen = new Set<string>();
        for (const key of all) {
          const text = Buffer.from(key).toString('latin1');
          distinct.add(key);
          seen.add(text);
          // Asked between adds too: the count sorts what it holds, and later adds must count on from there.
          if (seen.size % 37 === 0) assert.equal(distinct.size, seen.size);
        }
        return distinct.size === seen.size;
      }),
      { numRuns: 2000 },
    );
  });
  it('keeps counting past many growths, keys a SCAN returns twice counted once, the count asked again after more adds', () => {
    const distinct = new DistinctKeys();
    for (let i = 0; i < 300_000; i++) distinct.add(Buffer.from(`key:${String(i).padStart(12, '0')}`));
    for (let i = 0; i < 300_000; i += 7) distinct.add(Buffer.from(`key:${String(i).padStart(12, '0')}`));
    assert.equal(distinct.size, 300_000);
    assert.equal(distinct.added, 300_000 + Math.ceil(300_000 / 7));
    distinct.add(new Uint8Array(0));
    assert.equal(distinct.size, 300_001);
    distinct.add(new Uint8Array(0));
    assert.equal(distinct.size, 300_001);
  });
});
