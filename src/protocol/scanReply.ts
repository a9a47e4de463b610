// The keys of one SCAN reply, read where they lie in its bytes: `*2 $cursor *n ($key)…`. The count of the keys
// a run left (src/runner/leftKeys.ts) hashes each one in place, so a million keys cost no string, Buffer or
// array each (ioredis's parse of the same replies, behind the reply gate's framing, cost ~1 µs of CPU a key
// with its garbage collection). The reply comes whole and within limits from the one framer (replyReader.ts);
// anything but that shape is refused.

/** Receives one key: bytes[start … end). The bytes are only valid during the call. */
export type KeyVisitor = (bytes: Uint8Array, start: number, end: number) => void;

/** Longest cursor kept: SCAN's are unsigned 64-bit numbers (20 digits). */
const MAX_CURSOR_DIGITS = 20;
/** Longest error text kept: a server's words, bounded. */
const MAX_ERROR_TEXT = 512;

/** A SCAN reply that is not one, or the server's refusal: the message says which, for the caller to name the server. */
export class ScanReplyError extends Error {
  override name = 'ScanReplyError';
}

/**
 * Reads the SCAN reply at the start of `bytes`: calls `onKey` for each key and returns the next cursor.
 * Throws ScanReplyError on an error reply (an ACL refusing SCAN) and on any other shape. Bytes after the
 * reply are not read.
 */
export function readScanReply(bytes: Uint8Array, onKey: KeyVisitor): string {
  if (bytes[0] === 0x2d /* - */) throw new ScanReplyError(`the server refused SCAN: ${errorText(bytes)}`);
  const reader = new HeaderReader(bytes);
  if (reader.count(0x2a /* * */, 'the reply') !== 2) throw new ScanReplyError(`a SCAN reply of ${reader.last} elements, not 2`);
  const cursorLength = reader.count(0x24 /* $ */, 'the cursor');
  if (cursorLength === 0 || cursorLength > MAX_CURSOR_DIGITS) throw new ScanReplyError(`a cursor of ${cursorLength} bytes`);
  let cursor = '';
  for (let i = reader.at, end = reader.at + cursorLength; i < end; i++) {
    const byte = bytes[i];
    if (byte < 0x30 || byte > 0x39) throw new ScanReplyError('a cursor that is not a number');
    cursor += String.fromCharCode(byte);
  }
  reader.skipLine(cursorLength);
  const keys = reader.count(0x2a, 'the keys');
  for (let k = 0; k < keys; k++) {
    const length = reader.count(0x24, 'a key');
    const start = reader.at;
    if (start + length + 2 > bytes.length) throw new ScanReplyError('a key past the end of the reply');
    onKey(bytes, start, start + length);
    reader.skipLine(length);
  }
  return cursor;
}

/** Header lines (`*2\r\n`, `$12\r\n`) and the CRLF after a bulk payload, checked as it goes. */
class HeaderReader {
  at = 0;
  last = 0;

  constructor(private readonly bytes: Uint8Array) {}

  /** Reads `<type><digits>\r\n`: the count it declares. */
  count(type: number, what: string): number {
    const bytes = this.bytes;
    const start = this.at;
    if (bytes[start] !== type) throw new ScanReplyError(`${describeByte(bytes[start])} where ${what} of a SCAN reply belongs`);
    let count = 0;
    let i = start + 1;
    for (; i < bytes.length && bytes[i] !== 0x0d; i++) {
      const digit = bytes[i] - 0x30;
      // Ten digits are more than any length the framer lets through: more is no length.
      if (digit < 0 || digit > 9 || i - start > 10) throw new ScanReplyError(`a malformed length in ${what} of a SCAN reply`);
      count = count * 10 + digit;
    }
    if (i === start + 1) throw new ScanReplyError(`an empty length in ${what} of a SCAN reply`);
    this.at = i;
    this.skipLine(0);
    return (this.last = count);
  }

  /** Moves past `length` bytes and the CRLF that must follow them. */
  skipLine(length: number): void {
    const end = this.at + length;
    if (this.bytes[end] !== 0x0d || this.bytes[end + 1] !== 0x0a) throw new ScanReplyError('a line of a SCAN reply that does not end in CRLF');
    this.at = end + 2;
  }
}

function describeByte(byte: number | undefined): string {
  if (byte === undefined) return 'the end of the reply';
  return byte >= 0x20 && byte < 0x7f ? `'${String.fromCharCode(byte)}'` : `byte ${byte}`;
}

/** An error reply's first line, without its `-`, bounded. */
function errorText(bytes: Uint8Array): string {
  let end = 1;
  while (end < bytes.length && end <= MAX_ERROR_TEXT && bytes[end] !== 0x0d) end++;
  return Buffer.from(bytes.buffer, bytes.byteOffset + 1, end - 1).toString('utf8');
}
