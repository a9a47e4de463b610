// A small RESP server for the "untrusted data" tests: either a fake Redis answering from a table (its INFO
// text chosen by the test), or a logging relay in front of a real redis-server. Both log every command
// they receive, so a test can tell whether a secret (an AUTH) reached them.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { readRespValue, type RespValue } from '../../../src/protocol/respValue';

export interface FakeRedis {
  port: number;
  url: string;
  /** Every command received, as its words. */
  readonly commands: string[][];
  close(): Promise<void>;
}

const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;

/** The reply of the fake to one command: the test's own reply for its name, else a table's. */
function answer(words: string[], info: string, replies: ReadonlyMap<string, string>): string {
  const name = (words[0] ?? '').toUpperCase();
  const own = replies.get(name);
  if (own !== undefined) return own;
  switch (name) {
    case 'PING':
      return '+PONG\r\n';
    case 'INFO':
      return bulk(info);
    case 'CONFIG':
    case 'COMMAND':
      return '*0\r\n';
    case 'DBSIZE':
    case 'DEL':
    case 'UNLINK':
    case 'EXISTS':
      return ':0\r\n';
    case 'GET':
      return '$-1\r\n';
    case 'SCAN':
      return '*2\r\n$1\r\n0\r\n*0\r\n';
    case 'HELLO':
      return "-ERR unknown command 'HELLO'\r\n";
    default:
      return '+OK\r\n';
  }
}

/** Reads the whole commands at the start of `buffer`; returns them and the bytes left over. */
function takeCommands(buffer: Buffer): { commands: string[][]; rest: Buffer } {
  const commands: string[][] = [];
  let at = 0;
  for (let read = readRespValue(buffer, at); read; read = at < buffer.length ? readRespValue(buffer, at) : undefined) {
    const value: RespValue = read.value;
    commands.push(Array.isArray(value) ? value.map((word) => String(word)) : [String(value)]);
    at = read.end;
  }
  return { commands, rest: buffer.subarray(at) };
}

function listen(server: Server, sockets: Set<Socket>, commands: string[][]): Promise<FakeRedis> {
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        port,
        url: `redis://127.0.0.1:${port}`,
        commands,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A fake Redis whose INFO (every section asked for) is `info`; `replies`: raw RESP replies by command name (upper case). */
export function fakeRedis(info: string, replies: ReadonlyMap<string, string> = new Map()): Promise<FakeRedis> {
  const commands: string[][] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    let pending: Buffer<ArrayBufferLike> = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      const taken = takeCommands(Buffer.concat([pending, chunk]));
      pending = taken.rest;
      for (const words of taken.commands) {
        commands.push(words);
        socket.write(answer(words, info, replies));
        if ((words[0] ?? '').toUpperCase() === 'QUIT') socket.end();
      }
    });
  });
  return listen(server, sockets, commands);
}

/** A relay to the real server at `upstreamPort` that logs the commands passing through. */
export function loggingRelay(upstreamPort: number): Promise<FakeRedis> {
  const commands: string[][] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(upstreamPort, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    upstream.on('data', (chunk) => client.write(chunk));
    let pending: Buffer<ArrayBufferLike> = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      const taken = takeCommands(Buffer.concat([pending, chunk]));
      pending = taken.rest;
      commands.push(...taken.commands);
    });
  });
  return listen(server, sockets, commands);
}

/** The commands that sent `secret` (an AUTH, a HELLO … AUTH), as text. */
export function commandsCarrying(server: FakeRedis, secret: string): string[] {
  return server.commands.filter((words) => words.includes(secret)).map((words) => words.join(' '));
}
