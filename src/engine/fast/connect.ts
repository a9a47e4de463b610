// Opens one raw connection for the fast path: TCP or TLS, connect timeout, then the handshake
// (HELLO 3 / AUTH, SELECT, PING) sent in one write. PING always goes last so that a server requiring a
// password is caught here (NOAUTH) rather than as a wall of errors during the load.
import * as net from 'node:net';
import type { ConnectionOptions } from '../../redis/types';
import {
  address,
  CLOSED_IN_HANDSHAKE,
  CONNECT_TIMEOUT,
  describeConnectionError,
  describeHandshakeReply,
  errorPlace,
  TLS_TIMEOUT,
  tlsRefusal,
  type ErrorPlace,
  type HandshakeStep,
} from '../../redis/errors';
import { LoadError, TlsRefusedError } from '../errors';
import { encodeRespCommand } from '../../protocol/respEncode';
import { ReplyScanner } from '../../protocol/respScanner';
import { openTcpSocket, openTlsSocket } from '../../redis/clientSocket';

export function handshakeCommands(options: ConnectionOptions): { step: HandshakeStep; args: string[] }[] {
  const commands: { step: HandshakeStep; args: string[] }[] = [];
  // A user named without a password logs in as that user with an empty one (a `nopass` user accepts it; any
  // other refuses, by name), never silently as `default`.
  const password = options.password ?? (options.username !== undefined ? '' : undefined);
  if (options.resp === 3) {
    const auth = password !== undefined ? ['AUTH', options.username ?? 'default', password] : [];
    commands.push({ step: 'hello', args: ['HELLO', '3', ...auth] });
  } else if (password !== undefined) {
    const args = options.username !== undefined ? ['AUTH', options.username, password] : ['AUTH', password];
    commands.push({ step: 'auth', args });
  }
  if (options.db) commands.push({ step: 'select', args: ['SELECT', String(options.db)] });
  commands.push({ step: 'ping', args: ['PING'] });
  return commands;
}

function errorWithCode(message: string, code: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(message);
  error.code = code;
  return error;
}

/** Receives incoming bytes: chunk[0 … length). The chunk is only valid during the call. */
export type BytesHandler = (chunk: Buffer, length: number) => void;

/** A connected, authenticated socket whose incoming bytes go to a replaceable handler. */
export interface RawConnection {
  socket: net.Socket;
  /** Where incoming bytes go from now on. */
  onBytes(handler: BytesHandler): void;
}

/** Bytes read per system call on plain TCP; replies beyond it just take another read. */
const READ_BUFFER_SIZE = 64 * 1024;
/**
 * The one read buffer of this thread's plain-TCP connections. A read's bytes are only valid during the bytes
 * handler's call (each reader scans them at once, or copies what it keeps), and a thread runs one handler at a
 * time: the next read, of any socket, may reuse them. A buffer per connection was 64 KiB of memory each (3 MiB
 * for 50 clients, 32 MiB for 500) allocated at every start, and their external memory pressed V8 into collections.
 */
let sharedReadBuffer: Buffer | undefined;

/**
 * Resolves with a connected, authenticated connection (no listeners of ours left on the socket
 * besides the bytes handler and the late-error one every client socket has, src/redis/clientSocket.ts)
 * or rejects with a LoadError. Plain TCP sockets read with `onread` into
 * the thread's one reused buffer: no Buffer allocation and no stream machinery per read.
 */
export function openSocket(options: ConnectionOptions, place: ErrorPlace = errorPlace(options)): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    let handler: BytesHandler = () => {};
    const deliver = (chunk: Buffer, length: number) => handler(chunk, length);
    const commands = handshakeCommands(options);
    let socket: net.Socket;
    if (options.tls) {
      const isIp = net.isIP(options.host) !== 0;
      socket = openTlsSocket({
        ...options.tls,
        host: options.host,
        port: options.port,
        servername: options.tls.servername ?? (isIp ? undefined : options.host),
      });
    } else {
      const buffer = (sharedReadBuffer ??= Buffer.allocUnsafe(READ_BUFFER_SIZE));
      socket = openTcpSocket({
        ...(options.path !== undefined ? { path: options.path } : { host: options.host, port: options.port }),
        onread: {
          buffer,
          callback: (length: number, chunk: Uint8Array) => {
            deliver(chunk as Buffer, length);
            return true; // false would pause the socket
          },
        },
      });
    }
    // TLS sockets do not take `onread`: their decrypted bytes come as 'data' events.
    const onTlsData = (chunk: Buffer) => deliver(chunk, chunk.length);
    if (options.tls) socket.on('data', onTlsData);
    // Nagle's algorithm only concerns TCP; a unix socket has none to turn off.
    if (options.path === undefined) socket.setNoDelay(true);
    const scanner = new ReplyScanner();
    let answered = 0;
    let settled = false;
    let failure: string | undefined;
    const finish = (error?: string, refused = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.removeListener('error', onError);
      socket.removeListener('close', onClose);
      socket.removeListener(options.tls ? 'secureConnect' : 'connect', onConnect);
      if (error !== undefined) {
        socket.destroy();
        reject(refused ? new TlsRefusedError(error) : new LoadError(error));
      } else {
        handler = () => {};
        resolve({ socket, onBytes: (next) => (handler = next) });
      }
    };
    scanner.onError = (kind, text, index) => {
      const step = commands[answered + index].step;
      // A server whose last snapshot failed refuses PING like a write; the connection works, and the
      // load then counts the refused requests as MISCONF errors.
      if (step === 'ping' && kind === 'MISCONF') return;
      failure ??= describeHandshakeReply(text, place, step);
    };
    handler = (chunk: Buffer, length: number) => {
      try {
        answered += scanner.scan(chunk, length);
      } catch (error) {
        finish(`unexpected reply from ${address(options)} during the handshake: ${(error as Error).message}`);
        return;
      }
      if (failure !== undefined) finish(failure);
      else if (answered >= commands.length) finish();
    };
    const onError = (error: NodeJS.ErrnoException) =>
      finish(describeConnectionError(error, place), options.tls !== undefined && tlsRefusal(error, place) !== undefined);
    const onClose = () => finish(describeConnectionError(errorWithCode('connection closed', CLOSED_IN_HANDSHAKE), place));
    const onConnect = () => socket.write(Buffer.concat(commands.map((c) => encodeRespCommand(c.args))));
    // TCP up but no TLS handshake: typically a plain-text server, which waits for a line that never comes.
    let tcpConnected = false;
    let secured = false;
    if (options.tls) {
      socket.once('connect', () => (tcpConnected = true));
      socket.once('secureConnect', () => (secured = true));
    }
    const timer = setTimeout(() => {
      const code = tcpConnected && !secured ? TLS_TIMEOUT : CONNECT_TIMEOUT;
      finish(describeConnectionError(errorWithCode('timeout', code), place));
    }, options.connectTimeoutMs);
    socket.on('error', onError);
    socket.on('close', onClose);
    socket.once(options.tls ? 'secureConnect' : 'connect', onConnect);
  });
}
