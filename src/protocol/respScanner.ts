// A streaming RESP2/RESP3 reply counter. It walks incoming chunks byte by byte, keeps only a few
// integers of state between chunks (a reply may be split anywhere, even inside "\r\n"), skips bulk
// payloads by length, and allocates nothing per reply. Error replies are the exception: their text is
// kept (bounded) so results can show what went wrong, grouped by kind (first word: OOM, WRONGTYPE, …).

const CR = 13;
const LF = 10;

const enum State {
  /** Expecting the type byte of the next value. */
  Type,
  /** Inside a simple line (+ - : , # _ ( ), up to "\n". */
  Line,
  /** Inside the length of a bulk string or aggregate, up to "\n". */
  Length,
  /** Inside a bulk payload, skipped by count. */
  Body,
  /** The "\r\n" after a bulk payload: checked, so a wrong length fails instead of miscounting. */
  BodyEnd,
}

const enum LengthOf {
  Bulk,
  BulkError,
  Array,
  Map,
  Attribute,
  Push,
}

const enum Frame {
  Normal,
  /** `|` attributes precede a value and are not elements of their parent. */
  Attribute,
  /** A top-level `>` push is out-of-band data, not a reply to a command. */
  Push,
}

/** Longest error text kept; Redis errors are short, and a bound keeps a hostile reply harmless. */
const MAX_ERROR_TEXT = 512;
/** Redis's own limit on a bulk string (`proto-max-bulk-len`, 512 MB by default). */
export const MAX_BULK_LENGTH = 512 * 1024 * 1024;
/** Aggregates longer than this cannot be real (a map's count is doubled in an Int32Array). */
export const MAX_AGGREGATE_LENGTH = 2 ** 30 - 1;
/** Bulk lengths the fast lane reads: up to 9 digits (the 512 MB limit has 9). */
const MAX_FAST_LENGTH_DIGITS = 9;
/** Nesting deeper than this is a hostile server, not a reply: the stack would grow without bound. */
export const MAX_NESTING = 4096;

/** The server broke RESP: the connection cannot be read any further. */
export class RespProtocolError extends Error {
  /** Replies completed in the failing scan() call before the bad byte: they were answered. */
  completedReplies = 0;

  constructor(detail: string) {
    super(`protocol error: ${detail} — the reply is not valid RESP: is it a Redis server, on the right port?`);
  }
}

function describeByte(byte: number): string {
  return `byte ${byte} (${JSON.stringify(String.fromCharCode(byte))})`;
}

export type ErrorListener = (kind: string, text: string, replyIndex: number) => void;

/** The whole number written in chunk[from … to) (digits only; a sign is skipped). */
function digitsBetween(chunk: Uint8Array, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) if (chunk[i] >= 48 && chunk[i] <= 57) value = value * 10 + (chunk[i] - 48);
  return value;
}

export class ReplyScanner {
  /** Called for every top-level error reply; replyIndex counts replies completed earlier in the same scan() call. */
  onError: ErrorListener | undefined;
  /** Called for every top-level null reply (`*-1`, `$-1`, `_`): a nil EXEC is an aborted transaction. */
  onNull: ((replyIndex: number) => void) | undefined;
  /** Called for every top-level empty array, set or map (`*0`, `~0`, `%0`): an absent key's HGETALL or LRANGE (a miss). */
  onEmpty: ((replyIndex: number) => void) | undefined;
  /**
   * Also report an error one level inside a top-level array, as an error of that reply (the first one only):
   * EXEC's reply holds the replies of the queued commands, and one of them may be an error.
   */
  nestedErrors = false;
  /**
   * Called for a nil or an empty array/set/map one level inside a top-level array (`element` counts from 0): an MGET
   * key not found, or the reply of a command queued in a transaction, inside EXEC's. Off the fast lane, as aggregates are.
   */
  onNestedMiss: ((replyIndex: number, element: number, empty: boolean) => void) | undefined;
  /**
   * Called for a nil two levels down: inside array element `element` of a top-level array. An MGET queued in a
   * transaction: its keys not found are nils in its element of EXEC's reply. Off the fast lane, as aggregates are.
   */
  onDeepNil: ((replyIndex: number, element: number) => void) | undefined;
  /** Elements of the top-level aggregate being read (onNestedMiss numbers them). */
  private topLength = 0;
  /** Called with every top-level integer reply's value (PUBLISH's receivers); off the fast lane only when the integer is cut by the chunk. */
  onInteger: ((value: number) => void) | undefined;
  private integerPending = false;
  private integerValue = 0;

