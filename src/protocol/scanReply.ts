// The keys of one SCAN reply, read where they lie in its bytes: `*2 $cursor *n ($key)…`. The count of the keys
// a run left (src/runner/leftKeys.ts) hashes each one in place, so a million keys cost no string, Buffer or
// array each (ioredis's parse of the same replies, behind the reply gate's framing, cost ~1 µs of CPU a key
// with its garbage collection). The reader takes the reply chunk by chunk as it comes: it is its own framer,
// within the control limits (bytes and declared elements, replyReader.ts), so each byte is read once (framing
// first, then reading the keys again, was ~15 ms of every run's CPU for the 10,000 keys it counted then, in code V8
// has not optimised yet). Anything but that shape is refused.
import { checkReplySize, CONTROL_REPLY_LIMITS, type ReplyLimits } from './replyReader';
import { RespProtocolError } from './respScanner';

/** Receives one key: bytes[start … end). The bytes are only valid during the call. */
export type KeyVisitor = (bytes: Uint8Array, start: number, end: number) => void;

/** Longest cursor kept: SCAN's are unsigned 64-bit numbers (20 digits). */
const MAX_CURSOR_DIGITS = 20;
/** Longest error text kept: a server's words, bounded. */
const MAX_ERROR_TEXT = 512;
/** A length of more digits is no length (the limits allow far fewer). */
const MAX_LENGTH_DIGITS = 10;
/** The bytes that start a RESP value: anything else is not RESP at all. */
const RESP_TYPES = new Set([...'+-:$*_,#!=(%~|>'].map((c) => c.charCodeAt(0)));

/** A SCAN reply that is not one, or the server's refusal: the message says which, for the caller to name the server. */
export class ScanReplyError extends Error {
  override name = 'ScanReplyError';
}

/**
 * Reads the SCAN reply at the start of `bytes`, whole: calls `onKey` for each key and returns the next cursor.
 * Throws ScanReplyError on an error reply (an ACL refusing SCAN), on any other shape and on a reply cut short.
 * Bytes after the reply are not read.
 */
export function readScanReply(bytes: Uint8Array, onKey: KeyVisitor): string {
  const reader = new ScanReplyReader(onKey, { bytes: Infinity, elements: Infinity });
  const cursor = reader.feed(bytes);
  if (cursor === undefined) throw reader.cutShort();
  return cursor;
}

const enum Step {
  Reply,
  CursorHeader,
  Cursor,
  KeysHeader,
  KeyHeader,
  Key,
  Done,
}

/** What each header step reads, for messages. */
const HEADER_OF: Partial<Record<Step, { type: number; what: string }>> = {
  [Step.Reply]: { type: 0x2a /* * */, what: 'the reply' },
  [Step.CursorHeader]: { type: 0x24 /* $ */, what: 'the cursor' },
  [Step.KeysHeader]: { type: 0x2a, what: 'the keys' },
  [Step.KeyHeader]: { type: 0x24, what: 'a key' },
};

/**
 * One SCAN reply read as its chunks come: `feed` returns the cursor once the reply is whole, undefined while it
 * is not. Keeps only what a step still needs (a header cut by the chunk, or the key being received), never the
 * keys already read. Throws ScanReplyError (not a SCAN reply), RespProtocolError (not RESP) or ReplyLimitError.
 */
export class ScanReplyReader {
  private step = Step.Reply;
  private cursor = '';
  private keysLeft = 0;
  private declared = 0;
  /** The payload being waited for (cursor or key): its length. */
  private length = 0;
  /** Bytes of the reply so far. */
  private received = 0;
  /** Chunks kept (copied) until the step being read is whole. */
  private kept: Buffer[] = [];
  private keptBytes = 0;

  constructor(
    private readonly onKey: KeyVisitor,
    private readonly limits: ReplyLimits = CONTROL_REPLY_LIMITS,
  ) {}

  /** Reads the chunk (valid during the call only: what is still needed is copied). */
  feed(chunk: Uint8Array): string | undefined {
    if (this.step === Step.Done) return this.cursor;
    this.received += chunk.length;
    checkReplySize(this.limits, this.received, this.declared);
    if (this.kept.length > 0) {
      this.kept.push(Buffer.from(chunk));
      this.keptBytes += chunk.length;
      // A key's payload arrives in many chunks: joined once, when all of it is here (never its size squared).
      if (this.step === Step.Key && this.keptBytes < this.length + 2) return undefined;
      const joined = Buffer.concat(this.kept);
      this.kept = [];
      this.keptBytes = 0;
      return this.read(joined);
    }
    return this.read(chunk);
  }

  /** The error for a reply whose bytes ended before it did. */
  cutShort(): ScanReplyError {
    const header = HEADER_OF[this.step];
    if (header && this.keptBytes === 0) return new ScanReplyError(`the end of the reply where ${header.what} of a SCAN reply belongs`);
    if (this.step === Step.Key) return new ScanReplyError('a key past the end of the reply');
    return new ScanReplyError('a line of a SCAN reply that does not end in CRLF');
  }

