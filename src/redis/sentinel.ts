// Asks a target's sentinels where its primary is (`SENTINEL get-master-addr-by-name`), one sentinel after
// the other until one knows. Plain sockets and the small RESP reader: the fast path's worker threads
// call it on every (re)connect, and must not load a client library for it.
import * as net from 'node:net';
import { approvedNodes, NodeRefusedError, withNetworkRule, type ApprovedNodes } from '../gates/network';
import { encodeRespCommand } from '../protocol/respEncode';
import { address, describeConnectionError, describeHandshakeReply, errorPlace, CONNECT_TIMEOUT } from './errors';
import { RespErrorReply, type RespValue } from '../protocol/respValue';
import { CONTROL_REPLY_LIMITS, ReplyCollector, ReplyLimitError } from '../protocol/replyReader';
import { sentinelList } from '../protocol/sentinelUrl';
import type { ConnectionOptions, SentinelOptions } from './types';
import { openTcpSocket, openTlsSocket } from './clientSocket';

export interface PrimaryAddress {
  host: string;
  port: number;
}

/** A sentinel that answered, but knows no primary of that name. */
const UNKNOWN_NAME = Symbol('unknown primary name');

/** Queries in flight, shared by the connections that open at the same moment (a load's start, a failover). */
const pending = new Map<string, Promise<PrimaryAddress>>();

/**
 * The primary's address as the first sentinel that knows it says; rejects with a message naming every
 * sentinel asked and the fix. Concurrent calls for the same sentinels and name share one round of questions.
 * A primary the network gate does not approve (src/gates/network.ts) rejects with NodeRefusedError: nothing
 * is sent to it.
 */
export function discoverPrimary(options: ConnectionOptions & { sentinel: SentinelOptions }): Promise<PrimaryAddress> {
  const key = JSON.stringify([options.sentinel.name, options.sentinel.nodes, options.sentinel.username ?? '', options.tls !== undefined]);
  let query = pending.get(key);
  if (!query) {
    query = askEachSentinel(options).finally(() => pending.delete(key));
    pending.set(key, query);
  }
  // Each caller's own rule: a shared round of questions is checked against the rule of whoever asked.
  return query.then((primary) => {
    const refusal = primaryRefusal(approvedNodes(options), options.sentinel.name, primary);
    return refusal ? Promise.reject(new NodeRefusedError(refusal)) : primary;
  });
}

/** The network gate on the primary the sentinels name `name` (this discovery's and ioredis's Sentinel mode): undefined when it may be contacted, else the refusal. */
export function primaryRefusal(approved: ApprovedNodes, name: string, primary: PrimaryAddress): string | undefined {
  return approved.check(primary.host, primary.port, `the sentinels name the primary "${name}" at`);
}

/** What the monitor, the messages and the run file call the target: `primary mymaster at 127.0.0.1:6380 (sentinels …)`. */
export function describePrimary(sentinel: SentinelOptions, primary?: PrimaryAddress): string {
  const at = primary ? ` at ${address(primary)}` : '';
  return `primary "${sentinel.name}"${at} (sentinels ${sentinelList(sentinel.nodes)})`;
}

/** The options with host and port set to the primary the sentinels name now; other targets unchanged. */
export async function withCurrentPrimary(options: ConnectionOptions): Promise<ConnectionOptions> {
  if (!options.sentinel) return options;
  // The rule is fixed before host and port change: the sentinels stay the seeds, not the primary they name.
  const fixed = withNetworkRule(options);
  const primary = await discoverPrimary({ ...fixed, sentinel: options.sentinel });
  return { ...fixed, host: primary.host, port: primary.port };
}

/** A redis:// target that is a sentinel itself: the load would only collect "unknown command" errors. */
export function sentinelAsDataNode(options: ConnectionOptions, mode: string): string | undefined {
  if (mode !== 'sentinel' || options.sentinel) return undefined;
  const at = address(options);
  return `${at} is a sentinel, not a data node: to benchmark the primary it watches, write the target as redis-sentinel://${at}/NAME (NAME as in \`sentinel monitor NAME …\`)`;
}

