// Encoding of command templates into RESP bytes. A template is compiled once per connection into a
// short program of literal byte runs and fixed-width slots; for a fixed value size the whole command is
// encoded once and only the slots (key digits, random integers) are rewritten before each send.
import type { CommandTemplate, Placeholder } from '../../scenario/plan';
import type { Payload } from './payload';
import type { KeySource, Random } from './random';
import type { TableCursor, TtlDraw } from './tableValues';
import { DrawnArgument, hasDraw, type NumberDraw } from './draws';
import { SEND_STAMP_DIGITS, writeSendStamp } from '../sendStamp';

/** `__rand_int__` expands to 12 digits, as in redis-benchmark. */
export const RAND_INT_WIDTH = 12;
/** Value bytes when no payload is given (redis-benchmark ≤ 6.0's fill; the engine passes a Payload). */
export const VALUE_BYTE = 0x78;

/** ASCII digits of 000 … 999, three bytes each: key and `__rand_int__` digits are written three at a time. */
const DIGIT_TRIPLES = (() => {
  const table = new Uint8Array(3000);
  for (let i = 0; i < 1000; i++) {
    table[3 * i] = 48 + Math.floor(i / 100);
    table[3 * i + 1] = 48 + (Math.floor(i / 10) % 10);
    table[3 * i + 2] = 48 + (i % 10);
  }
  return table;
})();

/** Writes `value` as exactly `width` decimal digits, left-padded with '0' (the slot width always fits the largest value). */
export function writeDigits(target: Uint8Array, offset: number, width: number, value: number): void {
  if (value > 0x7fffffff) {
    writeLargeDigits(target, offset, width, value);
    return;
  }
  // Hot path (a key and a random integer per request): three digits per division. The value is made an
  // int32 first: a draw arrives as a double (Math.floor), and V8 then divides in floating point, twice
  // as slow as the int32 division by a constant it compiles to a multiplication.
  let rest = value | 0;
  let at = offset + width;
  while (at - offset >= 3) {
    const quotient = (rest / 1000) | 0;
    const triple = (rest - quotient * 1000) * 3;
    target[at - 3] = DIGIT_TRIPLES[triple];
    target[at - 2] = DIGIT_TRIPLES[triple + 1];
    target[at - 1] = DIGIT_TRIPLES[triple + 2];
    rest = quotient;
    at -= 3;
  }
  while (at > offset) {
    const quotient = (rest / 10) | 0;
    target[--at] = 48 + (rest - quotient * 10);
    rest = quotient;
  }
}

/** writeDigits beyond int32 (float division). */
function writeLargeDigits(target: Uint8Array, offset: number, width: number, value: number): void {
  let at = offset + width;
  while (at - offset >= 3) {
    const quotient = Math.floor(value / 1000);
    const triple = (value - quotient * 1000) * 3;
    target[at - 3] = DIGIT_TRIPLES[triple];
    target[at - 2] = DIGIT_TRIPLES[triple + 1];
    target[at - 1] = DIGIT_TRIPLES[triple + 2];
    value = quotient;
    at -= 3;
  }
  while (at > offset) {
    const quotient = Math.floor(value / 10);
    target[--at] = 48 + (value - quotient * 10);
    value = quotient;
  }
}

export function decimalDigits(value: number): number {
  return Math.max(1, String(Math.floor(Math.max(0, value))).length);
}

const enum Op {
  Literal,
  /** `$<length>\r\n` of an argument whose length depends on the value size. */
  ArgHeader,
  Key,
  RandInt,
  Value,
  /** `__fields__`: a data row's field/value bulk strings, encoded once when the table was read. */
  Fields,
  /** The expiry `ttl` adds: a whole bulk string, its digits drawn per request. */
  Ttl,
  /** An argument holding drawn numbers (`__rand(…)__`…): its text written per request, header and all. */
  Drawn,
  /** `__now__`: the send stamp, 16 digits of the clock as the request is written. */
  Now,
}