  private state = State.Type;
  private lengthOf = LengthOf.Bulk;
  private length = 0;
  private negative = false;
  private digits = 0;
  /** The last byte of a line or length was "\r" (it may end one chunk while "\n" starts the next). */
  private afterCR = false;
  private bodyLeft = 0;
  private remaining = new Int32Array(16);
  private frames = new Uint8Array(16);
  private depth = 0;
  private elements = 0;
  // Error capture (top-level `-` line or `!` bulk error).
  private capturing = false;
  private errorPending = false;
  private readonly errorBytes = new Uint8Array(MAX_ERROR_TEXT);
  private errorLength = 0;
  private errorBodyLeft = 0;
  private repliesThisScan = 0;
  private nullPending = false;

  /** Forget any partial reply (after a reconnect). */
  reset(): void {
    this.state = State.Type;
    this.depth = 0;
    this.elements = 0;
    this.capturing = false;
    this.errorPending = false;
    this.errorLength = 0;
    this.errorBodyLeft = 0;
    this.nullPending = false;
    this.integerPending = false;
    this.bodyLeft = 0;
    this.afterCR = false;
  }

  /**
   * Elements the reply being read declared so far: the lengths of its aggregates, summed (a map's pairs count
   * twice). A reader that builds the reply (ioredis) allocates by these before the elements arrive.
   */
  get declaredElements(): number {
    return this.elements;
  }

  /** True when no reply is partially read. */
  get idle(): boolean {
    return this.state === State.Type && this.depth === 0;
  }

  /** Consumes chunk[0 … length); returns the number of top-level replies it completed. */
  scan(chunk: Uint8Array, length = chunk.length): number {
    this.repliesThisScan = 0;
    try {
      this.walk(chunk, length);
    } catch (error) {
      if (error instanceof RespProtocolError) error.completedReplies = this.repliesThisScan;
      throw error;
    }
    return this.repliesThisScan;
  }

  private walk(chunk: Uint8Array, length: number): void {
    const end = length;
    let i = 0;
    while (i < end) {
      switch (this.state) {
        case State.Type: {
          if (this.depth === 0) {
            i = this.skipWholeReplies(chunk, i, end);
            if (i === end) break;
          }
          const type = chunk[i++];
          switch (type) {
            case 58: // : integer
              this.state = State.Line;
              if (this.depth === 0 && this.onInteger) {
                this.integerPending = true;
                this.integerValue = 0;
              }
              break;
            case 43: // + simple string
            case 44: // , double
            case 35: // # boolean
            case 40: // ( big number
              this.state = State.Line;
              break;
            case 95: // _ null
              this.state = State.Line;
              if (this.depth === 0 && this.onNull) this.nullPending = true;
              else if (this.depth === 1 && this.onNestedMiss) this.nestedMiss(false);
              else if (this.depth === 2 && this.onDeepNil) this.deepNil();
              break;
            case 45: // - error
              this.state = State.Line;
              if (this.depth === 0 || this.capturesNested()) this.startErrorCapture();
              break;
            case 10:
            case 13:
              throw new RespProtocolError(`empty line (${describeByte(type)}) where a reply should start`);
            case 36: // $ bulk string
            case 61: // = verbatim string
              this.startLength(LengthOf.Bulk);
              break;
            case 33: // ! bulk error
              this.startLength(LengthOf.BulkError);
              break;
            case 42: // * array
            case 126: // ~ set
              this.startLength(LengthOf.Array);
              break;
            case 37: // % map
              this.startLength(LengthOf.Map);
              break;
            case 124: // | attribute
              this.startLength(LengthOf.Attribute);
              break;
            case 62: // > push
              this.startLength(LengthOf.Push);
              break;
            default:
              throw new RespProtocolError(`unexpected ${describeByte(type)} where a reply should start`);
          }
          break;
        }
        case State.Line: {
          const start = i;
          if (this.capturing) {
            while (i < end && chunk[i] !== LF) {
              const byte = chunk[i++];
              if (byte !== CR && this.errorLength < MAX_ERROR_TEXT) this.errorBytes[this.errorLength++] = byte;
            }
          } else if (this.integerPending) {
            while (i < end && chunk[i] !== LF) {
              const byte = chunk[i++];
              if (byte >= 48 && byte <= 57) this.integerValue = this.integerValue * 10 + (byte - 48);
            }
          } else {
            while (i < end && chunk[i] !== LF) i++;
          }
          if (i === end) {
            if (i > start) this.afterCR = chunk[i - 1] === CR;
            break;
          }
          // A line ends with "\r\n"; a bare "\n" means the stream is not what it seems.
          if (!(i > start ? chunk[i - 1] === CR : this.afterCR)) throw new RespProtocolError('a line ends in "\\n" without "\\r"');
          i++;
          this.afterCR = false;
          this.capturing = false;
          if (this.integerPending) {
            this.integerPending = false;
            this.onInteger!(this.integerValue);
          }
          this.state = State.Type;
          this.elementDone();
          break;
        }
        case State.Length: {
          while (i < end) {
            const byte = chunk[i++];
            if (byte >= 48 && byte <= 57 && !this.afterCR) {
              this.length = this.length * 10 + (byte - 48);
              this.digits++;
              // Checked per digit: a hostile length must not grow past what a double holds exactly.
              if (this.length > this.lengthLimit()) this.failLength(`${this.negative ? '-' : ''}${this.length}…`);
            } else if (byte === LF && this.afterCR) {
              this.afterCR = false;
              this.lengthDone();
              break;
            } else if (byte === CR && !this.afterCR && this.digits > 0) {
              this.afterCR = true;
            } else if (byte === 45 && this.digits === 0 && !this.negative) {
              this.negative = true;
            } else {
              // '?' would start a RESP3 streamed string, which Redis never sends to a client.
              throw new RespProtocolError(`unexpected ${describeByte(byte)} in a length`);
            }
          }
          break;
        }
        case State.Body: {
          const take = Math.min(this.bodyLeft, end - i);
          if (this.errorBodyLeft > 0) {
            const copy = Math.min(take, this.errorBodyLeft);
            for (let j = 0; j < copy && this.errorLength < MAX_ERROR_TEXT; j++) this.errorBytes[this.errorLength++] = chunk[i + j];
            this.errorBodyLeft -= copy;
          }
          i += take;
          this.bodyLeft -= take;
          if (this.bodyLeft === 0) this.state = State.BodyEnd;
          break;
        }
        case State.BodyEnd: {
          const byte = chunk[i++];
          if (!this.afterCR && byte === CR) {
            this.afterCR = true;
          } else if (this.afterCR && byte === LF) {
            this.afterCR = false;
            this.state = State.Type;
            this.elementDone();
          } else {
            throw new RespProtocolError(`a bulk string is longer than its length said (${describeByte(byte)} where "\\r\\n" should end it)`);
          }
          break;
        }
      }
    }
  }

