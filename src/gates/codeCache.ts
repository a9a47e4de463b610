// A bundle of dist/ read with V8's code cache of it, which the build writes (scripts/codeCache.mjs), for
// compiledBundle.ts to compile: a start then neither parses nor compiles again the functions the cache holds. A cache
// file is the bundle's SHA-1, then V8's cache. It is taken only when made from these very bytes: V8 itself checks
// little more than the source's length and its flags, and would run compiled code of other bytes. Without a cache,
// or when V8 refuses it (another Node, other flags), the bundle compiles as any script does.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { BundleCode } from './compiledBundle';
import { readBoundedFile } from './files';

const DIGEST_BYTES = 20;
/** Far above any bundle (1.3 MB) and its cache (1 MB). */
const MAX_BYTES = 64 * 1024 * 1024;

/** Reads `bundle` and its cache `cacheName` (when named) in `dir`; the digest goes with them, for a cache made anew of the same bytes. */
export function readBundle(dir: string, bundle: string, cacheName?: string): BundleCode & { digest: Buffer } {
  const bytes = readBoundedFile(join(dir, bundle), { root: dir, maxBytes: MAX_BYTES });
  const digest = createHash('sha1').update(bytes).digest();
  const cachedData = cacheName === undefined ? undefined : cacheOf(join(dir, cacheName), dir, digest);
  return { source: bytes.toString('latin1'), digest, ...(cachedData ? { cachedData } : {}) };
}

function cacheOf(path: string, dir: string, digest: Buffer): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readBoundedFile(path, { root: dir, maxBytes: MAX_BYTES });
  } catch {
    return undefined; // none (a development build in watch mode makes none): the bundle compiles without it
  }
  return bytes.length > DIGEST_BYTES && bytes.subarray(0, DIGEST_BYTES).equals(digest) ? bytes.subarray(DIGEST_BYTES) : undefined;
}
