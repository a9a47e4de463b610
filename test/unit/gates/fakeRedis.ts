// The servers of the "untrusted data" tests: a fake Redis (test/helpers/fakeRedis.ts) whose INFO text the test
// chooses, with replies written as raw RESP by command name and defaults that accept whatever a run sends; or a
// logging relay in front of a real redis-server. Both log every command they receive, so a test can tell whether
// a secret (an AUTH) reached them.
import { connect, createServer, type Socket } from 'node:net';
import { commandReader, serveOnLoopback, startFakeRedis, type FakeReply } from '../../helpers/fakeRedis';

export interface FakeRedis {
  port: number;
  url: string;
  /** Every command received, as its words. */
  readonly commands: string[][];
  close(): Promise<void>;
}

/** The answers of a server that takes every command a run sends (other than the test's own replies). */
function acceptingReply(words: string[], info: string): FakeReply {
  switch (words[0].toUpperCase()) {
    case 'PING':
      return { status: 'PONG' };
    case 'INFO':
      return info;
    case 'CONFIG':
    case 'COMMAND':
      return [];
    case 'DBSIZE':
    case 'DEL':
    case 'UNLINK':
    case 'EXISTS':
      return 0;
    case 'GET':
      return null;
    case 'SCAN':
      return ['0', []];
    case 'HELLO':
      return { error: "ERR unknown command 'HELLO'" };
    default:
      return { status: 'OK' };
  }
}

/** A fake Redis whose INFO (every section asked for) is `info`; `replies`: raw RESP replies by command name (upper case). */
export async function fakeRedis(info: string, replies: ReadonlyMap<string, string> = new Map()): Promise<FakeRedis> {
  const fake = await startFakeRedis('127.0.0.1', {
    info,
    answer: (words) => {
      const own = replies.get(words[0].toUpperCase());
      return own !== undefined ? { raw: own } : acceptingReply(words, info);
    },
  });
  return { port: fake.port, url: `redis://127.0.0.1:${fake.port}`, commands: fake.commands, close: fake.close };
}

/** A relay to the real server at `upstreamPort` that logs the commands passing through. */
export async function loggingRelay(upstreamPort: number): Promise<FakeRedis> {
  const commands: string[][] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    const upstream = connect(upstreamPort, '127.0.0.1');
    sockets.add(upstream);
    client.on('error', () => client.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    upstream.on('data', (chunk) => client.write(chunk));
    const log = commandReader((words) => commands.push(words));
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      log(chunk);
    });
  });
  const { port, close } = await serveOnLoopback(server, sockets);
  return { port, url: `redis://127.0.0.1:${port}`, commands, close };
}

/** The commands that sent `secret` (an AUTH, a HELLO … AUTH), as text. */
export function commandsCarrying(server: FakeRedis, secret: string): string[] {
  return server.commands.filter((words) => words.includes(secret)).map((words) => words.join(' '));
}
