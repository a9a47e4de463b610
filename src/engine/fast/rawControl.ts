// The run's control connections (server facts, INFO samples, counters, CLIENT LIST, clean-up) on the engine's own
// socket code instead of ioredis: opened as a load connection is (openTargetSocket: TLS, unix sockets, AUTH with
// an ACL user, SELECT, a Sentinel target's primary, through the network gate), each reply framed within the
// control limits before it is read (replyReader.ts). A run then never loads ioredis (~0.4 MB of bundle, ~20 ms
// of CPU at every start). Commands are pipelined: replies come back in order, each to the command that waits.
import { RedisConnectionError } from '../../redis/control';
import { ControlReplyError, type BatchReply, type ControlArg, type ControlLink } from '../../redis/controlLink';
import type { CommandTally } from '../../redis/commandTally';
import { address, describeConnectionError, errorPlace } from '../../redis/errors';
import type { ConnectionOptions } from '../../redis/types';
import { encodeRespCommand } from '../../protocol/respEncode';
import { CONTROL_REPLY_LIMITS, ReplyCollector } from '../../protocol/replyReader';
import { RespErrorReply, type RespValue } from '../../protocol/respValue';
import { LoadError } from '../errors';
import { handshakeCommands, type RawConnection } from './connect';
import { openTargetSocket } from './primarySocket';

/** Client name in CLIENT LIST when the run gives none (control.ts's). */
const CONTROL_CLIENT_NAME = 'rbench-control';
/** A command without an answer for this long fails (and closes the connection) rather than hanging the run. */
const COMMAND_TIMEOUT_MS = 10_000;
/** A connection dropped after it worked is opened again this many times, then commands fail. */
const MAX_RECONNECTS = 3;

interface Waiting {
  name: string;
  resolve(reply: RespValue): void;
  reject(error: Error): void;
  settled(): void;
}

/** Connects, authenticates, selects the database, names itself; throws RedisConnectionError with a plain message. */
export async function openRawControl(options: ConnectionOptions, tally?: CommandTally): Promise<ControlLink> {
  const control = new RawControl(options, tally);
  await control.connect().catch((error: unknown) => Promise.reject(new RedisConnectionError(connectMessage(error, options))));
  return control;
}

function connectMessage(error: unknown, options: ConnectionOptions): string {
  // The fast path's failures are worded already (connect.ts, primarySocket.ts).
  return error instanceof LoadError ? error.message : describeConnectionError(error, errorPlace(options));
}

class RawControl implements ControlLink {
  private connection?: RawConnection;
  private opening?: Promise<void>;
  private readonly waiting: Waiting[] = [];
  private collector = new ReplyCollector(CONTROL_REPLY_LIMITS);
  private timer?: NodeJS.Timeout;
  private reconnects = 0;
  private closed = false;

  constructor(
    private readonly options: ConnectionOptions,
    private readonly tally?: CommandTally,
  ) {}

  async connect(): Promise<void> {
    const connection = await openTargetSocket(this.options);
    // The handshake's commands (AUTH, SELECT, PING) count as RBench's own too.
    for (const command of handshakeCommands(this.options)) this.tally?.sending(command.args[0], command.args.slice(1))();
    this.collector = new ReplyCollector(CONTROL_REPLY_LIMITS);
    connection.onBytes((chunk, length) => this.received(chunk.subarray(0, length)));
    connection.socket.once('close', () => this.lost(connection, `the connection to ${address(errorPlace(this.options))} closed`));
    this.connection = connection;
    // Other runs tell RBench's connections apart by their name (src/runner/otherRuns.ts); a refusal leaves it unnamed.
    await this.call('CLIENT', 'SETNAME', this.options.clientName ?? CONTROL_CLIENT_NAME).catch(() => undefined);
  }

  async call(command: string, ...args: ControlArg[]): Promise<unknown> {
    const [reply] = await this.send([[command, ...args]]);
    if (reply instanceof RespErrorReply) throw new ControlReplyError(reply.message);
    return fromResp(reply);
  }

  async batch(commands: ControlArg[][]): Promise<BatchReply[]> {
    const replies = await this.send(commands);
    return replies.map((reply): BatchReply => (reply instanceof RespErrorReply ? [new ControlReplyError(reply.message), null] : [null, fromResp(reply)]));
  }

  async close(): Promise<void> {
    if (this.connection && !this.connection.socket.destroyed) await this.call('QUIT').catch(() => undefined);
    this.disconnect();
  }

  disconnect(): void {
    this.closed = true;
    this.connection?.socket.destroy();
  }

  private async send(commands: ControlArg[][]): Promise<RespValue[]> {
    if (this.closed) throw new Error('Connection is closed.');
    const connection = await this.usable();
    const replies = commands.map(
      (command) =>
        new Promise<RespValue>((resolve, reject) => {
          const name = String(command[0]);
          const settled = this.tally?.sending(name, command.slice(1)) ?? (() => undefined);
          this.waiting.push({ name, resolve, reject, settled });
        }),
    );
    connection.socket.write(Buffer.concat(commands.map((command) => encodeRespCommand(command.map(String)))));
    this.timer ??= setTimeout(() => this.timedOut(), COMMAND_TIMEOUT_MS);
    return Promise.all(replies);
  }

  /** The open connection, or a new one after it dropped (a few times, as ioredis reconnected the control connection). */
  private usable(): Promise<RawConnection> {
    if (this.connection && !this.connection.socket.destroyed) return Promise.resolve(this.connection);
    if (this.reconnects >= MAX_RECONNECTS) return Promise.reject(new Error(`the connection to ${address(errorPlace(this.options))} is closed`));
    if (!this.opening) {
      this.reconnects++;
      this.opening = this.connect().finally(() => (this.opening = undefined));
    }
    return this.opening.then(() => this.connection!);
  }

  private received(chunk: Uint8Array): void {
    let replies: RespValue[];
    try {
      replies = this.collector.feed(chunk);
    } catch (error) {
      // A reply past the limits, or bytes that are not RESP: the connection is of no further use.
      this.failAll(new Error(`${address(errorPlace(this.options))} ${(error as Error).message}`));
      this.connection?.socket.destroy();
      return;
    }
    for (const reply of replies) {
      const waiting = this.waiting.shift();
      if (!waiting) continue;
      waiting.settled();
      waiting.resolve(reply);
    }
    clearTimeout(this.timer);
    this.timer = this.waiting.length > 0 ? setTimeout(() => this.timedOut(), COMMAND_TIMEOUT_MS) : undefined;
  }

  private timedOut(): void {
    this.timer = undefined;
    const name = this.waiting[0]?.name ?? 'a command';
    this.failAll(new Error(`Command timed out: no answer to ${name} within ${COMMAND_TIMEOUT_MS / 1000} s`));
    this.connection?.socket.destroy();
  }

  private lost(connection: RawConnection, message: string): void {
    if (this.connection !== connection) return;
    // ECONNRESET: worded by describeConnectionError as a lost connection.
    this.failAll(Object.assign(new Error(message), { code: 'ECONNRESET' }));
  }

  private failAll(error: Error): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const waiting of this.waiting.splice(0)) {
      waiting.settled();
      waiting.reject(error);
    }
  }
}

/** A reply as ioredis gives it: an error inside an array stays an Error, as in its replies. */
function fromResp(value: RespValue): unknown {
  if (value instanceof RespErrorReply) return new ControlReplyError(value.message);
  return Array.isArray(value) ? value.map(fromResp) : value;
}