  /**
   * The fast lane for what a load gets back: simple strings, integers and bulk strings at top level (OK,
   * a counter, a GET's value), each read whole while it lies entirely in the chunk and is well formed.
   * It stops at the first byte of any other reply (errors, nulls, aggregates, a reply the chunk cuts, or
   * a malformed one), which the state machine then reads byte by byte and judges as before.
   */
  private skipWholeReplies(chunk: Uint8Array, start: number, end: number): number {
    let i = start;
    let replies = this.repliesThisScan;
    while (i < end) {
      const type = chunk[i];
      if (type === 43 || type === 58) {
        // + simple string, : integer: up to "\r\n".
        let lf = i + 1;
        while (lf < end && chunk[lf] !== LF) lf++;
        if (lf === end || chunk[lf - 1] !== CR || lf - 1 === i) break;
        if (type === 58 && this.onInteger) this.onInteger(digitsBetween(chunk, i + 1, lf - 1));
        i = lf + 1;
      } else if (type === 36) {
        // $ bulk string: a length of 1 to 9 digits (below Redis's 512 MB limit), "\r\n", the payload, "\r\n".
        let at = i + 1;
        let length = 0;
        while (at < end && at - i <= MAX_FAST_LENGTH_DIGITS) {
          const byte = chunk[at];
          if (byte < 48 || byte > 57) break;
          length = length * 10 + (byte - 48);
          at++;
        }
        if (at === i + 1 || length > MAX_BULK_LENGTH || at + 1 >= end || chunk[at] !== CR || chunk[at + 1] !== LF) break;
        const bodyEnd = at + 2 + length;
        if (bodyEnd + 2 > end || chunk[bodyEnd] !== CR || chunk[bodyEnd + 1] !== LF) break;
        i = bodyEnd + 2;
      } else {
        break;
      }
      replies++;
    }
    this.repliesThisScan = replies;
    return i;
  }

  private startLength(of: LengthOf): void {
    this.state = State.Length;
    this.lengthOf = of;
    this.length = 0;
    this.digits = 0;
    this.negative = false;
    this.afterCR = false;
  }

  private lengthLimit(): number {
    if (this.negative) return 1; // only -1 (null) is a negative length
    return this.lengthOf === LengthOf.Bulk || this.lengthOf === LengthOf.BulkError ? MAX_BULK_LENGTH : MAX_AGGREGATE_LENGTH;
  }

  private failLength(written: string): never {
    if (this.negative) throw new RespProtocolError(`length ${written} (only -1, for null, may be negative)`);
    if (this.lengthOf === LengthOf.Bulk || this.lengthOf === LengthOf.BulkError) {
      throw new RespProtocolError(`bulk string length ${written} is over Redis's limit of 512 MB (proto-max-bulk-len)`);
    }
    throw new RespProtocolError(`aggregate length ${written} is over ${MAX_AGGREGATE_LENGTH} elements`);
  }