export interface CommandContext {
  /** Digits of `__key__` (KeyPlan.size, widened to fit the largest key number). */
  keyWidth: number;
  /** Global connection index, what `__client__` expands to. */
  client: number;
  /** Where value bytes come from; absent: VALUE_BYTE repeated. */
  payload?: Payload;
  /** `values from FILE`: the value is the entry the batch builder selected (it replaces the payload). */
  values?: TableCursor;
  /** `fields from FILE`: the row `__fields__` expands to. */
  fields?: TableCursor;
  /** `ttl`: the expiry drawn for the `ttl` placeholder. */
  ttl?: TtlDraw;
  /** Connections of the whole load: a sequential drawn number's stride (absent: 1). */
  connections?: number;
  /** A test whose commands run in sequence (TestPlan.sequence): which command each request sends. */
  order?: KeySource;
}

/** Where the rewritable slots of an encoding are, relative to its start. */
export interface CommandLayout {
  bytes: Buffer;
  keySlots: number[];
  randSlots: number[];
}

/** One command template compiled for one connection. */
export class CompiledCommand {
  readonly hasKey: boolean;
  readonly hasValue: boolean;
  readonly hasFields: boolean;
  readonly hasTtl: boolean;
  /** Holds drawn numbers (`__rand(…)__`, `__float(…)__`, `__range(…)__`): encoded per request, never laid out. */
  readonly hasDraws: boolean;
  /** Holds `__now__`: encoded per request (the stamp is the time of writing, never of a laid-out copy). */
  readonly hasNow: boolean;
  private readonly ops: Op[] = [];
  /** Op.Drawn's argument, by op index. */
  private readonly drawnArgs: (DrawnArgument | undefined)[] = [];
  /** The command's drawn numbers, one per placeholder. */
  private readonly draws = new Map<string, NumberDraw>();
  /** Literal bytes for Op.Literal; [fixed length, number of values] for Op.ArgHeader; unused otherwise. */
  private readonly literals: (Buffer | undefined)[] = [];
  private readonly argFixed: number[] = [];
  private readonly argValues: number[] = [];
  /** `values from FILE`: read once here, not from the context on every value. */
  private readonly tableValues: TableCursor | undefined;

  constructor(
    readonly template: CommandTemplate,
    readonly labelIndex: number,
    private readonly context: CommandContext,
  ) {
    let literal = '';
    const flush = () => {
      if (literal) this.push(Op.Literal, Buffer.from(literal, 'utf8'));
      literal = '';
    };
    this.tableValues = context.values;
    let hasKey = false;
    let hasValue = false;
    let hasFields = false;
    let hasTtl = false;
    let hasNow = false;
    /** Literal text and the client number join the pending literal; other placeholders become slots. */
    const emitParts = (parts: CommandTemplate['args'][number]) => {
      for (const part of parts) {
        if (typeof part === 'string') {
          literal += part;
        } else if (part.placeholder === 'fields' || part.placeholder === 'ttl') {
          // Whole arguments only (the checker refuses them inside another): see below.
        } else if (part.placeholder === 'client') {
          literal += String(context.client);
        } else {
          flush();
          if (part.placeholder === 'key') hasKey = true;
          if (part.placeholder === 'value') hasValue = true;
          if (part.placeholder === 'now') hasNow = true;
          this.push(placeholderOp(part.placeholder));
        }
      }
    };
    const args = [[template.name], ...template.args];
    const drawnArg = (parts: CommandTemplate['args'][number]) => {
      flush();
      if (parts.some((part) => typeof part !== 'string' && part.placeholder === 'key')) hasKey = true;
      const widths = { key: context.keyWidth, rand: RAND_INT_WIDTH };
      this.push(Op.Drawn);
      this.drawnArgs[this.ops.length - 1] = new DrawnArgument(parts, widths, context.client, this.draws, context.connections ?? 1);
    };
    const hasDraws = template.args.some(hasDraw);
    if (template.inline) {
      args.forEach((parts, argIndex) => {
        if (argIndex > 0) literal += ' ';
        if (hasDraw(parts)) drawnArg(parts);
        else emitParts(parts);
      });
      literal += '\r\n';
      flush();
    } else {
      const wholeArg = (parts: CommandTemplate['args'][number], placeholder: 'fields' | 'ttl') =>
        parts.length === 1 && typeof parts[0] !== 'string' && parts[0].placeholder === placeholder;
      // A row stands for its pairs: two RESP arguments each.
      const rowArgs = 2 * (context.fields?.pairs ?? 0);
      const count = args.reduce((sum, parts) => sum + (wholeArg(parts, 'fields') ? rowArgs : 1), 0);
      literal += `*${count}\r\n`;
      for (const parts of args) {
        if (wholeArg(parts, 'fields')) {
          flush();
          hasFields = true;
          this.push(Op.Fields);
          continue;
        }
        if (wholeArg(parts, 'ttl')) {
          flush();
          hasTtl = true;
          this.push(Op.Ttl);
          literal += '\r\n';
          continue;
        }
        if (hasDraw(parts)) {
          drawnArg(parts);
          literal += '\r\n';
          continue;
        }
        // Fixed part of the argument's length: literals plus fixed-width slots; values add their size.
        let fixedLength = 0;
        let values = 0;
        for (const part of parts) {
          if (typeof part === 'string') fixedLength += Buffer.byteLength(part, 'utf8');
          else if (part.placeholder === 'client') fixedLength += Buffer.byteLength(String(context.client));
          else if (part.placeholder === 'key') fixedLength += context.keyWidth;
          else if (part.placeholder === 'rand_int') fixedLength += RAND_INT_WIDTH;
          else if (part.placeholder === 'now') fixedLength += SEND_STAMP_DIGITS;
          else values++;
        }
        if (values === 0) {
          literal += `$${fixedLength}\r\n`;
        } else {
          hasValue = true;
          flush();
          this.push(Op.ArgHeader, undefined, fixedLength, values);
        }
        emitParts(parts);
        literal += '\r\n';
      }
      flush();
    }
    this.hasKey = hasKey;
    this.hasValue = hasValue;
    this.hasFields = hasFields;
    this.hasTtl = hasTtl;
    this.hasDraws = hasDraws;
    this.hasNow = hasNow;
  }

