// Reads a bounded MONITOR sample on a socket of its own: in lines, bytes and time, and a line longer than
// LINE_LIMIT is kept only in part (the rest is counted, not stored), so a stream of huge values cannot grow
// memory. MONITOR puts the connection in a mode no client library parses faithfully (ioredis splits
// arguments on `" "`), so the reader speaks RESP itself: AUTH if needed, MONITOR, then lines. The address
// passes the network gate first; nothing but AUTH and MONITOR is ever sent.
import type { Socket } from 'node:net';
import { approvedNodes } from '../gates/network';
import { openTcpSocket, openTlsSocket } from '../redis/clientSocket';
import type { ConnectionOptions } from '../redis/types';
import { parseMonitorLine, type MonitorLine } from './monitorLine';

/** Characters of one MONITOR line kept; the rest of a longer line is only counted. */
export const LINE_LIMIT = 64 * 1024;

export interface MonitorLimits {
  maxLines: number;
  maxBytes: number;
  maxMs: number;
}

export type MonitorEnd = 'time' | 'lines' | 'bytes' | 'closed' | 'refused' | 'aborted';

export interface MonitorOutcome {
  lines: number;
  bytes: number;
  /** Wall-clock ms from MONITOR's OK to the end. */
  elapsedMs: number;
  end: MonitorEnd;
  /** The server's refusal (NOPERM…) or why the connection ended, for people. */
  error?: string;
}

/**
 * The bytes MONITOR's escaped text stands for (`\xfe`, `\"` and `\n` are one byte each), counted over the pieces
 * a line arrives in: an escape cut between two socket reads still counts once.
 */
class EscapedLength {
  length = 0;
  /** 0: plain text; 1: after `\`; 2: after `\x`; 3: after `\x` and one hex digit. */
  private state = 0;

  add(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.state === 0) {
        if (c === 0x5c) this.state = 1;
        else this.length++;
      } else if (this.state === 1) {
        if (c === 0x78) this.state = 2;
        else {
          this.length++;
          this.state = 0;
        }
      } else if (this.state === 2) {
        this.state = 3;
      } else {
        this.length++;
        this.state = 0;
      }
    }
  }

  reset(): void {
    this.length = 0;
    this.state = 0;
  }
}

function encode(args: readonly string[]): string {
  return `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;
}

function openSocket(options: ConnectionOptions): Socket {
  if (options.path !== undefined) return openTcpSocket({ path: options.path });
  if (options.tls) return openTlsSocket({ host: options.host, port: options.port, servername: options.host, ...options.tls });
  return openTcpSocket({ host: options.host, port: options.port });
}

/**
 * Samples MONITOR until a limit, the signal or the server ends it; `onLine` sees each command (and its line as sent). Resolves
 * (never rejects) with what ended it; a refusal (ACL without MONITOR) ends it as `refused` before any line.
 */
export function readMonitor(
  options: ConnectionOptions,
  limits: MonitorLimits,
  onLine: (line: MonitorLine, text: string) => void,
  signal?: AbortSignal,
): Promise<MonitorOutcome> {
  const refusal = options.path === undefined ? approvedNodes(options).check(options.host, options.port, 'the capture target is') : undefined;
  if (refusal) return Promise.resolve({ lines: 0, bytes: 0, elapsedMs: 0, end: 'refused', error: refusal });
  return new Promise((resolve) => {
    const socket = openSocket(options);
    socket.setEncoding('latin1');
    let started = 0;
    let lines = 0;
    let bytes = 0;
    let current = '';
    // What a line holds past LINE_LIMIT, counted, not kept.
    const overflow = new EscapedLength();
    let pendingCr = false;
    let monitoring = false;
    let handshake = options.password !== undefined ? 2 : 1;
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const connectTimer = setTimeout(() => finish('closed', `no answer within ${options.connectTimeoutMs} ms`), options.connectTimeoutMs);
    const finish = (end: MonitorEnd, error?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(connectTimer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      const outcome: MonitorOutcome = { lines, bytes, elapsedMs: started ? Date.now() - started : 0, end };
      if (error !== undefined) outcome.error = error;
      resolve(outcome);
    };
    const onAbort = () => finish('aborted');
    if (signal?.aborted) return finish('aborted');
    signal?.addEventListener('abort', onAbort);

    const handleLine = (line: string, truncated: boolean) => {
      if (!monitoring) {
        if (line.startsWith('-')) return finish('refused', line.slice(1).slice(0, 300));
        if (--handshake === 0) {
          monitoring = true;
          clearTimeout(connectTimer);
          started = Date.now();
          timer = setTimeout(() => finish('time'), limits.maxMs);
        }
        return;
      }
      if (!line.startsWith('+')) return;
      const text = line.slice(1);
      const parsed = parseMonitorLine(text, truncated);
      if (!parsed) return;
      // The rest of a cut line is the last argument's, up to its closing quote.
      if (truncated && parsed.args.length > 0) parsed.args[parsed.args.length - 1].length += Math.max(0, overflow.length - 1);
      lines++;
      onLine(parsed, text);
      if (lines >= limits.maxLines) finish('lines');
    };
    socket.on('data', (chunk: string) => {
      bytes += chunk.length;
      let from = 0;
      for (let i = 0; i < chunk.length && !done; i++) {
        const c = chunk.charCodeAt(i);
        if (pendingCr && c === 10) {
          appendPart(chunk.slice(from, i));
          // The `\r` before this `\n` is the last character kept, or the last one counted past the limit.
          if (overflow.length > 0) overflow.length--;
          else current = current.slice(0, -1);
          handleLine(current, overflow.length > 0);
          current = '';
          overflow.reset();
          from = i + 1;
        }
        pendingCr = c === 13;
      }
      if (!done) appendPart(chunk.slice(from));
      if (!done && bytes >= limits.maxBytes) finish('bytes');
    });
    const appendPart = (part: string) => {
      const room = LINE_LIMIT - current.length;
      if (part.length <= room) current += part;
      else {
        current += part.slice(0, Math.max(0, room));
        overflow.add(part.slice(Math.max(0, room)));
      }
    };
    socket.on('error', (error) => finish('closed', error.message));
    socket.on('close', () => finish('closed', monitoring ? 'the server closed the connection' : 'the server closed the connection before MONITOR started'));
    socket.on(options.tls ? 'secureConnect' : 'connect', () => {
      if (options.password !== undefined) {
        socket.write(encode(options.username !== undefined ? ['AUTH', options.username, options.password] : ['AUTH', options.password]));
      }
      socket.write(encode(['MONITOR']));
    });
  });
}
