// The ioredis path: the same workload sent through ioredis, as an application would (`call` per
// request, `pipeline().exec()` batches when pipeline > 1), measured the same way. Reconnection is
// ioredis's own (retryStrategy with back-off); requests in flight when a connection drops fail at once
// (maxRetriesPerRequest 0) and count as CONNECTION errors.
import Redis, { type RedisOptions } from 'ioredis';
import { performance } from 'node:perf_hooks';
import type { ArgTemplate, TestPlan, ValuePlan } from '../../scenario/plan';
import { address, describeConnectionError, errorPlace } from '../../redis/errors';
import { guardReplies, LOAD_REPLY_LIMITS } from '../../redis/replyGuard';
import { sentinelClientOptions } from '../../redis/sentinelClient';
import { ValueSizes } from '../requests/batch';
import { BudgetedConnection, requestSource, State } from '../connectionBase';
import { LoadError } from '../errors';
import { WeightedTable, type KeySource, type Random } from '../requests/random';
import { RequestSequences } from '../requests/requestSequences';
import type { Payload } from '../requests/payload';
import { DrawnArgument, hasDraw, type NumberDraw } from '../requests/draws';
import { rowArguments, type TableCursor, type TtlDraw } from '../requests/tableValues';
import { RAND_INT_WIDTH, VALUE_BYTE } from '../requests/templateEncoder';
import { sendStampText } from '../sendStamp';
import { errorKind } from '../../protocol/respScanner';
import { CONNECTION_ERROR_KIND, TIMEOUT_ERROR_KIND, type WorkerStats } from '../measure/stats';
import { countNotRun, NIL_EXEC_KIND, NIL_EXEC_TEXT, queuedLabels, queuedReadsOf, UNIT_LABEL, type QueuedReads } from '../measure/unitTally';
import { OPEN_LOOP_MAX_IN_FLIGHT, type ClientPathModule, type ConnectionHost } from '../connection';
import { missesIn } from '../../scenario/missRules';

type Arg = string | Buffer;

const STRING_VALUE_LIMIT = 4096;

interface CompiledArgs {
  name: string;
  labelIndex: number;
  hasKey: boolean;
  hasValue: boolean;
  hasFields: boolean;
  build: (key: number, valueSize: number) => Arg[];
}

/** Argument lists per request for ioredis, drawn from the same seeded sequences as the fast path. */
export class IoredisRequests {
  readonly commands: CompiledArgs[];
  /** A command group: every request is all `commands`, in order. */
  readonly grouped: boolean;
  /** A transaction: the labels of its queued commands, whose replies are EXEC's elements. */
  readonly queued: number[];
  /** A transaction with reads: those that do not run when EXEC discards it. */
  readonly queuedReads: QueuedReads | undefined;
  private readonly table: WeightedTable | undefined;
  private readonly values: ValueSizes;
  private readonly sequences: RequestSequences;
  private readonly choices: Random;
  private readonly randInts: Random;
  private readonly valueArgs = new Map<number, Arg>();
  /** Each command's drawn numbers (`__rand(…)__`…), one per placeholder as written. */
  private readonly drawSets: Map<string, NumberDraw>[] = [];

  constructor(
    test: TestPlan,
    value: ValuePlan,
    private readonly keys: KeySource,
    private readonly context: {
      seed: number;
      client: number;
      keyWidth: number;
      keySpace: number;
      labelIndexes: number[];
      payload?: Payload;
      values?: TableCursor;
      fields?: TableCursor;
      ttl?: TtlDraw;
      connections?: number;
      order?: KeySource;
    },
    /** Per label, the miss rules (scenario/replyMisses.ts): a transaction's reads. */
    missRules: readonly number[] = [],
  ) {
    this.values = new ValueSizes(value);
    this.grouped = test.group !== undefined;
    this.queued = test.group?.transaction ? queuedLabels(test.commands, context.labelIndexes) : [];
    this.queuedReads = test.group?.transaction ? queuedReadsOf(test.commands, context.labelIndexes, missRules) : undefined;
    this.table = test.commands.length > 1 && !this.grouped ? new WeightedTable(test.commands.map((c) => c.weight)) : undefined;
    this.sequences = new RequestSequences(keys, context);
    this.choices = this.sequences.choices;
    this.randInts = this.sequences.randInts;
    this.commands = test.commands.map((c, i) => this.compile(c.command.name, c.command.args, context.labelIndexes[i]));
  }

