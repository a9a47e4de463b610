import assert from 'node:assert/strict';
import { Random, WeightedTable, createKeySource, type KeySource } from '../../../src/engine/requests/random';
import { splitRequests } from '../../../src/engine/loadPlan';
import { resolveThreads } from '../../../src/engine/threads';
import type { KeyPlan } from '../../../src/scenario/plan';

function keyPlan(extra: Partial<KeyPlan>): KeyPlan {
  return { space: 1000, distribution: 'uniform', zipfExponent: 0.99, gaussianStddev: 1 / 6, size: 1, seed: 1, ...extra };
}

function draw(source: KeySource, n: number): number[] {
  return Array.from({ length: n }, () => source.next());
}

function meanAndStddev(values: number[]): { mean: number; stddev: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length;
  return { mean, stddev: Math.sqrt(variance) };
}

describe('seeded randomness and key distributions', () => {
  it('keeps the sequences of earlier versions (a seed written in a scenario replays the same keys)', () => {
    // Drawn by the version before the int32 state (engine speed-up): the same seeds must give the same numbers.
    const drawn: number[] = [];
    for (const [seed, stream, connection] of [
      [1, 0, 0],
      [42, 3, 7],
      [2 ** 40 + 5, 2, 1],
    ]) {
      const random = new Random(seed, stream, connection);
      drawn.push(random.nextUint32(), random.nextUint32(), random.nextInt(100_000), random.nextInt(1e12));
    }
    assert.deepEqual(
      drawn,
      [3633863460, 1214304599, 77155, 894355551795, 878028902, 1856430720, 80309, 298203871320, 3462561493, 1034389741, 36112, 698922089414],
    );
  });

  it('repeats the same sequence for the same seed and connection, and differs otherwise', () => {
    const a = new Random(123, 1, 5);
    const b = new Random(123, 1, 5);
    const sequenceA = Array.from({ length: 100 }, () => a.nextUint32());
    assert.deepEqual(
      Array.from({ length: 100 }, () => b.nextUint32()),
      sequenceA,
    );
    const otherSeed = new Random(124, 1, 5);
    const otherConnection = new Random(123, 1, 6);
    assert.notDeepEqual(
      Array.from({ length: 100 }, () => otherSeed.nextUint32()),
      sequenceA,
    );
    assert.notDeepEqual(
      Array.from({ length: 100 }, () => otherConnection.nextUint32()),
      sequenceA,
    );
    // Seeds beyond 32 bits still matter.
    assert.notEqual(new Random(2 ** 32 + 7).nextUint32(), new Random(7).nextUint32());
    const doubles = Array.from({ length: 10000 }, () => a.nextDouble());
    assert.ok(doubles.every((d) => d >= 0 && d < 1));
  });

  for (const distribution of ['uniform', 'gaussian', 'zipf', 'sequential'] as const) {
    it(`${distribution}: same seed ⇒ same keys, and restart() replays them`, () => {
      const context = { seed: 99, connection: 3, connections: 8 };
      const first = createKeySource(keyPlan({ distribution, space: 100_000 }), context);
      const second = createKeySource(keyPlan({ distribution, space: 100_000 }), context);
      const keys = draw(first, 1000);
      assert.deepEqual(draw(second, 1000), keys);
      assert.ok(keys.every((k) => Number.isInteger(k) && k >= 0 && k < 100_000));
      first.restart();
      assert.deepEqual(draw(first, 1000), keys);
      if (distribution !== 'sequential') {
        const otherSeed = createKeySource(keyPlan({ distribution, space: 100_000 }), { ...context, seed: 100 });
        assert.notDeepEqual(draw(otherSeed, 1000), keys);
      }
    });
  }

  it('uniform: passes a chi-square test over 100 buckets', () => {
    const space = 100;
    const n = 200_000;
    const counts = new Array<number>(space).fill(0);
    const source = createKeySource(keyPlan({ space }), { seed: 7, connection: 0, connections: 1 });
    for (let i = 0; i < n; i++) counts[source.next()]++;
    const expected = n / space;
    const chiSquare = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    // 99 degrees of freedom: mean 99, stddev ≈ 14.
    assert.ok(chiSquare < 99 + 5 * 14 && chiSquare > 99 - 4 * 14, `chi-square ${chiSquare.toFixed(1)}`);
  });

  it('gaussian: centred on the middle of the space with the planned standard deviation', () => {
    const space = 1_000_000;
    const source = createKeySource(keyPlan({ space, distribution: 'gaussian', gaussianStddev: 0.1 }), { seed: 8, connection: 0, connections: 1 });
    const { mean, stddev } = meanAndStddev(draw(source, 100_000));
    assert.ok(Math.abs(mean - (space - 1) / 2) < space * 0.002, `mean ${mean}`);
    assert.ok(Math.abs(stddev / (0.1 * space) - 1) < 0.02, `stddev ${stddev}`);
    // A wide distribution is clamped to the space.
    const wide = createKeySource(keyPlan({ space: 100, distribution: 'gaussian', gaussianStddev: 2 }), { seed: 8, connection: 0, connections: 1 });
    const keys = draw(wide, 10_000);
    assert.ok(keys.every((k) => k >= 0 && k < 100));
    assert.ok(keys.includes(0) && keys.includes(99));
  });

  for (const exponent of [0.99, 1.3]) {
    it(`zipf ${exponent}: rank-frequency slope on a log-log scale is −exponent`, () => {
      const space = 10_000;
      const n = 400_000;
      const counts = new Array<number>(space).fill(0);
      const source = createKeySource(keyPlan({ space, distribution: 'zipf', zipfExponent: exponent }), { seed: 9, connection: 0, connections: 1 });
      for (let i = 0; i < n; i++) counts[source.next()]++;
      // Key r-1 has rank r. Least squares of log(count) on log(rank) over the 50 hottest ranks.
      const xs: number[] = [];
      const ys: number[] = [];
      for (let rank = 1; rank <= 50; rank++) {
        xs.push(Math.log(rank));
        ys.push(Math.log(counts[rank - 1]));
      }
      const mx = xs.reduce((a, b) => a + b) / xs.length;
      const my = ys.reduce((a, b) => a + b) / ys.length;
      const slope = xs.reduce((s, x, i) => s + (x - mx) * (ys[i] - my), 0) / xs.reduce((s, x) => s + (x - mx) ** 2, 0);
      assert.ok(Math.abs(slope + exponent) < 0.06, `slope ${slope.toFixed(3)}`);
      assert.ok(counts[0] > counts[1] && counts[1] > counts[9]);
    });
  }

  it('zipf over 100M keys needs no table and stays fast', () => {
    const started = process.hrtime.bigint();
    const source = createKeySource(keyPlan({ space: 100_000_000, distribution: 'zipf' }), { seed: 10, connection: 0, connections: 1 });
    const keys = draw(source, 200_000);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.ok(keys.every((k) => k >= 0 && k < 100_000_000));
    assert.ok(
      keys.some((k) => k > 10_000_000),
      'the tail is reached',
    );
    assert.ok(keys.filter((k) => k === 0).length > 1000, 'key 0 is hot');
    assert.ok(ms < 1000, `${ms} ms for 200k draws`);
  });

  it('sequential: connections striding one global sequence cover every key exactly once', () => {
    for (const [requests, connections] of [
      [100, 7],
      [1000, 50],
      [5, 8],
    ]) {
      const perConnection = splitRequests(requests, connections);
      assert.equal(
        perConnection.reduce((a, b) => a + b, 0),
        requests,
      );
      const seen: number[] = [];
      perConnection.forEach((count, connection) => {
        const source = createKeySource(keyPlan({ space: requests, distribution: 'sequential' }), { seed: 1, connection, connections });
        seen.push(...draw(source, count));
      });
      assert.deepEqual(
        seen.sort((a, b) => a - b),
        Array.from({ length: requests }, (_, i) => i),
      );
    }
  });

  it('weighted table: exact shares for integer weights, close shares for fractional ones', () => {
    assert.deepEqual(new WeightedTable([80, 20]).shares(), [0.8, 0.2]);
    assert.deepEqual(new WeightedTable([1, 0, 3]).shares(), [0.25, 0, 0.75]);
    const shares = new WeightedTable([0.1, 0.2, 0.7]).shares();
    shares.forEach((share, i) => assert.ok(Math.abs(share - [0.1, 0.2, 0.7][i]) < 1e-4));
    const table = new WeightedTable([1, 3]);
    const random = new Random(5);
    let ones = 0;
    for (let i = 0; i < 100_000; i++) ones += table.pick(random);
    assert.ok(Math.abs(ones / 100_000 - 0.75) < 0.01);
    assert.throws(() => new WeightedTable([]), /at least one/);
    assert.throws(() => new WeightedTable([0, 0]), /all be zero/);
  });
});

describe('worker thread count', () => {
  it("'auto' uses one thread on small machines and for deep pipelines, more for shallow pipelines with many clients", () => {
    const auto = (clients: number, pipeline: number, cores: number) => resolveThreads({ threads: 'auto', clients, pipeline }, cores);
    assert.equal(auto(50, 1, 2), 1);
    assert.equal(auto(50, 10, 16), 1);
    assert.equal(auto(8, 1, 16), 1);
    assert.equal(auto(50, 1, 8), 3);
    assert.equal(auto(200, 1, 16), 4);
    assert.equal(resolveThreads({ threads: 3, clients: 2, pipeline: 1 }, 2), 2);
    assert.equal(resolveThreads({ threads: 0, clients: 2, pipeline: 1 }, 2), 1);
  });
});
