// The bytes of `__value__`. Generated once per worker thread and sliced, so a value costs a copy at most,
// never a draw per byte per request. `random` (the default): seeded bytes 0–255, incompressible, as real
// payloads are (RDB/AOF sizes, replication and memory figures then are not those of perfectly
// compressible data). `redis-benchmark`: redis-benchmark 7's own generator (an LCG from state 1234
// writing characters '0'…'o'; redis-benchmark up to 6.0 wrote 'x'). Any other text: that literal,
// repeated to the value's size (`x` is the old redis-benchmark fill).
import type { ValueFill } from '../../scenario/plan';
import { Random } from './random';

const PAYLOAD_STREAM = 4;
/** Room beyond the largest value, so that values of one size start at different offsets. */
const SLACK = 4096;
/** Offsets of successive values advance by this (a prime, so they cycle through the slack). */
const STRIDE = 1031;

export const DEFAULT_VALUE_FILL: ValueFill = { kind: 'random' };

export class Payload {
  readonly bytes: Buffer;
  /** Values start at varying offsets only when the bytes differ by position (random). */
  private readonly varies: boolean;
  private cursor = 0;

  constructor(
    readonly fill: ValueFill,
    seed: number,
    readonly maxSize: number,
  ) {
    this.varies = fill.kind === 'random';
    const length = maxSize + (this.varies ? SLACK : 0);
    this.bytes = Buffer.allocUnsafe(Math.max(1, length));
    if (fill.kind === 'random') fillRandom(this.bytes, seed);
    else if (fill.kind === 'redis-benchmark') fillLikeRedisBenchmark(this.bytes);
    else fillLiteral(this.bytes, fill.text);
  }

  /** The next value of `size` bytes (a view: copy it before the next call if it must stay). */
  next(size: number): Buffer {
    if (!this.varies) return this.bytes.subarray(0, size);
    const start = this.cursor;
    this.cursor = (this.cursor + STRIDE) % SLACK;
    return this.bytes.subarray(start, start + size);
  }

  /** Where the next value starts; `rewind` to it makes the following values repeat (a group's commands share their values). */
  get position(): number {
    return this.cursor;
  }

  rewind(position: number): void {
    this.cursor = position;
  }

  /** Writes the next value of `size` bytes at `offset`. */
  writeInto(target: Uint8Array, offset: number, size: number): void {
    target.set(this.next(size), offset);
  }

  /** Whether the bytes are the same as text in a JS string (ASCII): ioredis then sends the cheaper string form. */
  get ascii(): boolean {
    return this.fill.kind !== 'random' && (this.fill.kind === 'redis-benchmark' || /^[\x20-\x7e]*$/.test(this.fill.text));
  }
}

function fillRandom(target: Buffer, seed: number): void {
  const random = new Random(seed, PAYLOAD_STREAM);
  let i = 0;
  for (; i + 4 <= target.length; i += 4) target.writeUInt32LE(random.nextUint32(), i);
  for (const last = random.nextUint32(); i < target.length; i++) target[i] = (last >>> ((i & 3) * 8)) & 0xff;
}

/** redis-benchmark's genBenchmarkRandomData: state = state * 1103515245 + 12345 (32-bit), byte '0' + ((state >> 16) & 63). */
function fillLikeRedisBenchmark(target: Buffer): void {
  let state = 1234;
  for (let i = 0; i < target.length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    target[i] = 48 + ((state >>> 16) & 63);
  }
}

function fillLiteral(target: Buffer, text: string): void {
  const bytes = Buffer.from(text.length > 0 ? text : 'x', 'utf8');
  for (let i = 0; i < target.length; i += bytes.length) bytes.copy(target, i, 0, Math.min(bytes.length, target.length - i));
}

const cache = new Map<string, Payload>();

/** One payload per fill, seed and size limit in a thread, shared by its connections. */
export function payloadFor(fill: ValueFill | undefined, seed: number, maxSize: number): Payload {
  const resolved = fill ?? DEFAULT_VALUE_FILL;
  const key = `${JSON.stringify(resolved)}:${seed}:${maxSize}`;
  let payload = cache.get(key);
  if (!payload) {
    // A worker runs one load; in-process callers (tests, tools) may run many: keep the cache small.
    if (cache.size > 8) cache.clear();
    cache.set(key, (payload = new Payload(resolved, seed, maxSize)));
  }
  return payload;
}