  next(): { command: CompiledArgs; args: Arg[] } {
    const command = this.commands[this.context.order ? this.context.order.next() : this.table ? this.table.pick(this.choices) : 0];
    const key = command.hasKey || this.keyedData() ? this.keys.next() : 0;
    const size = command.hasValue ? this.nextSize(key) : 0;
    if (command.hasFields) this.context.fields?.select(key);
    return { command, args: command.build(key, size) };
  }

  /** A group's next unit: its commands with one key and one value size (values are cached per size, so the same bytes). */
  nextUnit(): { command: CompiledArgs; args: Arg[] }[] {
    const key = this.commands.some((c) => c.hasKey) || this.keyedData() ? this.keys.next() : 0;
    const size = this.commands.some((c) => c.hasValue) ? this.nextSize(key) : 0;
    if (this.commands.some((c) => c.hasFields)) this.context.fields?.select(key);
    return this.commands.map((command) => ({ command, args: command.build(key, size) }));
  }

  /** A data file's entry is picked by the request's key (as BatchBuilder does). */
  private keyedData(): boolean {
    return this.context.values?.byKey === true || this.context.fields?.byKey === true;
  }

  private nextSize(key: number): number {
    const values = this.context.values;
    return values ? values.select(key) : this.values.next(this.choices);
  }

  restart(): void {
    this.sequences.restart();
    for (const draws of this.drawSets) for (const draw of draws.values()) draw.restart();
  }

  /** The next batch holds the budget's requests first, first+1, …: RequestSequences.claimed. */
  claimed(first: number): void {
    this.sequences.claimed(first);
  }

  /**
   * The value argument, cached per size. Small values are strings: ioredis then encodes the whole
   * command as one string, cheaper than its Buffer concatenation path; large ones stay Buffers.
   */
  private valueArg(size: number): Arg {
    // A data file's value: the selected entry itself (shared memory, never written to).
    const entry = this.context.values?.current();
    if (entry) return Buffer.from(entry.buffer, entry.byteOffset, entry.byteLength);
    let value = this.valueArgs.get(size);
    if (value === undefined) {
      const payload = this.context.payload;
      const bytes = payload ? payload.next(size) : Buffer.alloc(size, VALUE_BYTE);
      // Random bytes are not text: they stay a Buffer (a string would be re-encoded as UTF-8).
      value = size <= STRING_VALUE_LIMIT && (!payload || payload.ascii) ? bytes.toString('latin1') : bytes;
      this.valueArgs.set(size, value);
    }
    return value;
  }

