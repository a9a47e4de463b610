// The numbers of `__rand(…)__`, `__float(…)__` and `__range(…)__` (src/scenario/draws.ts), drawn per request on
// the general path of the encoder: each placeholder has its own space and distribution, independent of `keys`.
// Uniform and zipf draws take the connection's seeded `__rand_int__` stream (reseeded with the load's claims, so
// a seed gives the same numbers); a sequential draw walks its own space, connection c from c with a stride of
// the connections (one client: MIN, MIN+1, … exactly).
import type { ArgTemplate, DrawSpec } from '../../scenario/plan';
import { ZipfKeys, type Random } from './random';
import { drawMaxLength } from '../../scenario/draws';
import { SEND_STAMP_DIGITS, sendStampText } from '../sendStamp';

const DEFAULT_ZIPF_EXPONENT = 0.99;

/** One drawn placeholder's numbers for one connection (a range's two sides share one). */
export class NumberDraw {
  /** Whole numbers: how many values the (first) number takes. */
  private readonly count: number;
  private readonly low: number;
  private readonly span: number;
  private readonly zipf: ZipfKeys | undefined;
  private position = 0;
  /** A range's first number, for its second side. */
  private pairLow = 0;

  constructor(
    readonly spec: DrawSpec,
    private readonly connection: number,
    private readonly connections: number,
  ) {
    this.low = spec.min;
    this.span = spec.max - (spec.width ?? 0) - spec.min;
    this.count = spec.decimals > 0 ? 0 : this.span + 1;
    this.zipf = spec.distribution === 'zipf' ? new ZipfKeys(this.count, DEFAULT_ZIPF_EXPONENT, { seed: 0, connection: 0, connections: 1 }) : undefined;
    this.restart();
  }

  restart(): void {
    this.position = this.connection % Math.max(1, this.count);
  }

  /** The next number (a range: its first); decimals are rounded to the spec's, so the text is exact. */
  next(random: Random): number {
    const spec = this.spec;
    let value: number;
    if (spec.decimals > 0) {
      value = Number((this.low + random.nextDouble() * this.span).toFixed(spec.decimals));
    } else if (spec.distribution === 'sequential') {
      value = this.low + this.position;
      this.position += this.connections;
      if (this.position >= this.count) this.position %= this.count;
    } else if (this.zipf) {
      value = this.low + this.zipf.sample(random);
    } else {
      value = this.low + random.nextInt(this.count);
    }
    this.pairLow = value;
    return value;
  }

  /** A range's second number: the first plus the width. */
  high(): number {
    return Number((this.pairLow + (this.spec.width ?? 0)).toFixed(this.spec.decimals));
  }

  text(value: number): string {
    return this.spec.decimals > 0 ? value.toFixed(this.spec.decimals) : String(value);
  }
}

/** Where an argument's text comes from: literal text, the request's key, `__rand_int__`, or a drawn number (`min`: draw it; `max`: its range's second). */
type Piece = string | { kind: 'key' } | { kind: 'rand' } | { kind: 'now' } | { kind: 'draw'; draw: NumberDraw; side: 'min' | 'max' | undefined };

/**
 * An argument holding drawn numbers, written as text per request. The draws of one command live in `draws`, one
 * per placeholder as written: a range's two arguments share it (the second side reads the first's number), and so
 * do the copies of `( … )*N` (a sequential walk goes on across them). By the text, not the object: a plan read back
 * from JSON (a run file, a shard's plan) draws the same.
 */
export class DrawnArgument {
  private readonly pieces: Piece[] = [];

  /** `widths`: the digits of `__key__` and `__rand_int__` (templateEncoder's). */
  constructor(
    parts: ArgTemplate,
    private readonly widths: { key: number; rand: number },
    client: number,
    draws: Map<string, NumberDraw>,
    connections: number,
  ) {
    for (const part of parts) {
      if (typeof part === 'string') this.pieces.push(part);
      else if (part.placeholder === 'client') this.pieces.push(String(client));
      else if (part.placeholder === 'key') this.pieces.push({ kind: 'key' });
      else if (part.placeholder === 'rand_int') this.pieces.push({ kind: 'rand' });
      else if (part.placeholder === 'now') this.pieces.push({ kind: 'now' });
      else if (part.draw) {
        let draw = draws.get(part.draw.text);
        if (!draw) draws.set(part.draw.text, (draw = new NumberDraw(part.draw, client, connections)));
        this.pieces.push({ kind: 'draw', draw, side: part.side });
      }
      // `__value__` beside a drawn number is refused by the checker (arguments.ts).
    }
  }

  /** The argument's text for a request with key number `key`; `__rand_int__` in [0, randBound). */
  text(key: number, random: Random, randBound: number): string {
    let text = '';
    for (const piece of this.pieces) {
      if (typeof piece === 'string') text += piece;
      else if (piece.kind === 'key') text += String(key).padStart(this.widths.key, '0');
      else if (piece.kind === 'rand') text += String(random.nextInt(randBound)).padStart(this.widths.rand, '0');
      else if (piece.kind === 'now') text += sendStampText();
      else if (piece.side === 'max') text += piece.draw.text(piece.draw.high());
      else text += piece.draw.text(piece.draw.next(random));
    }
    return text;
  }

  /** The most bytes `text` can be (UTF-8 literals included). */
  maxLength(): number {
    let length = 0;
    for (const piece of this.pieces) {
      if (typeof piece === 'string') length += Buffer.byteLength(piece, 'utf8');
      else if (piece.kind === 'key') length += this.widths.key;
      else if (piece.kind === 'rand') length += this.widths.rand;
      else if (piece.kind === 'now') length += SEND_STAMP_DIGITS;
      else length += drawMaxLength(piece.draw.spec);
    }
    return length;
  }
}

/** True when an argument holds a drawn number. */
export function hasDraw(parts: ArgTemplate): boolean {
  return parts.some((part) => typeof part !== 'string' && part.placeholder === 'draw');
}
