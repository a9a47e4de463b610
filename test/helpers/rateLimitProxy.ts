// A TCP proxy in front of a real redis-server that passes at most `rate` commands per second, all
// connections together (a token bucket, refilled from the clock): a server whose capacity the test sets.
// Below the rate a command waits at most a tick (~1 ms); above it the commands queue in the proxy and their
// latency grows for as long as the load lasts, as on a saturated server. Replies pass unthrottled.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface RateLimitProxy {
  host: string;
  port: number;
  url: string;
  /** Commands per second the proxy lets through from now on. */
  setRate(rate: number): void;
  /** Commands passed to the server so far. */
  passed(): number;
  close(): Promise<void>;
}

/** The end of the first complete command in `buffer` (a RESP array or an inline line), or -1. */
export function commandEnd(buffer: Buffer): number {
  const lineEnd = (from: number) => buffer.indexOf('\r\n', from);
  if (buffer.length === 0) return -1;
  let at = lineEnd(0);
  if (at < 0) return -1;
  if (buffer[0] !== 0x2a /* '*' */) return at + 2;
  const count = Number(buffer.toString('latin1', 1, at));
  let offset = at + 2;
  for (let i = 0; i < count; i++) {
    at = lineEnd(offset);
    if (at < 0) return -1;
    // A bulk string's bytes follow its `$length` line; anything else is one line.
    offset = buffer[offset] === 0x24 /* '$' */ ? at + 2 + Number(buffer.toString('latin1', offset + 1, at)) + 2 : at + 2;
    if (offset > buffer.length) return -1;
  }
  return offset;
}

/** One client's bytes not yet passed on, as the chunks that came (no copying per chunk). */
class PendingBytes {
  private chunks: Buffer[] = [];
  bytes = 0;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
  }

  /** Takes the first complete command off the front, or undefined while it is incomplete. */
  take(): Buffer | undefined {
    while (this.chunks.length > 0) {
      const end = commandEnd(this.chunks[0]);
      if (end >= 0) {
        const command = this.chunks[0].subarray(0, end);
        if (end === this.chunks[0].length) this.chunks.shift();
        else this.chunks[0] = this.chunks[0].subarray(end);
        this.bytes -= command.length;
        return command;
      }
      // A command split across chunks (rare): join the first two and look again.
      if (this.chunks.length < 2) return undefined;
      this.chunks.splice(0, 2, Buffer.concat([this.chunks[0], this.chunks[1]]));
    }
    return undefined;
  }
}

interface Link {
  client: Socket;
  server: Socket;
  pending: PendingBytes;
}

export async function startRateLimitProxy(target: { host: string; port: number }, rate: number, burstSeconds = 0.01): Promise<RateLimitProxy> {
  const links = new Set<Link>();
  let perSecond = rate;
  let tokens = 0;
  let refilledAt = process.hrtime.bigint();
  let passed = 0;
  let timer: NodeJS.Timeout | undefined;

  const refill = () => {
    const now = process.hrtime.bigint();
    tokens = Math.min(Math.max(1, perSecond * burstSeconds), tokens + (Number(now - refilledAt) / 1e9) * perSecond);
    refilledAt = now;
  };
  // Round robin, one command per link per turn, while tokens last.
  const pump = () => {
    timer = undefined;
    refill();
    let waiting = false;
    let moved = true;
    while (moved && tokens >= 1) {
      moved = false;
      for (const link of links) {
        if (tokens < 1) break;
        const command = link.pending.take();
        if (!command) continue;
        link.server.write(command);
        tokens -= 1;
        passed++;
        moved = true;
      }
    }
    for (const link of links) {
      if (link.pending.bytes > 0) waiting = true;
      // Bounded: a client far ahead of the rate waits in its socket, not in this buffer.
      if (link.pending.bytes > 1 << 20) link.client.pause();
      else link.client.resume();
    }
    if (waiting) timer = setTimeout(pump, 1);
  };

  const server: Server = createServer((client) => {
    client.setNoDelay(true);
    const upstream = connect({ host: target.host, port: target.port });
    upstream.setNoDelay(true);
    const link: Link = { client, server: upstream, pending: new PendingBytes() };
    links.add(link);
    client.on('data', (chunk: Buffer) => {
      link.pending.push(chunk);
      if (!timer) pump();
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const close = () => {
      links.delete(link);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close);
    upstream.on('close', close);
    client.on('error', close);
    upstream.on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    host: '127.0.0.1',
    port: address.port,
    url: `redis://127.0.0.1:${address.port}`,
    setRate: (next) => {
      refill();
      perSecond = next;
    },
    passed: () => passed,
    close: async () => {
      if (timer) clearTimeout(timer);
      for (const link of links) {
        link.client.destroy();
        link.server.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