  private compile(name: string, args: ArgTemplate[], labelIndex: number): CompiledArgs {
    let hasKey = false;
    let hasValue = false;
    let hasFields = false;
    const width = this.context.keyWidth;
    const client = String(this.context.client);
    const draws = new Map<string, NumberDraw>();
    this.drawSets.push(draws);
    const builders = args.map((parts): ((key: number, size: number) => Arg | Arg[]) => {
      const whole = parts.length === 1 && typeof parts[0] !== 'string' ? parts[0].placeholder : undefined;
      if (whole === 'fields') {
        hasFields = true;
        return () => {
          const row = this.context.fields?.current();
          return row ? rowArguments(row) : [];
        };
      }
      if (whole === 'ttl') return () => String(this.context.ttl ? this.context.ttl.next(this.randInts) : 1);
      if (hasDraw(parts)) {
        if (parts.some((part) => typeof part !== 'string' && part.placeholder === 'key')) hasKey = true;
        const drawn = new DrawnArgument(parts, { key: width, rand: RAND_INT_WIDTH }, this.context.client, draws, this.context.connections ?? 1);
        return (key) => drawn.text(key, this.randInts, this.context.keySpace);
      }
      if (parts.every((p) => typeof p === 'string' || p.placeholder === 'client')) {
        const text = parts.map((p) => (typeof p === 'string' ? p : client)).join('');
        return () => text;
      }
      if (parts.length === 1 && typeof parts[0] !== 'string' && parts[0].placeholder === 'value') {
        hasValue = true;
        return (_key, size) => this.valueArg(size);
      }
      for (const part of parts) {
        if (typeof part === 'string') continue;
        if (part.placeholder === 'key') hasKey = true;
        if (part.placeholder === 'value') hasValue = true;
      }
      return (key, size) => {
        const pieces: Buffer[] = [];
        let text = '';
        for (const part of parts) {
          if (typeof part === 'string') text += part;
          else if (part.placeholder === 'key') text += String(key).padStart(width, '0');
          else if (part.placeholder === 'rand_int') text += String(this.randInts.nextInt(this.context.keySpace)).padStart(RAND_INT_WIDTH, '0');
          else if (part.placeholder === 'client') text += client;
          else if (part.placeholder === 'now') text += sendStampText();
          else {
            pieces.push(Buffer.from(text, 'utf8'), Buffer.from(this.valueArg(size)));
            text = '';
          }
        }
        if (pieces.length === 0) return text;
        pieces.push(Buffer.from(text, 'utf8'));
        return Buffer.concat(pieces);
      };
    });
    return {
      name,
      labelIndex,
      hasKey,
      hasValue,
      hasFields,
      // A row's pairs are spread into the arguments; otherwise one argument each (map: no flattening per request).
      build: hasFields ? (key, size) => builders.flatMap((b) => b(key, size)) : (key, size) => builders.map((b) => b(key, size) as Arg),
    };
  }
}

function isReplyError(error: Error): boolean {
  return error.name === 'ReplyError';
}

const NIL_EXEC_ERROR = Object.assign(new Error(NIL_EXEC_TEXT), { name: 'ReplyError' });

/** An error's kind, as the fast path names it. */
/** A publisher's PUBLISH or SPUBLISH reply, warm-up included (the subscribers hear those messages too): how many subscribers got it. */
export function countPublished(load: ConnectionHost, reply: unknown): void {
  if (!load.config.countsReceivers || typeof reply !== 'number') return;
  load.stats.recordPublished(reply);
}

export function kindOf(error: Error): string {
  return error === NIL_EXEC_ERROR ? NIL_EXEC_KIND : errorKind(error.message);
}

/** A reply that is not an error reply, yet fails a unit: EXEC answering nil (WATCH), or an error inside EXEC's reply. */
export function unitReplyError(name: string, reply: unknown): Error | undefined {
  if (name !== 'EXEC') return undefined;
  if (reply === null) return NIL_EXEC_ERROR;
  return Array.isArray(reply) ? (reply.find((element) => element instanceof Error) as Error | undefined) : undefined;
}

/**
 * A read's reply that found nothing: nil, an empty collection where the command answers one, an MGET's nil keys
 * (scenario/replyMisses.ts); EXEC's reply (`queued`: the labels of its transaction's queued commands), each element
 * for its command. Both ioredis paths count by it.
 */
export function countMisses(stats: Pick<WorkerStats, 'recordMiss'>, rules: readonly number[], label: number, reply: unknown, queued?: readonly number[]): void {
  if (queued && queued.length > 0 && Array.isArray(reply)) {
    reply.forEach((element, k) => {
      if (k < queued.length) countMisses(stats, rules, queued[k], element);
    });
    return;
  }
  const misses = missesIn(rules[label] ?? 0, reply);
  if (misses > 0) stats.recordMiss(label, misses);
}

export class IoredisConnection extends BudgetedConnection {
  private redis: Redis | undefined;
  private readonly requests: IoredisRequests;
  private inFlight = 0;
  /** Start time and size of each batch in flight, oldest first (for the wait of timed-out requests). */
  private readonly batchStarts: number[] = [];
  private readonly batchCounts: number[] = [];
  private waitingForReady = false;
  private everReady = false;
  /** A group's commands sent and not answered, per label (abandoned ones go to their rows). */
  private readonly commandsInFlight: Int32Array;
  /** Per label: which replies are misses (scenario/replyMisses.ts). */
  private readonly missRules: readonly number[];