  /** A nil or empty element directly inside a top-level array (not a push's or an attribute's). */
  private nestedMiss(empty: boolean): void {
    if (this.frames[0] === Frame.Normal) this.onNestedMiss!(this.repliesThisScan, this.topLength - this.remaining[0], empty);
  }

  /** A nil inside an array (or set, map) that is itself an element of a top-level array: none of them a push or an attribute. */
  private deepNil(): void {
    if (this.frames[0] === Frame.Normal && this.frames[1] === Frame.Normal) this.onDeepNil!(this.repliesThisScan, this.topLength - this.remaining[0]);
  }

  /** An error element directly inside a top-level array, when asked for, and none of that reply was kept yet. */
  private capturesNested(): boolean {
    return this.nestedErrors && this.depth === 1 && !this.errorPending;
  }

  private startErrorCapture(): void {
    this.capturing = true;
    this.errorPending = true;
    this.errorLength = 0;
  }

  private lengthDone(): void {
    if (this.negative && (this.length !== 1 || this.digits !== 1)) this.failLength(`-${this.length}`);
    const length = this.negative ? -1 : this.length;
    this.state = State.Type;
    if (length < 0 && this.depth === 0 && this.onNull) this.nullPending = true;
    else if (length < 0 && this.depth === 1 && this.onNestedMiss) this.nestedMiss(false);
    else if (length < 0 && this.depth === 2 && this.onDeepNil) this.deepNil();
    switch (this.lengthOf) {
      case LengthOf.Bulk:
      case LengthOf.BulkError:
        if (length < 0) {
          this.elementDone(); // null bulk string
          return;
        }
        if (this.lengthOf === LengthOf.BulkError && (this.depth === 0 || this.capturesNested())) {
          this.errorPending = true;
          this.errorLength = 0;
          this.errorBodyLeft = length;
        }
        this.bodyLeft = length;
        this.state = length === 0 ? State.BodyEnd : State.Body;
        return;
      case LengthOf.Array:
        this.openAggregate(length, Frame.Normal);
        return;
      case LengthOf.Map:
        this.openAggregate(length < 0 ? length : length * 2, Frame.Normal);
        return;
      case LengthOf.Attribute:
        this.openAggregate(length < 0 ? length : length * 2, Frame.Attribute);
        return;
      case LengthOf.Push:
        this.openAggregate(length, this.depth === 0 ? Frame.Push : Frame.Normal);
        return;
    }
  }

  private openAggregate(elements: number, frame: Frame): void {
    if (elements <= 0) {
      // Empty or null aggregate: complete at once. An empty attribute or push is not a value at all.
      if (frame !== Frame.Normal) return;
      if (elements === 0 && this.depth === 0) this.onEmpty?.(this.repliesThisScan);
      else if (elements === 0 && this.depth === 1 && this.onNestedMiss) this.nestedMiss(true);
      this.elementDone();
      return;
    }
    if (this.depth === MAX_NESTING) throw new RespProtocolError(`aggregates nested more than ${MAX_NESTING} deep`);
    if (this.depth === this.remaining.length) {
      const remaining = new Int32Array(this.depth * 2);
      remaining.set(this.remaining);
      this.remaining = remaining;
      const frames = new Uint8Array(this.depth * 2);
      frames.set(this.frames);
      this.frames = frames;
    }
    this.elements = this.depth === 0 ? elements : this.elements + elements;
    if (this.depth === 0) this.topLength = elements;
    this.remaining[this.depth] = elements;
    this.frames[this.depth] = frame;
    this.depth++;
  }

  /** A value (scalar, or an aggregate with all its elements) is complete. */
  private elementDone(): void {
    while (this.depth > 0) {
      const top = this.depth - 1;
      if (--this.remaining[top] > 0) return;
      this.depth = top;
      const frame = this.frames[top];
      if (frame !== Frame.Normal) return; // attribute or push: not an element of anything, not a reply
    }
    if (this.nullPending) {
      this.nullPending = false;
      this.onNull?.(this.repliesThisScan);
    }
    if (this.errorPending) {
      this.errorPending = false;
      const text = Buffer.from(this.errorBytes.buffer, this.errorBytes.byteOffset, this.errorLength).toString('utf8');
      this.onError?.(errorKind(text), text, this.repliesThisScan);
    }
    this.repliesThisScan++;
  }
}

/** The first word of an error reply (`WRONGTYPE Operation against…` → `WRONGTYPE`); `ERR` when there is none. */
export function errorKind(text: string): string {
  const space = text.indexOf(' ');
  const word = space < 0 ? text : text.slice(0, space);
  return word.length > 0 && word.length <= 40 ? word : 'ERR';
}
