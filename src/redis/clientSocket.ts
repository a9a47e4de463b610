// Every socket RBench opens to a server (the fast path, the Sentinel questions, a capture's MONITOR) is opened
// here, and ioredis's are marked the same way (ioredisSockets.ts). Each gets a listener for errors that no
// owner hears any more: a TLS socket can emit a second 'error' after the first destroyed it (a record read in
// the same chunk as a failed certificate check: Node emits it outside destroy's once-only guard), and an
// owner lets go of a socket before it closes. Without a listener such an error ends the process; the owner's
// own listeners, while it has them, still hear every error.
import * as net from 'node:net';
import type * as Tls from 'node:tls';

/** A plain TCP or unix socket (net.connect's options, `onread` among them). */
export function openTcpSocket(options: net.NetConnectOpts): net.Socket {
  return withLateErrorSink(net.connect(options));
}

/**
 * A TLS socket. node:tls (and the crypto it loads) is required only now: evaluating it cost every engine thread
 * ~3–5 ms of CPU at start, and a thread of a plain-TCP load never uses it.
 */
export function openTlsSocket(options: Tls.ConnectionOptions): Tls.TLSSocket {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const tls = require('node:tls') as typeof Tls;
  return withLateErrorSink(tls.connect(options));
}

/** Adds the listener for errors no owner hears (see the top); returns `socket`. */
export function withLateErrorSink<S extends NodeJS.EventEmitter>(socket: S): S {
  socket.on('error', ignoreUnheardError);
  return socket;
}

function ignoreUnheardError(): void {
  // Heard by the owner while it listens; after that the socket is closed or closing, and the error says nothing new.
}
