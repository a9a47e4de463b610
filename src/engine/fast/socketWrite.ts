// A batch's bytes onto its connection. Node's socket.write costs ~210 bytes of objects a call (its Writable's
// state, a WriteWrap, the after-write tick): at a fast path's tens of thousands of writes a second that was
// two thirds of the engine's allocation, so its young generation filled every ~50 ms. Each scavenge then
// becomes a perf_hooks 'gc' entry, which Node 20 builds with deprecated accessors whose maps live in the
// old generation until a full collection that a lean load never needs: ~100 KB a second of old-space
// garbage, most of a long run's growth (issue 46). When nothing is queued on the socket, the bytes go
// straight to its descriptor with one write(2), as libuv's own first attempt (uv_try_write) would; what the
// kernel does not take, or a socket with something queued, TLS, no descriptor or Windows, goes through
// socket.write as before, after what is queued, so the order on the wire is kept.
import { writeSync } from 'node:fs';
import type { Socket } from 'node:net';

/** The parts of Node's stream handle read here: its descriptor (-1 without one: Windows, TLS) and libuv's queue. */
interface StreamHandle {
  fd?: number;
  writeQueueSize?: number;
}

/** A POSIX descriptor to write(2) to: on Windows a socket is no C runtime descriptor, so sockets there keep socket.write. */
const DESCRIPTORS = process.platform !== 'win32';

/** Writes would block: the kernel's send buffer is full, so the rest waits in the socket's queue. */
const WOULD_BLOCK = new Set(['EAGAIN', 'EWOULDBLOCK']);

/**
 * Sends bytes[from, to) on `socket`, in order after anything it holds. `keep`: the caller rewrites `bytes` before
 * the socket could have sent them (the open loop's shared batch buffer), so a part left queued is copied first.
 */
export function writeRange(socket: Socket, bytes: Buffer, from: number, to: number, keep = false): void {
  const written = writeDirect(socket, bytes, from, to);
  if (written === to - from) return;
  const start = from + written;
  const rest = start === 0 && to === bytes.length ? bytes : bytes.subarray(start, to);
  socket.write(keep ? Buffer.from(rest) : rest);
}

/** Bytes the descriptor took (0: none, the rest is the caller's to queue); all of them when the socket failed (destroyed). */
function writeDirect(socket: Socket, bytes: Buffer, from: number, to: number): number {
  if (!DESCRIPTORS) return 0;
  const handle = (socket as unknown as { _handle?: StreamHandle | null })._handle;
  const fd = handle?.fd ?? -1;
  if (fd < 0 || handle!.writeQueueSize !== 0 || socket.writableLength !== 0 || socket.writableCorked !== 0) return 0;
  if (socket.connecting || !socket.writable || (socket as { encrypted?: boolean }).encrypted) return 0;
  try {
    return writeSync(fd, bytes, from, to - from);
  } catch (error) {
    if (WOULD_BLOCK.has((error as NodeJS.ErrnoException).code ?? '')) return 0;
    // EPIPE, ECONNRESET…: what socket.write would report, through the socket's own error and close.
    socket.destroy(error as Error);
    return to - from;
  }
}
