// The run's own keys by construction (issue 42, seen 3): exactly the keys `__key__`, `__rand_int__` and
// `__client__` expand to under the phase's plan, never every key under a prefix.
import assert from 'node:assert/strict';
import { isOwnKey, keyShape, shapeCovers, showShape } from '../../../src/runner/ownKeys';
import type { ArgTemplate, KeyPlan } from '../../../src/scenario/plan';

const keys = (space: number, size = 12): KeyPlan => ({ space, size, distribution: 'uniform', zipfExponent: 0.99, gaussianStddev: 1 / 6 });
const load = { clients: 8 };
const arg = (...parts: (string | 'KEY' | 'INT' | 'CLIENT' | 'VALUE')[]): ArgTemplate =>
  parts.map((part) =>
    part === 'KEY'
      ? { placeholder: 'key' as const }
      : part === 'INT'
        ? { placeholder: 'rand_int' as const }
        : part === 'CLIENT'
          ? { placeholder: 'client' as const }
          : part === 'VALUE'
            ? { placeholder: 'value' as const }
            : part,
  );

describe('the run’s own keys', () => {
  it('user:__key__ with 50 keys owns user: and 12 digits below 50, nothing else under user:', () => {
    const own = [keyShape(arg('user:', 'KEY'), keys(50), load)!];
    assert.equal(showShape(own[0]), 'user:<12 digits below 50>');
    for (const key of ['user:000000000000', 'user:000000000049']) assert.equal(isOwnKey(own, key), true, key);
    for (const key of ['user:alice', 'user:000000000050', 'user:00000000001', 'user:0000000000001', 'user:', 'xuser:000000000001', 'user:00000000000a'])
      assert.equal(isOwnKey(own, key), false, key);
  });

  it('a wider key space or key size widens the number, as the engine writes it', () => {
    assert.equal(showShape(keyShape(arg('k:', 'KEY'), keys(1_000_000_000_000_0, 4), load)!), 'k:<13 digits below 10000000000000>');
    assert.equal(showShape(keyShape(arg('k:', 'KEY'), keys(10, 4), load)!), 'k:<4 digits below 10>');
    assert.equal(showShape(keyShape(arg('k:', 'INT'), keys(10, 4), load)!), 'k:<12 digits below 10>');
  });

  it('__client__ is the client number without padding, below the number of clients', () => {
    const own = [keyShape(arg('list:', 'CLIENT'), keys(1), { clients: 12 })!];
    for (const key of ['list:0', 'list:7', 'list:11']) assert.equal(isOwnKey(own, key), true, key);
    for (const key of ['list:12', 'list:01', 'list:', 'list:x']) assert.equal(isOwnKey(own, key), false, key);
    assert.equal(isOwnKey([keyShape(arg('list:', 'CLIENT'), keys(1), { clients: 4, shard: { firstClient: 0, totalClients: 16 } })!], 'list:15'), true);
  });

  it('a key with __value__ in it could be anybody’s: no shape', () => {
    assert.equal(keyShape(arg('user:', 'VALUE'), keys(10), load), undefined);
  });

  it('shapeCovers: a template inside another (same width, a smaller range, literal digits in range)', () => {
    const outer = keyShape(arg('a:', 'KEY'), keys(100), load)!;
    assert.equal(shapeCovers(outer, keyShape(arg('a:', 'KEY'), keys(50), load)!), true);
    assert.equal(shapeCovers(outer, keyShape(arg('a:', 'KEY'), keys(200), load)!), false);
    assert.equal(shapeCovers(outer, keyShape(arg('a:', 'KEY'), keys(50, 4), load)!), false);
    assert.equal(shapeCovers(outer, keyShape(arg('a:000000000099'), keys(1), load)!), true);
    assert.equal(shapeCovers(outer, keyShape(arg('a:000000000100'), keys(1), load)!), false);
    assert.equal(shapeCovers(outer, keyShape(arg('a:1'), keys(1), load)!), false);
  });
});