  constructor(index: number, load: ConnectionHost) {
    super(index, load);
    const config = load.config;
    const { keys, context } = requestSource(load.config, index);
    this.requests = new IoredisRequests(config.test, config.value, keys, context, config.missRules);
    this.commandsInFlight = new Int32Array(config.labels.length);
    this.missRules = config.missRules ?? [];
  }

  override async open(): Promise<void> {
    this.adopt(await this.connectClient());
    this.everReady = true;
    this.state = State.Running;
  }

  protected override async reopen(): Promise<void> {
    const old = this.redis;
    this.redis = undefined;
    if (old) {
      // A planned close: not a lost connection (its error listener stays, for what ioredis reports while closing).
      old.removeListener('close', this.onClose);
      old.removeListener('ready', this.onReady);
      old.disconnect();
    }
    this.adopt(await this.connectClient());
  }

  /** A connected client (connect, handshake, PING answered), or a LoadError saying why not. */
  private async connectClient(): Promise<Redis> {
    const options = this.load.config.connection;
    const redisOptions: RedisOptions = {
      host: options.host,
      port: options.port,
      path: options.path,
      username: options.username,
      password: options.password,
      db: options.db ?? 0,
      tls: options.tls,
      connectTimeout: options.connectTimeoutMs,
      lazyConnect: true,
      enableOfflineQueue: false,
      enableReadyCheck: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      autoResubscribe: false,
      retryStrategy: () => null, // no retries while connecting: a failure must surface now
      ...sentinelClientOptions(options),
    };
    const redis = new Redis(redisOptions);
    this.redis = redis;
    // The reply gate: a reply past its limits closes the connection (counted as lost, with the reason), which reconnects.
    guardReplies(redis, LOAD_REPLY_LIMITS, { where: address(errorPlace(options)), reconnect: true });
    let lastError: Error | undefined;
    redis.on('error', (error: Error) => {
      lastError = error;
      if (this.state === State.Down) this.load.reconnectFailed(this.describe(error));
    });
    try {
      await redis.connect();
      // MISCONF: the server refuses PING with writes after a failed snapshot, yet the connection works.
      await redis.call('PING').catch((error: Error) => {
        if (!(isReplyError(error) && error.message.startsWith('MISCONF'))) throw error;
      });
    } catch (error) {
      redis.disconnect();
      throw new LoadError(this.describe((lastError ?? error) as Error));
    }
    return redis;
  }

  /** From now on a lost connection reconnects with back-off, and counts as lost. */
  private adopt(redis: Redis): void {
    redis.options.retryStrategy = (times: number) => Math.min(1000, 50 * 2 ** (times - 1));
    redis.on('close', this.onClose);
    redis.on('ready', this.onReady);
  }

  private describe(error: Error): string {
    return describeConnectionError(error, errorPlace(this.load.config.connection));
  }

  protected override restartSequences(): void {
    this.requests.restart();
  }

  protected override claimed(first: number): void {
    this.requests.claimed(first);
  }

  override canSend(): boolean {
    return this.state === State.Running && !this.connectionSpent() && this.inFlight < OPEN_LOOP_MAX_IN_FLIGHT;
  }

  override sendScheduled(intended: number): number {
    const count = this.takeBudget();
    if (count === 0) this.finishIfDone();
    else this.sendBatch(count, intended, false);
    return count;
  }

  override abandon(kind?: string, text?: string): void {
    if (kind !== undefined && this.inFlight > 0 && this.load.measuring) {
      // Labels of abandoned requests are not tracked on this path: count them against the first command.
      const label = this.requests.grouped ? UNIT_LABEL : this.requests.commands[0].labelIndex;
      const now = performance.now();
      const timedOut = kind === TIMEOUT_ERROR_KIND;
      // Batches answer in order: the queue holds each unanswered batch's start, oldest first.
      for (let i = 0; i < this.batchStarts.length; i++) {
        const waited = timedOut ? Math.round((now - this.batchStarts[i]) * 1000) : undefined;
        this.load.stats.recordUnanswered(label, this.batchCounts[i], kind, text ?? kind, waited);
      }
      // A group's unanswered commands, each on its row, with the oldest batch's wait.
      const waited = timedOut && this.batchStarts.length > 0 ? Math.round((now - this.batchStarts[0]) * 1000) : undefined;
      this.commandsInFlight.forEach((count, row) => {
        for (let i = 0; i < count; i++) this.load.stats.recordCommandUnanswered(row, kind, text ?? kind, waited);
      });
    }
    this.commandsInFlight.fill(0);
    this.batchStarts.length = this.batchCounts.length = 0;
    this.inFlight = 0;
    this.finish();
  }