  private read(bytes: Uint8Array): string | undefined {
    if (this.step === Step.Reply && bytes[0] === 0x2d /* - */) return this.refusal(bytes);
    let at = 0;
    const end = bytes.length;
    // Keys, the bulk of the reply, read inline in this one loop (no call per header): a run counts up to 1,000 of
    // them in code V8 has not optimised yet, where each call costs. Anything unusual goes the general way below.
    while (this.step === Step.KeyHeader && this.keysLeft > 0 && bytes[at] === 0x24) {
      let length = 0;
      let i = at + 1;
      for (; i < end && i <= at + MAX_LENGTH_DIGITS; i++) {
        const digit = bytes[i] - 0x30;
        if (digit < 0 || digit > 9) break;
        length = length * 10 + digit;
      }
      const start = i + 2;
      if (i === at + 1 || bytes[i] !== 0x0d || bytes[i + 1] !== 0x0a || start + length + 2 > end) break;
      if (bytes[start + length] !== 0x0d || bytes[start + length + 1] !== 0x0a) throw new ScanReplyError('a line of a SCAN reply that does not end in CRLF');
      this.onKey(bytes, start, start + length);
      at = start + length + 2;
      if (--this.keysLeft === 0) this.step = Step.Done;
    }
    while (this.step !== Step.Done) {
      const header = HEADER_OF[this.step];
      if (header) {
        const next = this.header(bytes, at, header.type, header.what);
        if (next < 0) return this.keep(bytes, at);
        at = next;
        continue;
      }
      // The cursor or a key: its payload and CRLF.
      if (at + this.length + 2 > end) return this.keep(bytes, at);
      if (bytes[at + this.length] !== 0x0d || bytes[at + this.length + 1] !== 0x0a)
        throw new ScanReplyError('a line of a SCAN reply that does not end in CRLF');
      if (this.step === Step.Cursor) {
        for (let i = at; i < at + this.length; i++) {
          const byte = bytes[i];
          if (byte < 0x30 || byte > 0x39) throw new ScanReplyError('a cursor that is not a number');
          this.cursor += String.fromCharCode(byte);
        }
        this.step = Step.KeysHeader;
      } else {
        this.onKey(bytes, at, at + this.length);
        this.step = --this.keysLeft === 0 ? Step.Done : Step.KeyHeader;
      }
      at += this.length + 2;
      // Back to the fast loop for the keys that follow.
      if (this.step === Step.KeyHeader) return this.read(bytes.subarray(at));
    }
    return this.cursor;
  }

  /**
   * Reads `<type><digits>\r\n` at `at` and moves to the next step: the offset after it, or -1 when the chunk
   * ends inside it.
   */
  private header(bytes: Uint8Array, at: number, type: number, what: string): number {
    if (at >= bytes.length) return -1;
    if (bytes[at] !== type) {
      const found = describeByte(bytes[at]);
      if (!RESP_TYPES.has(bytes[at])) throw new RespProtocolError(`${found} where ${what} of a SCAN reply belongs`);
      throw new ScanReplyError(`${found} where ${what} of a SCAN reply belongs`);
    }
    let count = 0;
    let i = at + 1;
    for (; i < bytes.length && bytes[i] !== 0x0d; i++) {
      const digit = bytes[i] - 0x30;
      if (digit < 0 || digit > 9 || i - at > MAX_LENGTH_DIGITS) throw new ScanReplyError(`a malformed length in ${what} of a SCAN reply`);
      count = count * 10 + digit;
    }
    if (i + 1 >= bytes.length) return -1;
    if (i === at + 1) throw new ScanReplyError(`an empty length in ${what} of a SCAN reply`);
    if (bytes[i + 1] !== 0x0a) throw new ScanReplyError('a line of a SCAN reply that does not end in CRLF');
    this.counted(count);
    return i + 2;
  }

  /** The count a header declared, for the step it ends. */
  private counted(count: number): void {
    switch (this.step) {
      case Step.Reply:
        if (count !== 2) throw new ScanReplyError(`a SCAN reply of ${count} elements, not 2`);
        this.step = Step.CursorHeader;
        return;
      case Step.CursorHeader:
        if (count === 0 || count > MAX_CURSOR_DIGITS) throw new ScanReplyError(`a cursor of ${count} bytes`);
        this.length = count;
        this.step = Step.Cursor;
        return;
      case Step.KeysHeader:
        this.declared += count;
        checkReplySize(this.limits, this.received, this.declared);
        this.keysLeft = count;
        this.step = count === 0 ? Step.Done : Step.KeyHeader;
        return;
      default:
        this.length = count;
        this.step = Step.Key;
    }
  }

  /** Keeps bytes[at …) (copied) for the next chunk. */
  private keep(bytes: Uint8Array, at: number): undefined {
    if (at < bytes.length) {
      this.kept.push(Buffer.from(bytes.subarray(at)));
      this.keptBytes += bytes.length - at;
    }
    return undefined;
  }

  /** An error reply: refused once its first line is here (bounded), else waited for. */
  private refusal(bytes: Uint8Array): undefined {
    let end = 1;
    while (end < bytes.length && end <= MAX_ERROR_TEXT && bytes[end] !== 0x0d) end++;
    if (end >= bytes.length) return this.keep(bytes, 0);
    throw new ScanReplyError(`the server refused SCAN: ${Buffer.from(bytes.buffer, bytes.byteOffset + 1, end - 1).toString('utf8')}`);
  }
}

function describeByte(byte: number | undefined): string {
  if (byte === undefined) return 'the end of the reply';
  return byte >= 0x20 && byte < 0x7f ? `'${String.fromCharCode(byte)}'` : `byte ${byte}`;
}
