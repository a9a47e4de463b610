// The compressed base64 form of a latency recorder: HdrHistogram's V2 compressed encoding, byte for byte
// what hdr-histogram-js's encodeIntoCompressedBase64 writes for the same counts (a test holds it to that),
// so any HdrHistogram decoder reads it. Written here because building an hdr-histogram-js histogram only
// to encode it cost every load's summary ~25 ms of CPU; this is one pass over a recorder's non-empty slots
// (LatencyRecorder.toSparse), the empty ones between them written as runs.
import type * as Zlib from 'node:zlib';
import { HIGHEST_TRACKABLE_US, SIGNIFICANT_DIGITS, type SparseCounts } from './histogram';

const ENCODING_COOKIE = 0x1c849303 | 0x10;
const COMPRESSED_ENCODING_COOKIE = 0x1c849304 | 0x10;
const HEADER_BYTES = 40;
/** A ZigZag LEB128 word takes at most 9 bytes. */
const MAX_WORD_BYTES = 9;

/**
 * `slots`: a recorder's non-empty slots; `highestIndex`: the highest slot it recorded into (-1 when none), which a
 * count of 0 can leave above the last non-empty one, as it moves hdr-histogram-js's maximum.
 */
export function encodeSparse(slots: SparseCounts, highestIndex: number): string {
  const { indexes, counts } = slots;
  // The counts up to the highest recorded slot (slot 0 alone when empty), as hdr-histogram-js bounds them.
  const limit = Math.max(highestIndex, 0) + 1;
  const raw = Buffer.allocUnsafe(HEADER_BYTES + MAX_WORD_BYTES * Math.min(limit, 2 * indexes.length + 1));
  raw.writeInt32BE(ENCODING_COOKIE, 0);
  raw.writeInt32BE(1, 8); // normalizingIndexOffset, as hdr-histogram-js writes it
  raw.writeInt32BE(SIGNIFICANT_DIGITS, 12);
  writeInt64(raw, 16, 1); // lowest discernible value
  writeInt64(raw, 24, HIGHEST_TRACKABLE_US);
  writeInt64(raw, 32, 1); // integer to double conversion ratio
  let at = HEADER_BYTES;
  let next = 0;
  for (let s = 0; s < indexes.length; s++) {
    at = writeZeros(raw, at, indexes[s] - next);
    at = writeZigZag(raw, at, counts[s]);
    next = indexes[s] + 1;
  }
  at = writeZeros(raw, at, limit - next);
  raw.writeInt32BE(at - HEADER_BYTES, 4);
  // Required here: the commands that encode no histogram (check, --version, compare) need not load zlib at start.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { deflateSync } = require('node:zlib') as typeof Zlib;
  const compressed = deflateSync(raw.subarray(0, at));
  const out = Buffer.allocUnsafe(8 + compressed.length);
  out.writeInt32BE(COMPRESSED_ENCODING_COOKIE, 0);
  out.writeInt32BE(compressed.length, 4);
  compressed.copy(out, 8);
  return out.toString('base64');
}

function writeInt64(buffer: Buffer, at: number, value: number): void {
  buffer.writeUInt32BE(Math.floor(value / 2 ** 32), at);
  buffer.writeUInt32BE(value % 2 ** 32, at + 4);
}

/** A run of `zeros` empty slots: one negative word (a single empty slot is a 0 count). */
function writeZeros(buffer: Buffer, at: number, zeros: number): number {
  if (zeros <= 0) return at;
  return writeZigZag(buffer, at, zeros > 1 ? -zeros : 0);
}

/** ZigZag then LEB128, 7 bits a byte (counts are whole numbers below 2^53). */
function writeZigZag(buffer: Buffer, at: number, value: number): number {
  let rest = value >= 0 ? value * 2 : -value * 2 - 1;
  while (rest >= 128) {
    buffer[at++] = (rest % 128) | 0x80;
    rest = Math.floor(rest / 128);
  }
  buffer[at++] = rest;
  return at;
}
