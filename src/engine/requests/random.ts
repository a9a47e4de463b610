// Seeded pseudo-random numbers and key distributions for the load generator. Everything here is on
// the hot path (one or two draws per request), so the generators are allocation-free and use 32-bit
// integer arithmetic that V8 compiles to machine instructions.
import type { KeyPlan } from '../../scenario/plan';
import { scenarioRequest } from '../requestBudget';

const TWO_POW_32 = 4294967296;
const TWO_POW_53 = 9007199254740992;

/** SplitMix32: turns any seed into well-mixed 32-bit words; used only to seed xoshiro. */
function splitMix32(state: { x: number }): number {
  state.x = (state.x + 0x9e3779b9) | 0;
  let z = state.x;
  z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
  return (z ^ (z >>> 15)) >>> 0;
}

/** SplitMix32's state while seeding (one per thread: seeding never nests). */
const SEEDING = { x: 0 };

/**
 * xoshiro128** (Blackman & Vigna): fast, small state, good statistical quality. Independent streams
 * come from hashing (seed, stream, connection) into the initial state.
 */
export class Random {
  private s0 = 0;
  private s1 = 0;
  private s2 = 0;
  private s3 = 0;

  constructor(seed: number, stream = 0, connection = 0) {
    this.reseed(seed, stream, connection);
  }

  /** Called once per batch of a count-mode load (claimed): allocates nothing. */
  reseed(seed: number, stream = 0, connection = 0): void {
    // Fold seeds beyond 32 bits so that every seed a user can write is significant.
    const low = seed >>> 0;
    const high = Math.floor(seed / TWO_POW_32) >>> 0;
    const state = SEEDING;
    state.x = low ^ Math.imul(high ^ 0x5bd1e995, 0x27d4eb2d);
    state.x ^= Math.imul(stream + 1, 0x85ebca6b);
    splitMix32(state);
    state.x ^= Math.imul(connection + 1, 0xc2b2ae35);
    // Stored as int32 (`| 0`, the same bits): the state fields then stay small integers, never boxed
    // doubles, which roughly halves the cost of each draw.
    this.s0 = splitMix32(state) | 0;
    this.s1 = splitMix32(state) | 0;
    this.s2 = splitMix32(state) | 0;
    this.s3 = splitMix32(state) | 0;
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1; // the all-zero state is a fixed point
  }