  /**
   * The closed loop's next batch, after the event loop's poll phase: the other connections' replies that
   * came in the same poll are read first and the writes follow them, as redis-benchmark's write handler
   * does, instead of a write syscall (and a wake-up of the server) inside each reply's callback. Paired
   * against the direct call, SET/GET P1: throughput 1.06x/1.08x, CPU per request 0.95x/0.93x (bench/README.md).
   * The batch is timed when it is sent, so the wait is never counted as the server's latency.
   */
  private readonly sendNextLater = (): void => this.sendNextBatch();

  /** Times the batch itself (the caller's `now` may be older). */
  protected override sendNextBatch(): void {
    const now = performance.now();
    if (this.load.stopping || now >= this.load.deadline) {
      this.drain();
      return;
    }
    if (this.state === State.Down) {
      this.waitingForReady = true;
      return;
    }
    if (this.state !== State.Running || this.cycleIfSpent(now)) return;
    const count = this.takeBudget();
    if (count === 0) this.finishIfDone();
    else this.sendBatch(count, now, true);
  }

  /** Sends `count` requests; latency counts from `from` (send time, or intended time in the open loop). */
  private sendBatch(count: number, from: number, closedLoop: boolean): void {
    const redis = this.redis!;
    const measured = this.load.measuring;
    this.inFlight += count;
    this.batchStarts.push(from);
    this.batchCounts.push(count);
    // `lost`: the connection failed under this batch before ioredis said 'close' (a failover detector's
    // disconnect): wait for 'ready' rather than sending into a closed stream, which fails at once, in a loop.
    // `answered`: requests of the batch not yet taken off inFlight (a group's units go one by one).
    const done = (lost: boolean, answered = count) => {
      if (lost) this.onClose();
      else this.load.heard(this.index, performance.now());
      this.inFlight -= answered;
      this.batchStarts.shift();
      this.batchCounts.shift();
      if (closedLoop) {
        // Also when the connection went down: sendNextBatch then waits for ioredis to reconnect.
        if (this.inFlight === 0 && (this.state === State.Running || this.state === State.Down)) setImmediate(this.sendNextLater);
        else this.finishIfDone();
      } else {
        if (this.state === State.Running && !this.cycleIfSpent(performance.now())) this.load.kick();
        this.finishIfDone();
      }
    };
    if (this.requests.grouped) {
      this.sendUnits(count, from, measured, done);
      return;
    }
    const sent = this.load.sent;
    if (count === 1 && this.load.config.pipeline === 1) {
      const { command, args } = this.requests.next();
      sent[command.labelIndex]++;
      redis.call(command.name, args, (error, reply) => {
        const now = performance.now();
        countPublished(this.load, reply);
        if (measured) this.recordOutcome(command.labelIndex, error ?? null, now - from, now, reply);
        done(error != null && !isReplyError(error));
      });
      return;
    }
    const pipeline = redis.pipeline();
    const labels: number[] = [];
    for (let i = 0; i < count; i++) {
      const { command, args } = this.requests.next();
      labels.push(command.labelIndex);
      sent[command.labelIndex]++;
      pipeline.call(command.name, args);
    }
    pipeline.exec((error, results) => {
      const now = performance.now();
      for (const result of results ?? []) countPublished(this.load, result?.[1]);
      if (measured) {
        for (let i = 0; i < count; i++) {
          this.recordOutcome(labels[i], results?.[i]?.[0] ?? error ?? null, now - from, now, results?.[i]?.[1]);
        }
      }
      done(error != null || (results?.some(([failure]) => failure != null && !isReplyError(failure)) ?? false));
    });
  }