  /** Sequential drawn numbers back to their first (measuring starts from the same numbers whatever the warm-up did). */
  restartDraws(): void {
    for (const draw of this.draws.values()) draw.restart();
  }

  /** Bytes this command takes with a value of `valueSize` bytes. */
  encodedLength(valueSize: number): number {
    let length = 0;
    for (let i = 0; i < this.ops.length; i++) {
      switch (this.ops[i]) {
        case Op.Literal:
          length += this.literals[i]!.length;
          break;
        case Op.ArgHeader:
          length += 3 + decimalDigits(this.argFixed[i] + this.argValues[i] * valueSize);
          break;
        case Op.Key:
          length += this.context.keyWidth;
          break;
        case Op.RandInt:
          length += RAND_INT_WIDTH;
          break;
        case Op.Now:
          length += SEND_STAMP_DIGITS;
          break;
        case Op.Value:
          length += valueSize;
          break;
        case Op.Fields:
          length += this.context.fields?.maxLength ?? 0;
          break;
        case Op.Ttl: {
          const digits = this.context.ttl?.maxDigits ?? 1;
          length += 3 + decimalDigits(digits) + digits;
          break;
        }
        case Op.Drawn: {
          const most = this.drawnArgs[i]!.maxLength();
          length += this.template.inline ? most : 3 + decimalDigits(most) + most;
          break;
        }
      }
    }
    return length;
  }

  /**
   * Encodes the command at `offset` with a value of `valueSize` bytes, key number `key` and
   * `__rand_int__` draws in [0, randBound) from `random`; returns the offset after it.
   */
  encodeInto(target: Uint8Array, offset: number, valueSize: number, key: number, random: Random, randBound: number): number {
    const ops = this.ops;
    for (let i = 0; i < ops.length; i++) {
      switch (ops[i]) {
        case Op.Literal: {
          const bytes = this.literals[i]!;
          target.set(bytes, offset);
          offset += bytes.length;
          break;
        }
        case Op.ArgHeader: {
          const length = this.argFixed[i] + this.argValues[i] * valueSize;
          const digits = decimalDigits(length);
          target[offset] = 36; // $
          writeDigits(target, offset + 1, digits, length);
          target[offset + 1 + digits] = 13;
          target[offset + 2 + digits] = 10;
          offset += 3 + digits;
          break;
        }
        case Op.Key:
          writeDigits(target, offset, this.context.keyWidth, key);
          offset += this.context.keyWidth;
          break;
        case Op.RandInt:
          writeDigits(target, offset, RAND_INT_WIDTH, random.nextInt(randBound));
          offset += RAND_INT_WIDTH;
          break;
        case Op.Now:
          writeSendStamp(target, offset);
          offset += SEND_STAMP_DIGITS;
          break;
        case Op.Value:
          this.writeValue(target, offset, valueSize);
          offset += valueSize;
          break;
        case Op.Fields:
          if (this.context.fields) offset = this.context.fields.writeInto(target, offset);
          break;
        case Op.Ttl: {
          const ttl = this.context.ttl ? this.context.ttl.next(random) : 1;
          const digits = decimalDigits(ttl);
          const lengthDigits = decimalDigits(digits);
          target[offset] = 36; // $
          writeDigits(target, offset + 1, lengthDigits, digits);
          target[offset + 1 + lengthDigits] = 13;
          target[offset + 2 + lengthDigits] = 10;
          writeDigits(target, offset + 3 + lengthDigits, digits, ttl);
          offset += 3 + lengthDigits + digits;
          break;
        }
        case Op.Drawn:
          offset = this.writeDrawn(i, target, offset, key, random, randBound);
          break;
      }
    }
    return offset;
  }

