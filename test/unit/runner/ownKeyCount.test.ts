// The count of the keys a run left counts its own keys only (issue 46): the byte matcher and its bitmaps agree
// with the clean-up's own-key test (isOwnKey) key by key, and a key SCAN returns twice counts once.
import assert from 'node:assert/strict';
import { OwnKeyCount } from '../../../src/runner/ownKeyCount';
import { isOwnKey, keyShape, type KeyShape } from '../../../src/runner/ownKeys';
import type { ArgTemplate, DrawSpec, KeyPlan } from '../../../src/scenario/plan';

const keys = (space: number, size = 12): KeyPlan => ({ space, size, distribution: 'uniform', zipfExponent: 0.99, gaussianStddev: 1 / 6 });

function count(shapes: KeyShape[], names: string[]): number {
  const counter = new OwnKeyCount(shapes);
  for (const name of names) {
    // Each key inside a larger buffer, as it lies in a SCAN reply.
    const bytes = Buffer.from(`$${name}\r\n`, 'utf8');
    counter.add(bytes, 1, bytes.length - 2);
  }
  return counter.size;
}

function expected(shapes: KeyShape[], names: string[]): number {
  return new Set(names.filter((name) => isOwnKey(shapes, name))).size;
}

const shape = (arg: ArgTemplate, plan: KeyPlan, clients = 8) => keyShape(arg, plan, { clients })!;

describe('the count of the run’s own keys among those SCAN returns', () => {
  it('user:__key__ with 1,000 keys: each own key once, someone’s user:alice and a number beyond the key space not at all', () => {
    const own = [shape(['user:', { placeholder: 'key' }], keys(1000))];
    const names = [
      'user:000000000000',
      'user:000000000999',
      'user:000000000999',
      'user:000000001000',
      'user:alice',
      'user:00000000001',
      'user:',
      'xuser:000000000001',
    ];
    assert.equal(count(own, names), 2);
    assert.equal(count(own, names), expected(own, names));
  });

  it('agrees with the clean-up’s own-key test on random keys of several shapes (padded, unpadded, drawn, two fields, multi-byte)', () => {
    const shapes: KeyShape[] = [
      shape(['k:', { placeholder: 'key' }, ':é'], keys(50, 4)),
      shape(['list:', { placeholder: 'client' }], keys(1), 12),
      shape(['r:', { placeholder: 'draw', draw: { min: 5, max: 120, decimals: 0 } as DrawSpec }, '-', { placeholder: 'rand_int' }], keys(30)),
      // An unpadded number right before a digit: tested on the decoded key.
      shape(['u', { placeholder: 'client' }, '7'], keys(1), 20),
    ];
    let seed = 46;
    const random = (below: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % below);
    const names: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const n = String(random(140));
      const pick = random(6);
      names.push(
        pick === 0
          ? `k:${n.padStart(4, '0')}:é`
          : pick === 1
            ? `list:${random(3) === 0 ? '0' : ''}${random(15)}`
            : pick === 2
              ? `r:${n}-${String(random(40)).padStart(12, '0')}`
              : pick === 3
                ? `u${random(25)}7`
                : pick === 4
                  ? `k:${n.padStart(random(2) === 0 ? 4 : 5, '0')}:e`
                  : `r:${n}-${String(random(40))}`,
      );
    }
    const got = count(shapes, names);
    assert.ok(got > 100, `${got} own keys among the random ones`);
    assert.equal(got, expected(shapes, names));
  });

  it('a key space too large for a bitmap is counted by hash, each key once', () => {
    const own = [shape(['big:', { placeholder: 'key' }], keys(10 ** 12, 14))];
    const names = ['big:00000000000001', 'big:00000000000001', 'big:99999999999999', 'big:00999999999999', 'big:1'];
    assert.equal(count(own, names), expected(own, names));
    assert.equal(count(own, names), 2);
  });
});