  /**
   * A group: each command is its own call, written back to back (ioredis hands a pipeline's replies over
   * only when the last arrives, which would hide each command's own latency). A unit is recorded at its last reply.
   */
  private sendUnits(count: number, from: number, measured: boolean, done: (lost: boolean, answered: number) => void): void {
    const redis = this.redis!;
    const stats = this.load.stats;
    let pending = count;
    let anyLost = false;
    for (let u = 0; u < count; u++) {
      const unit = this.requests.nextUnit();
      let left = unit.length;
      let failure: Error | undefined;
      let lost: Error | undefined;
      // Positions in the unit whose reply was an error (a transaction's reads that did not even queue).
      let failedAt: number[] | undefined;
      unit.forEach(({ command, args }, position) => {
        this.commandsInFlight[command.labelIndex]++;
        this.load.sent[command.labelIndex]++;
        redis.call(command.name, args, (error, reply) => {
          const now = performance.now();
          if (this.commandsInFlight[command.labelIndex] > 0) this.commandsInFlight[command.labelIndex]--;
          const micros = Math.round((now - from) * 1000);
          const replyError = error ?? unitReplyError(command.name, reply);
          if (error && !isReplyError(error)) {
            lost ??= error;
            if (measured) stats.recordCommandUnanswered(command.labelIndex, CONNECTION_ERROR_KIND, `connection lost: ${error.message}`);
          } else if (measured) {
            stats.recordCommandReply(command.labelIndex, micros);
            if (replyError) stats.recordCommandError(command.labelIndex, kindOf(replyError), replyError.message);
            else countMisses(stats, this.missRules, command.labelIndex, reply, command.name === 'EXEC' ? this.requests.queued : undefined);
            const queuedReads = this.requests.queuedReads;
            if (replyError && queuedReads) {
              if (position === queuedReads.exec) countNotRun(stats, queuedReads, kindOf(replyError), (at) => failedAt?.includes(at) === true);
              else (failedAt ??= []).push(position);
            }
          }
          failure ??= replyError ?? undefined;
          if (--left > 0) return;
          if (lost) anyLost = true;
          if (measured && lost) stats.recordUnanswered(UNIT_LABEL, 1, CONNECTION_ERROR_KIND, `connection lost: ${lost.message}`);
          else if (measured) {
            stats.recordReplies(UNIT_LABEL, micros, 1, now);
            if (failure) stats.recordError(UNIT_LABEL, kindOf(failure), failure.message);
          }
          // Units answer in order: this one belongs to the oldest batch still in flight.
          this.inFlight--;
          if (this.batchCounts.length > 0) this.batchCounts[0]--;
          if (--pending === 0) done(anyLost, 0);
        });
      });
    }
  }

  private recordOutcome(label: number, error: Error | null, elapsedMs: number, now: number, reply: unknown): void {
    const stats = this.load.stats;
    if (error && !isReplyError(error)) {
      stats.recordUnanswered(label, 1, CONNECTION_ERROR_KIND, `connection lost: ${error.message}`);
      return;
    }
    stats.recordReplies(label, Math.round(elapsedMs * 1000), 1, now);
    if (error) stats.recordError(label, errorKind(error.message), error.message);
    else this.countMiss(label, reply);
  }

  /** A read's reply that found nothing: nil, or an empty collection where the command answers one (scenario/replyMisses.ts). */
  private countMiss(label: number, reply: unknown): void {
    countMisses(this.load.stats, this.missRules, label, reply);
  }

  private readonly onClose = (): void => {
    if (this.state === State.Running) {
      this.state = State.Down;
      this.load.connectionDown('connection lost');
    } else if (this.state === State.Draining) {
      this.finishIfDone();
    }
  };

  private readonly onReady = (): void => {
    if (this.state !== State.Down || !this.everReady) return;
    this.state = State.Running;
    this.reconnects++;
    this.load.connectionUp();
    if (this.waitingForReady && !this.load.openLoop) {
      this.waitingForReady = false;
      this.sendNextBatch();
    }
  };

  protected override requestsInFlight(): number {
    return this.inFlight;
  }

  protected override close(): void {
    this.redis?.disconnect();
  }
}

/** The ioredis single-node path (clientPaths.ts). */
export const openClientPath: ClientPathModule['openClientPath'] = () => ({
  factory: (index, load) => new IoredisConnection(index, load),
  cluster: () => undefined,
});