async function askEachSentinel(options: ConnectionOptions & { sentinel: SentinelOptions }): Promise<PrimaryAddress> {
  const { sentinel } = options;
  const failures: string[] = [];
  let answeredUnknown = 0;
  for (const node of sentinel.nodes) {
    const answer = await askSentinel(options, node).catch((error: Error) => error);
    if (answer === UNKNOWN_NAME) answeredUnknown++;
    else if (answer instanceof Error) failures.push(answer.message);
    else return answer;
  }
  const list = sentinelList(sentinel.nodes);
  if (answeredUnknown > 0) {
    const unreachable = failures.length > 0 ? `; the others did not answer: ${failures.join('; ')}` : '';
    return Promise.reject(
      new Error(
        `the sentinels at ${list} know no primary named "${sentinel.name}"${unreachable} — check the name after the last / of the target ` +
          `(it is the NAME of \`sentinel monitor NAME host port quorum\`; \`SENTINEL MASTERS\` on a sentinel lists them)`,
      ),
    );
  }
  return Promise.reject(new Error(`no sentinel of primary "${sentinel.name}" answered: ${failures.join('; ')}`));
}

function sentinelConnection(options: ConnectionOptions, node: PrimaryAddress): ConnectionOptions {
  const sentinel = options.sentinel!;
  const connection: ConnectionOptions = { host: node.host, port: node.port, resp: 2, connectTimeoutMs: options.connectTimeoutMs };
  // SNI per host: a sentinel's certificate is checked against its own name, not the primary's `tls-servername`.
  if (options.tls) connection.tls = { ...options.tls, servername: net.isIP(node.host) ? undefined : node.host };
  if (sentinel.username !== undefined) connection.username = sentinel.username;
  if (sentinel.password !== undefined) connection.password = sentinel.password;
  if (sentinel.passwordSource !== undefined) connection.passwordSource = sentinel.passwordSource;
  return connection;
}

/** One sentinel's answer: the address, UNKNOWN_NAME, or a rejection with a message for the user. */
function askSentinel(options: ConnectionOptions, node: PrimaryAddress): Promise<PrimaryAddress | typeof UNKNOWN_NAME> {
  return askSentinelAbout(options, node, 'GET-MASTER-ADDR-BY-NAME', readAddress);
}

