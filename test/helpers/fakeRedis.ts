// A small fake RESP server for tests of hostile servers: it answers what `answer` says (a few commands
// have defaults), records every command it received, and counts connections. And a bare listener that
// only records who connects and what they send. Both on a loopback address (127.0.0.0/8) the test picks.
import { createServer, type Server, type Socket } from 'node:net';
import { readRespValue, type RespValue } from '../../src/protocol/respValue';

/**
 * What the fake answers: a string is a bulk string, `{ status }` a simple string, `{ error }` an error, null a nil;
 * `{ raw }` is RESP bytes written by the test as they go on the wire (a hostile or malformed reply).
 */
export type FakeReply = string | number | null | { status: string } | { error: string } | { raw: string } | FakeReply[];

export interface FakeServer {
  host: string;
  port: number;
  /** Every command received, upper-cased name first. */
  commands: string[][];
  connections: number;
  close(): Promise<void>;
}

function encode(reply: FakeReply): string {
  if (reply === null) return '$-1\r\n';
  if (typeof reply === 'number') return `:${reply}\r\n`;
  if (typeof reply === 'string') return `$${Buffer.byteLength(reply)}\r\n${reply}\r\n`;
  if (Array.isArray(reply)) return `*${reply.length}\r\n${reply.map(encode).join('')}`;
  if ('raw' in reply) return reply.raw;
  if ('status' in reply) return `+${reply.status}\r\n`;
  return `-${reply.error}\r\n`;
}

/** The defaults of a server that is up and has nothing special to say. */
function defaultReply(args: string[], info: string): FakeReply {
  const name = args[0].toUpperCase();
  const sub = (args[1] ?? '').toUpperCase();
  switch (name) {
    case 'PING':
      return { status: 'PONG' };
    case 'AUTH':
    case 'SELECT':
    case 'READONLY':
    case 'ASKING':
    case 'QUIT':
    case 'SET':
    case 'UNLINK':
      return name === 'UNLINK' ? 0 : { status: 'OK' };
    case 'CLIENT':
      return sub === 'ID' ? 1 : { status: 'OK' };
    case 'INFO':
      return info;
    case 'DBSIZE':
      return 0;
    case 'CONFIG':
      return [];
    case 'SCAN':
      return ['0', []];
    case 'GET':
      return null;
    default:
      return { error: `ERR unknown command '${args[0]}'` };
  }
}

export interface FakeOptions {
  /** Answers a command, or undefined for the default answer. */
  answer?: (args: string[]) => FakeReply | undefined;
  /** INFO's text (all sections at once); `redis_mode:standalone` by default. */
  info?: string;
}

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

/** A test's own server on 127.0.0.1, listening; `close` ends the sockets it tracks in `sockets`, then the server. */
export async function serveOnLoopback(server: Server, sockets: Set<Socket>): Promise<{ port: number; close(): Promise<void> }> {
  return { port: await listen(server, '127.0.0.1'), close: closer(server, sockets) };
}

function closer(server: Server, sockets: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise<void>((done) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => done());
    });
}

/**
 * Reads the commands in the bytes a client sends, chunk by chunk: `onCommand` gets each whole command's words.
 * Returns false for bytes that are not RESP (the caller drops that client).
 */
export function commandReader(onCommand: (args: string[]) => void): (chunk: Buffer) => boolean {
  let buffered = Buffer.alloc(0);
  return (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      let read: { value: RespValue; end: number } | undefined;
      try {
        read = readRespValue(buffered, 0);
      } catch {
        return false;
      }
      if (!read) return true;
      buffered = buffered.subarray(read.end);
      onCommand((Array.isArray(read.value) ? read.value : [read.value]).map(String));
    }
  };
}

export async function startFakeRedis(host: string, options: FakeOptions = {}): Promise<FakeServer> {
  const sockets = new Set<Socket>();
  const info = options.info ?? '# Server\r\nredis_version:7.2.0\r\nredis_mode:standalone\r\nos:Linux\r\n';
  const fake: FakeServer = { host, port: 0, commands: [], connections: 0, close: async () => undefined };
  const server = createServer((socket) => {
    sockets.add(socket);
    fake.connections++;
    let out = '';
    const read = commandReader((args) => {
      fake.commands.push([args[0].toUpperCase(), ...args.slice(1)]);
      out += encode(options.answer?.(args) ?? defaultReply(args, info));
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (chunk: Buffer) => {
      const ok = read(chunk);
      const replies = out;
      out = '';
      if (!ok) socket.destroy();
      else if (replies) socket.write(replies);
    });
  });
  fake.port = await listen(server, host);
  fake.close = closer(server, sockets);
  return fake;
}

export interface Listener {
  host: string;
  port: number;
  connections: number;
  /** Everything received, as text. */
  received: string;
  close(): Promise<void>;
}

/** A listener that answers nothing: it only records connections and bytes (a node RBench must never contact). */
export async function startListener(host: string): Promise<Listener> {
  const sockets = new Set<Socket>();
  const listener: Listener = { host, port: 0, connections: 0, received: '', close: async () => undefined };
  const server = createServer((socket) => {
    sockets.add(socket);
    listener.connections++;
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => (listener.received += chunk.toString('latin1')));
  });
  listener.port = await listen(server, host);
  listener.close = closer(server, sockets);
  return listener;
}

/** INFO text of a server claiming to be a cluster node. */
export const CLUSTER_INFO = '# Server\r\nredis_version:7.2.0\r\nredis_mode:cluster\r\nos:Linux\r\n# Cluster\r\ncluster_enabled:1\r\n';

/** A CLUSTER SHARDS node entry. */
export function shardNode(id: string, host: string, port: number, role: 'master' | 'replica'): FakeReply[] {
  return ['id', id, 'port', port, 'ip', host, 'endpoint', host, 'role', role, 'replication-offset', 0, 'health', 'online'];
}

/**
 * Answers of a fake cluster node whose CLUSTER SHARDS/SLOTS give slots 0-8191 to itself and 8192-16383 to
 * `other` (or every slot to itself without one); CLUSTER INFO says ok, CLUSTER MYID names itself.
 */
export function clusterAnswers(self: { host: string; port: number }, other?: { host: string; port: number }): (args: string[]) => FakeReply | undefined {
  return (args) => {
    if (args[0].toUpperCase() !== 'CLUSTER') return undefined;
    const sub = (args[1] ?? '').toUpperCase();
    const last = other ? 8191 : 16383;
    if (sub === 'MYID') return 'fake-seed';
    if (sub === 'INFO') return 'cluster_state:ok\r\ncluster_slots_assigned:16384\r\ncluster_known_nodes:2\r\n';
    if (sub === 'SHARDS') {
      const shards: FakeReply[] = [['slots', [0, last], 'nodes', [shardNode('fake-seed', self.host, self.port, 'master')]]];
      if (other) shards.push(['slots', [8192, 16383], 'nodes', [shardNode('other', other.host, other.port, 'master')]]);
      return shards;
    }
    if (sub === 'SLOTS') {
      const slots: FakeReply[] = [[0, last, [self.host, self.port, 'fake-seed']]];
      if (other) slots.push([8192, 16383, [other.host, other.port, 'other']]);
      return slots;
    }
    return undefined;
  };
}