  /** Uniform 32-bit unsigned integer. */
  nextUint32(): number {
    const s1 = this.s1;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** Uniform double in [0, 1) with 53 random bits. */
  nextDouble(): number {
    const high = this.nextUint32() >>> 5;
    const low = this.nextUint32() >>> 6;
    return (high * 67108864 + low) / TWO_POW_53;
  }

  /** Uniform integer in [0, bound). */
  nextInt(bound: number): number {
    return Math.floor(this.nextDouble() * bound);
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** Draws key numbers in [0, space) following the plan's distribution. */
export interface KeySource {
  next(): number;
  /** Back to the first draw of the sequence (measuring starts with the same keys whatever the warm-up did). */
  restart(): void;
  /**
   * The next requests are numbers first, first+1, … of the load's shared budget (requestBudget.ts): sequential
   * keys follow those numbers; the seeded distributions draw from a stream seeded by `first`, so that a seed
   * gives the same requests whichever connection claims them.
   */
  claimed?(first: number): void;
}

export interface KeySourceContext {
  seed: number;
  /** Global connection index (0 … clients-1) across all threads. */
  connection: number;
  /** Total connections across all threads (the stride of the sequential distribution). */
  connections: number;
  /** The clients this machine runs, when a shard runs only some (firstClient … firstClient+clients-1): see scenarioRequest. */
  firstClient?: number;
  clients?: number;
}

const KEY_STREAM = 1;

export function createKeySource(plan: KeyPlan, context: KeySourceContext): KeySource {
  const space = Math.max(1, Math.floor(plan.space));
  switch (plan.distribution) {
    case 'sequential':
      return new SequentialKeys(space, context);
    case 'uniform':
      return new UniformKeys(space, context);
    case 'gaussian':
      return new GaussianKeys(space, plan.gaussianStddev, context);
    case 'zipf':
      return new ZipfKeys(space, plan.zipfExponent, context);
  }
}

/**
 * One global sequence 0, 1, 2, … shared by all connections and threads: request j of the scenario writes key
 * j (mod the space). Before any claim (warm-up, duration mode) connection c walks c, c+C, c+2C, … (C
 * connections) without coordination. In a count-mode load each batch claims request numbers from the shared
 * budget, and the keys follow them (claimed): N requests cover 0 … N-1 exactly, whatever share each
 * connection claims. A shard's numbers come in runs of its n clients, C apart (scenarioRequest).
 */
export class SequentialKeys implements KeySource {
  private readonly connection: number;
  private readonly stride: number;
  private readonly firstClient: number;
  private readonly clients: number;
  private current = 0;
  /** Keys in a run of consecutive numbers (1 while striding, the machine's clients once claimed), and the position in it. */
  private run = 1;
  private offset = 0;

  constructor(
    private readonly space: number,
    context: KeySourceContext,
  ) {
    this.connection = context.connection;
    this.stride = context.connections;
    this.firstClient = context.firstClient ?? 0;
    this.clients = context.clients ?? context.connections;
    this.restart();
  }

  next(): number {
    const key = this.current;
    if (++this.offset === this.run) {
      this.offset = 0;
      this.current += this.stride - this.run + 1;
    } else {
      this.current++;
    }
    if (this.current >= this.space) this.current %= this.space;
    return key;
  }

  restart(): void {
    this.current = this.connection % this.space;
    this.run = 1;
    this.offset = 0;
  }

  claimed(first: number): void {
    this.run = this.clients;
    this.offset = first % this.clients;
    this.current = scenarioRequest(first, this.firstClient, this.clients, this.stride) % this.space;
  }
}

class SeededKeys {
  protected readonly random: Random;

  constructor(private readonly context: KeySourceContext) {
    this.random = new Random(context.seed, KEY_STREAM, context.connection);
  }

  restart(): void {
    this.random.reseed(this.context.seed, KEY_STREAM, this.context.connection);
  }

  claimed(first: number): void {
    this.random.reseed(this.context.seed, KEY_STREAM, first);
  }
}

export class UniformKeys extends SeededKeys implements KeySource {
  constructor(
    private readonly space: number,
    context: KeySourceContext,
  ) {
    super(context);
  }

  next(): number {
    return this.random.nextInt(this.space);
  }
}

/** Normal distribution centred on the middle of the space, clamped to it (Marsaglia's polar method). */
export class GaussianKeys extends SeededKeys implements KeySource {
  private readonly mean: number;
  private readonly stddev: number;
  private spare = 0;
  private hasSpare = false;

  constructor(
    private readonly space: number,
    stddevFraction: number,
    context: KeySourceContext,
  ) {
    super(context);
    this.mean = (space - 1) / 2;
    this.stddev = stddevFraction * space;
  }

  next(): number {
    let z: number;
    if (this.hasSpare) {
      this.hasSpare = false;
      z = this.spare;
    } else {
      let u: number;
      let v: number;
      let s: number;
      do {
        u = this.random.nextDouble() * 2 - 1;
        v = this.random.nextDouble() * 2 - 1;
        s = u * u + v * v;
      } while (s >= 1 || s === 0);
      const factor = Math.sqrt((-2 * Math.log(s)) / s);
      this.spare = v * factor;
      this.hasSpare = true;
      z = u * factor;
    }
    const key = Math.round(this.mean + z * this.stddev);
    return key < 0 ? 0 : key >= this.space ? this.space - 1 : key;
  }

  override restart(): void {
    super.restart();
    this.hasSpare = false;
  }

  override claimed(first: number): void {
    super.claimed(first);
    this.hasSpare = false;
  }
}

/**
 * Zipf over ranks 1 … space by rejection-inversion (Hörmann & Derflinger 1996, as in Apache Commons
 * RNG): constant time and memory whatever the space (100M keys need no table). Rank r maps to key r-1,
 * so key 0 is the hottest.
 */
export class ZipfKeys extends SeededKeys implements KeySource {
  private readonly hIntegralX1: number;
  private readonly hIntegralSpace: number;
  private readonly s: number;

  constructor(
    private readonly space: number,
    private readonly exponent: number,
    context: KeySourceContext,
  ) {
    super(context);
    if (!(exponent > 0)) throw new Error(`zipf exponent must be > 0, got ${exponent}`);
    this.hIntegralX1 = this.hIntegral(1.5) - 1;
    this.hIntegralSpace = this.hIntegral(space + 0.5);
    this.s = 2 - this.hIntegralInverse(this.hIntegral(2.5) - this.h(2));
  }

  next(): number {
    return this.sample(this.random);
  }

  /** A key drawn with `random` (a drawn placeholder's own stream: draws.ts). */
  sample(random: Random): number {
    for (;;) {
      const u = this.hIntegralSpace + random.nextDouble() * (this.hIntegralX1 - this.hIntegralSpace);
      const x = this.hIntegralInverse(u);
      let k = Math.floor(x + 0.5);
      if (k < 1) k = 1;
      else if (k > this.space) k = this.space;
      if (k - x <= this.s || u >= this.hIntegral(k + 0.5) - this.h(k)) return k - 1;
    }
  }

  private h(x: number): number {
    return Math.exp(-this.exponent * Math.log(x));
  }

  private hIntegral(x: number): number {
    const logX = Math.log(x);
    return helper2((1 - this.exponent) * logX) * logX;
  }

  private hIntegralInverse(x: number): number {
    let t = x * (1 - this.exponent);
    if (t < -1) t = -1; // numerical safety near the boundary
    return Math.exp(helper1(t) * x);
  }
}

/** log1p(x)/x, accurate near 0. */
function helper1(x: number): number {
  return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1 - x * (0.5 - x * (1 / 3 - 0.25 * x));
}

/** expm1(x)/x, accurate near 0. */
function helper2(x: number): number {
  return Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1 + x * 0.5 * (1 + x * (1 / 3) * (1 + 0.25 * x));
}

/**
 * Picks an index with probability proportional to its weight in O(1): a lookup table filled by the
 * largest-remainder method. Integer weights with a small sum get an exact table (80/20 → 100 slots).
 */
export class WeightedTable {
  private readonly table: Uint16Array;
  private readonly entries: number;

  constructor(weights: number[]) {
    this.entries = weights.length;
    if (weights.length === 0) throw new Error('a weighted choice needs at least one entry');
    if (weights.length > 65535) throw new Error('too many weighted entries');
    if (weights.some((w) => !(w >= 0) || !Number.isFinite(w))) throw new Error('weights must be finite and >= 0');
    const sum = weights.reduce((a, b) => a + b, 0);
    if (!(sum > 0)) throw new Error('weights must not all be zero');
    const integral = weights.every((w) => Number.isInteger(w)) && sum <= 65536;
    const size = integral ? sum : 65536;
    const exact = weights.map((w) => (w / sum) * size);
    const slots = exact.map(Math.floor);
    let left = size - slots.reduce((a, b) => a + b, 0);
    const byRemainder = exact.map((e, i) => ({ i, r: e - Math.floor(e) })).sort((a, b) => b.r - a.r || a.i - b.i);
    for (let j = 0; left > 0; j++, left--) slots[byRemainder[j % byRemainder.length].i]++;
    this.table = new Uint16Array(size);
    let at = 0;
    slots.forEach((count, index) => {
      this.table.fill(index, at, at + count);
      at += count;
    });
  }

  pick(random: Random): number {
    return this.table[Math.floor((random.nextUint32() / TWO_POW_32) * this.table.length)];
  }

  /** The fraction of the table each entry gets (its effective probability). */
  shares(): number[] {
    const counts = new Array<number>(this.entries).fill(0);
    for (const index of this.table) counts[index]++;
    return counts.map((c) => c / this.table.length);
  }
}
