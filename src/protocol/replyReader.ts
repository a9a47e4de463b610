// The one check every reader of whole replies makes (ioredis's connections through src/redis/replyGuard.ts,
// a sentinel's answer, ROLE and CLUSTER SHARDS on a raw connection): each chunk is framed as it comes
// (ReplyScanner: a few integers of state), and the reply being read may hold only so many bytes and so many
// elements its aggregates declare. A reader that keeps a reply whole until it ends would otherwise keep
// whatever a server streams after a header that promises a billion elements or a 500 MB string.
import { ReplyScanner } from './respScanner';
import { readRespValue, type RespValue } from './respValue';

/** What one reply may hold, in bytes and in elements its aggregates declare (a reader allocates by the header). */
export interface ReplyLimits {
  bytes: number;
  elements: number;
}

const MiB = 1024 * 1024;

/** A control connection's, a sentinel's answer and askRaw's (ROLE, CLUSTER SHARDS): INFO, CLIENT LIST of 100k clients, COMMAND DOCS (~30k elements) and SLOWLOG are far below. */
export const CONTROL_REPLY_LIMITS: ReplyLimits = { bytes: 64 * MiB, elements: 1_000_000 };
/** A load connection's (the ioredis client path): a whole 512 MB bulk string (Redis's `proto-max-bulk-len`), an LRANGE of millions. */
export const LOAD_REPLY_LIMITS: ReplyLimits = { bytes: 1024 * MiB, elements: 16_000_000 };

/** A reply past its limits; the message says what was refused, for the caller to prefix with the server (`127.0.0.1:6379 sent …`). */
export class ReplyLimitError extends Error {
  override name = 'ReplyLimitError';
}

export class ReplyFramer {
  private readonly scanner = new ReplyScanner();
  /** Bytes of the reply being read: at most the bytes since the last whole reply (a chunk that ended replies counts whole). */
  private pending = 0;

  constructor(private readonly limits: ReplyLimits) {}

  /** Frames `chunk`: returns the replies it completed; throws RespProtocolError (not RESP) or ReplyLimitError. */
  feed(chunk: Uint8Array): number {
    const scanner = this.scanner;
    const completed = scanner.scan(chunk);
    if (scanner.idle) {
      this.pending = 0;
      return completed;
    }
    this.pending = completed > 0 ? chunk.length : this.pending + chunk.length;
    checkReplySize(this.limits, this.pending, scanner.declaredElements);
    return completed;
  }
}

/** Throws ReplyLimitError when a reply being read holds more bytes, or declares more elements, than `limits` let it. */
export function checkReplySize(limits: ReplyLimits, bytes: number, elements: number): void {
  if (bytes > limits.bytes) throw new ReplyLimitError(`sent a reply of more than ${limits.bytes / MiB} MiB, which RBench does not hold in memory`);
  if (elements > limits.elements)
    throw new ReplyLimitError(
      `sent a reply of more than ${String(limits.elements).replace(/\B(?=(\d{3})+$)/g, ',')} elements, which RBench does not hold in memory`,
    );
}

/**
 * Whole replies from chunks, within limits: the chunks are kept until a reply ends and read once then (no
 * re-parse of everything received at every chunk, which made a large reply cost its size squared).
 */
export class ReplyCollector {
  private readonly framer: ReplyFramer;
  private chunks: Buffer[] = [];

  constructor(limits: ReplyLimits) {
    this.framer = new ReplyFramer(limits);
  }

  /** Feeds a chunk (copied: the caller may reuse its buffer); returns the replies it completed, in order. Throws as ReplyFramer.feed. */
  feed(chunk: Uint8Array): RespValue[] {
    const completed = this.keep(chunk);
    if (completed === 0) return [];
    const bytes = Buffer.concat(this.chunks);
    const values: RespValue[] = [];
    let at = 0;
    for (let i = 0; i < completed; i++) {
      const read = readRespValue(bytes, at)!;
      values.push(read.value);
      at = read.end;
    }
    this.chunks = at < bytes.length ? [bytes.subarray(at)] : [];
    return values;
  }

  /**
   * Feeds a chunk (copied) for a reader of one reply's bytes (askRawBytes: a consumer's XREADGROUP reply): once a
   * reply is whole, returns every byte kept, the reply first, and keeps nothing. Throws as ReplyFramer.feed.
   */
  feedBytes(chunk: Uint8Array): Buffer | undefined {
    if (this.keep(chunk) === 0) return undefined;
    const bytes = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    this.chunks = [];
    return bytes;
  }

  /** Frames `chunk` and keeps a copy of it: the replies it completed. */
  private keep(chunk: Uint8Array): number {
    const completed = this.framer.feed(chunk);
    this.chunks.push(Buffer.from(chunk));
    return completed;
  }
}