/** One sentinel's answer to `SENTINEL <question> <name>`, read by `read`; rejects with a message for the user. */
function askSentinelAbout<T>(options: ConnectionOptions, node: PrimaryAddress, question: string, read: AnswerReader<T>): Promise<T | typeof UNKNOWN_NAME> {
  const connection = sentinelConnection(options, node);
  const place = errorPlace(connection);
  const name = options.sentinel!.name;
  const commands: string[][] = [];
  if (connection.password !== undefined) {
    commands.push(connection.username !== undefined ? ['AUTH', connection.username, connection.password] : ['AUTH', connection.password]);
  }
  commands.push(['SENTINEL', question, name]);
  return new Promise((resolve, reject) => {
    const socket = connection.tls
      ? openTlsSocket({ ...connection.tls, host: node.host, port: node.port })
      : openTcpSocket({ host: node.host, port: node.port });
    // Whole replies, within the limits every reader keeps (a sentinel is a server like any other).
    const received = new ReplyCollector(CONTROL_REPLY_LIMITS);
    const replies: RespValue[] = [];
    let settled = false;
    const finish = (outcome: T | typeof UNKNOWN_NAME | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const timer = setTimeout(
      () => finish(new Error(describeConnectionError(Object.assign(new Error('timeout'), { code: CONNECT_TIMEOUT }), place))),
      connection.connectTimeoutMs,
    );
    socket.on(connection.tls ? 'secureConnect' : 'connect', () => socket.write(Buffer.concat(commands.map(encodeRespCommand))));
    socket.on('error', (error) => finish(new Error(`sentinel ${describeConnectionError(error, place)}`)));
    socket.on('close', () => finish(new Error(`sentinel ${address(node)} closed the connection before answering`)));
    socket.on('data', (chunk: Buffer) => {
      try {
        replies.push(...received.feed(chunk));
      } catch (error) {
        if (error instanceof ReplyLimitError) finish(new Error(`sentinel ${address(node)} ${error.message}`));
        else finish(new Error(`sentinel ${address(node)} answered with bytes that are not RESP (${(error as Error).message}): is it a sentinel port?`));
        return;
      }
      if (replies.length < commands.length) return;
      finish(interpret(replies, commands, node, name, place, read));
    });
  });
}

type AnswerReader<T> = (answer: RespValue, at: string, name: string) => T | typeof UNKNOWN_NAME | Error;

function interpret<T>(
  replies: RespValue[],
  commands: string[][],
  node: PrimaryAddress,
  name: string,
  place: ReturnType<typeof errorPlace>,
  read: AnswerReader<T>,
): T | typeof UNKNOWN_NAME | Error {
  const at = address(node);
  for (let i = 0; i < commands.length; i++) {
    const reply = replies[i];
    if (!(reply instanceof RespErrorReply)) continue;
    if (/^NOAUTH/.test(reply.message)) {
      return new Error(`sentinel ${at} asks for a password — add \`sentinel-password env:NAME\` (or \`sentinel-password secret\`) to the target`);
    }
    if (commands[i][0] === 'AUTH')
      return new Error(
        `sentinel ${describeHandshakeReply(reply.message, place, 'auth').replace(/remove the password from the target/, 'remove `sentinel-password` from the target')}`,
      );
    if (/unknown command|unknown subcommand/i.test(reply.message)) {
      return new Error(
        `${at} is not a sentinel (it answered "${reply.message}"): list the sentinels' ports (26379 by default) in the target, not the data nodes'`,
      );
    }
    return new Error(`sentinel ${at} refused SENTINEL ${commands[i].slice(1).join(' ')}: ${reply.message}`);
  }
  return read(replies[commands.length - 1], at, name);
}

function readAddress(answer: RespValue, at: string, name: string): PrimaryAddress | typeof UNKNOWN_NAME | Error {
  if (answer === null) return UNKNOWN_NAME;
  const port = Array.isArray(answer) && (typeof answer[1] === 'string' || typeof answer[1] === 'number') ? Number(answer[1]) : NaN;
  // A host name or address is printable and has no spaces; a port is a whole number up to 65535.
  if (
    Array.isArray(answer) &&
    typeof answer[0] === 'string' &&
    /^[!-~\u0080-\uffff]+$/.test(answer[0]) &&
    Number.isInteger(port) &&
    port > 0 &&
    port <= 65535
  ) {
    return { host: answer[0], port };
  }
  return new Error(`sentinel ${at} gave an address for "${name}" that cannot be read: ${JSON.stringify(answer)}`);
}

/**
 * The sentinels' `down-after-milliseconds` for the target's primary (`SENTINEL MASTER name`): how long they
 * wait before calling a silent primary down and starting a failover. Undefined when no sentinel tells.
 */
export async function primaryDownAfterMs(options: ConnectionOptions & { sentinel: SentinelOptions }): Promise<number | undefined> {
  for (const node of options.sentinel.nodes) {
    const answer = await askSentinelAbout(options, node, 'MASTER', readDownAfter).catch(() => undefined);
    if (typeof answer === 'number') return answer;
  }
  return undefined;
}

function readDownAfter(answer: RespValue, at: string, name: string): number | typeof UNKNOWN_NAME | Error {
  if (!Array.isArray(answer)) return UNKNOWN_NAME;
  // Read as name/value pairs from a Map (never an object: the names are the server's).
  const fields = new Map<string, RespValue>();
  for (let i = 0; i + 1 < answer.length; i += 2) if (typeof answer[i] === 'string') fields.set(answer[i] as string, answer[i + 1]);
  const raw = fields.get('down-after-milliseconds');
  const value = typeof raw === 'string' || typeof raw === 'number' ? Number(raw) : NaN;
  return Number.isFinite(value) && value > 0 ? value : new Error(`sentinel ${at} gave no down-after-milliseconds for "${name}"`);
}