  /** Op.Drawn: the argument's text drawn now, as a bulk string (inline: as it is). */
  private writeDrawn(i: number, target: Uint8Array, offset: number, key: number, random: Random, randBound: number): number {
    const bytes = Buffer.from(this.drawnArgs[i]!.text(key, random, randBound), 'utf8');
    if (!this.template.inline) {
      const digits = decimalDigits(bytes.length);
      target[offset] = 36; // $
      writeDigits(target, offset + 1, digits, bytes.length);
      target[offset + 1 + digits] = 13;
      target[offset + 2 + digits] = 10;
      offset += 3 + digits;
    }
    target.set(bytes, offset);
    return offset + bytes.length;
  }

  /** The encoding for a fixed value size with key and random slots zeroed, and where those slots are. */
  layout(valueSize: number): CommandLayout {
    const bytes = Buffer.alloc(this.encodedLength(valueSize));
    const keySlots: number[] = [];
    const randSlots: number[] = [];
    let offset = 0;
    for (let i = 0; i < this.ops.length; i++) {
      const op = this.ops[i];
      if (op === Op.Key) keySlots.push(offset);
      if (op === Op.RandInt) randSlots.push(offset);
      offset = this.encodeOp(i, bytes, offset, valueSize);
    }
    return { bytes, keySlots, randSlots };
  }

  private encodeOp(i: number, target: Uint8Array, offset: number, valueSize: number): number {
    const op = this.ops[i];
    // Drawn per request: a command holding them is never laid out (BatchBuilder).
    if (op === Op.Fields || op === Op.Ttl || op === Op.Drawn || op === Op.Now)
      throw new Error('a data row, an expiry, a drawn number or a send stamp cannot be laid out once');
    if (op === Op.Literal) {
      target.set(this.literals[i]!, offset);
      return offset + this.literals[i]!.length;
    }
    if (op === Op.Key) {
      writeDigits(target, offset, this.context.keyWidth, 0);
      return offset + this.context.keyWidth;
    }
    if (op === Op.RandInt) {
      writeDigits(target, offset, RAND_INT_WIDTH, 0);
      return offset + RAND_INT_WIDTH;
    }
    if (op === Op.Value) {
      this.writeValue(target, offset, valueSize);
      return offset + valueSize;
    }
    const length = this.argFixed[i] + this.argValues[i] * valueSize;
    const header = Buffer.from(`$${length}\r\n`);
    target.set(header, offset);
    return offset + header.length;
  }

  private writeValue(target: Uint8Array, offset: number, size: number): void {
    const payload = this.context.payload;
    // A data file's value: the entry selected for this request (its size is the one drawn).
    if (this.tableValues) this.tableValues.writeInto(target, offset);
    else if (payload) payload.writeInto(target, offset, size);
    else target.fill(VALUE_BYTE, offset, offset + size);
  }

  private push(op: Op, literal?: Buffer, fixedLength = 0, values = 0): void {
    this.ops.push(op);
    this.drawnArgs.push(undefined);
    this.literals.push(literal);
    this.argFixed.push(fixedLength);
    this.argValues.push(values);
  }
}

function placeholderOp(placeholder: Placeholder): Op {
  return placeholder === 'key' ? Op.Key : placeholder === 'rand_int' ? Op.RandInt : placeholder === 'now' ? Op.Now : Op.Value;
}
