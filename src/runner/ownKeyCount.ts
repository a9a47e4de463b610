// Counts the distinct keys of a SCAN that are the run's own (src/runner/ownKeys.ts: exactly the keys its commands
// create), read where they lie in the reply's bytes. A key of a shape whose numbers span a small space (`key:` and
// 12 digits below 100,000) is one bit of a bitmap indexed by those numbers: a key SCAN returns twice sets its bit
// once, and no key is hashed, kept or sorted (with 95k keys left, hashing and sorting them cost ~20 ms of every
// run's CPU). A key of a larger space is hashed (DistinctKeys); a shape the byte matcher cannot follow (an unpadded
// number right before a digit) is decoded and tested as the clean-up tests it (isOwnKey).
import { DistinctKeys } from './distinctKeys';
import { isOwnKey, type KeyShape, type NumberField } from './ownKeys';

/** Largest bitmap kept for one shape (bits): 16M keys, 2 MiB. */
const MAX_BITMAP_BITS = 1 << 24;

/** A shape as bytes: UTF-8 runs of literal characters and number fields. */
type Segment = Uint8Array | NumberField;

/**
 * A segment as the matcher reads it: one object shape for literals and numbers alike (no `instanceof`, no call
 * per segment), as up to 1,000 keys a run go through it before V8 has optimised it.
 */
interface Part {
  /** The literal's bytes; undefined for a number field. */
  literal: Uint8Array | undefined;
  /** A number field's digits when padded, else 0. */
  width: number;
  /** Most digits the number may have. */
  most: number;
  from: number;
  below: number;
  span: number;
}

interface ByteShape {
  parts: Part[];
  /** How many keys the shape names (the product of its number fields' spans). */
  space: number;
  bitmap?: Uint32Array;
}

export class OwnKeyCount {
  private readonly byteShapes: ByteShape[] = [];
  /** Shapes the byte matcher does not follow, tested on the decoded key. */
  private readonly decodedShapes: KeyShape[] = [];
  private readonly hashed = new DistinctKeys();
  private inBitmaps = 0;

  constructor(shapes: readonly KeyShape[]) {
    for (const shape of shapes) {
      const segments = byteSegments(shape);
      if (!segments) {
        this.decodedShapes.push(shape);
        continue;
      }
      const space = segments.reduce((product, segment) => (segment instanceof Uint8Array ? product : product * span(segment)), 1);
      const parts = segments.map(partOf);
      this.byteShapes.push({ parts, space, ...(space <= MAX_BITMAP_BITS ? { bitmap: new Uint32Array(Math.ceil(space / 32)) } : {}) });
    }
  }

  /** Keys looked at so far, a key seen twice counted twice: a bound on the work. */
  added = 0;

  /** Counts the key bytes[start … end) when it is one of the shapes'. */
  add(bytes: Uint8Array, start: number, end: number): void {
    this.added++;
    for (let s = 0; s < this.byteShapes.length; s++) {
      const shape = this.byteShapes[s];
      const index = indexIn(shape.parts, bytes, start, end);
      if (index < 0) continue;
      if (!shape.bitmap) return this.hashed.add(bytes, start, end);
      const word = index >>> 5;
      const bit = 1 << (index & 31);
      if ((shape.bitmap[word] & bit) === 0) {
        shape.bitmap[word] |= bit;
        this.inBitmaps++;
      }
      return;
    }
    if (this.decodedShapes.length > 0 && isOwnKey(this.decodedShapes, Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8')))
      this.hashed.add(bytes, start, end);
  }

  /** Distinct own keys counted. A key of two shapes at once is in the first one's bitmap only. */
  get size(): number {
    return this.inBitmaps + this.hashed.size;
  }
}

function span(field: NumberField): number {
  return Math.max(0, field.below - (field.from ?? 0));
}

/**
 * The shape as byte segments, or undefined when an unpadded number field is followed by a digit (or by another
 * number field): where it ends is then a choice the byte matcher does not make.
 */
function byteSegments(shape: KeyShape): Segment[] | undefined {
  const segments: Segment[] = [];
  let literal = '';
  for (const part of shape) {
    if (typeof part === 'string') {
      literal += part;
      continue;
    }
    if (literal) segments.push(Buffer.from(literal, 'utf8'));
    literal = '';
    segments.push(part);
  }
  if (literal) segments.push(Buffer.from(literal, 'utf8'));
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment instanceof Uint8Array || segment.width > 0) continue;
    const next = segments[i + 1];
    if (next !== undefined && (!(next instanceof Uint8Array) || isDigit(next[0]))) return undefined;
  }
  return segments;
}

function partOf(segment: Segment): Part {
  if (segment instanceof Uint8Array) return { literal: segment, width: 0, most: 0, from: 0, below: 0, span: 0 };
  const most = segment.width > 0 ? segment.width : String(Math.max(0, segment.below - 1)).length;
  return { literal: undefined, width: segment.width, most, from: segment.from ?? 0, below: segment.below, span: span(segment) };
}

/** The key's index among the shape's keys (its number fields in mixed radix), or -1 when it is not one of them. */
function indexIn(parts: readonly Part[], bytes: Uint8Array, start: number, end: number): number {
  let at = start;
  let index = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p];
    const literal = part.literal;
    if (literal !== undefined) {
      if (at + literal.length > end) return -1;
      for (let i = 0; i < literal.length; i++) if (bytes[at + i] !== literal[i]) return -1;
      at += literal.length;
      continue;
    }
    let digits = 0;
    let number = 0;
    for (; at + digits < end && digits < part.most; digits++) {
      const digit = bytes[at + digits] - 0x30;
      if (digit < 0 || digit > 9) break;
      number = number * 10 + digit;
    }
    if (part.width > 0 ? digits !== part.width : digits === 0 || (digits > 1 && bytes[at] === 0x30)) return -1;
    // An unpadded number longer than the largest one: the digits go on where the matcher stopped.
    if (part.width === 0 && at + digits < end && isDigit(bytes[at + digits])) return -1;
    if (number < part.from || number >= part.below) return -1;
    index = index * part.span + (number - part.from);
    at += digits;
  }
  return at === end ? index : -1;
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39;
}
