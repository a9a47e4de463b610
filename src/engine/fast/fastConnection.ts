// The fast path: one raw socket per connection writing pre-encoded RESP and counting replies with the
// streaming scanner. Closed loop: one batch of `pipeline` commands in flight, the next written as soon
// as the last reply of the previous one arrives (as redis-benchmark does). Open loop: batches are sent
// on the schedule of WorkerLoad, each remembered with its intended time in a ring.
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { BatchBuilder } from '../requests/batch';
import { requestSource, State } from '../connectionBase';
import { watchPrimary } from './primaryWatch';
import { SocketConnection } from './socketConnection';
import { writeRange } from './socketWrite';
import { ReplyScanner, RespProtocolError } from '../../protocol/respScanner';
import { TIMEOUT_ERROR_KIND } from '../measure/stats';
import { NIL_EXEC_KIND, NIL_EXEC_TEXT, queuedLabels, queuedReadsOf, UNIT_LABEL, UnitTally } from '../measure/unitTally';
import { OPEN_LOOP_MAX_IN_FLIGHT, type ClientPathModule, type ConnectionHost } from '../connection';
import { MISS_NIL_ELEMENTS, MISS_NIL_OR_EMPTY, MISS_NONE, scannedMiss } from '../../scenario/missRules';

export class FastConnection extends SocketConnection {
  private readonly scanner = new ReplyScanner();
  private readonly builder: BatchBuilder;
  // Closed loop: the batch in flight.
  private batchSize = 0;
  private replied = 0;
  private sentAt = 0;
  private batchMeasured = false;
  // Open loop: requests in flight, oldest first (intended time, label, measured).
  private readonly ringIntended: Float64Array;
  private readonly ringLabels: Uint16Array;
  private readonly ringMeasured: Uint8Array;
  private ringHead = 0;
  private ringSize = 0;
  // Command groups: the unit accounting, and (open loop) the ring head's position in its unit.
  private readonly units: UnitTally | undefined;
  private unitPosition = 0;
  /** Per label: which replies are misses (scenario/replyMisses.ts); the scanner reports nils and empty arrays, off its fast lane. */
  private readonly missRules: Uint8Array;
  /** A transaction: the labels of its queued commands, whose replies are EXEC's elements. */
  private readonly queued: number[];

  constructor(index: number, load: ConnectionHost) {
    super(index, load);
    const config = load.config;
    const { keys, context } = requestSource(load.config, index);
    this.builder = new BatchBuilder(config.test, config.value, keys, context);
    const unitSize = this.builder.unitSize;
    const ringCapacity = load.openLoop ? (OPEN_LOOP_MAX_IN_FLIGHT + config.pipeline) * unitSize : 0;
    this.ringIntended = new Float64Array(ringCapacity);
    this.ringLabels = new Uint16Array(ringCapacity);
    this.ringMeasured = new Uint8Array(ringCapacity);
    this.scanner.onError = this.onErrorReply;
    this.missRules = Uint8Array.from(config.missRules ?? []);
    if (this.missRules.some((rule) => rule !== MISS_NONE)) this.scanner.onNull = this.onNullReply;
    if (this.missRules.includes(MISS_NIL_OR_EMPTY)) this.scanner.onEmpty = this.onEmptyReply;
    this.queued = config.test.group?.transaction ? queuedLabels(config.test.commands, config.labelIndexes) : [];
    if (this.missRules.includes(MISS_NIL_ELEMENTS) || this.queued.some((label) => this.missRules[label] !== MISS_NONE))
      this.scanner.onNestedMiss = this.onNestedMiss;
    if (this.queued.some((label) => this.missRules[label] === MISS_NIL_ELEMENTS)) this.scanner.onDeepNil = this.onDeepNil;
    if (config.countsReceivers) this.scanner.onInteger = this.onPublishReply;
    if (this.builder.grouped) {
      const queuedReads = config.test.group!.transaction ? queuedReadsOf(config.test.commands, config.labelIndexes, this.missRules) : undefined;
      this.units = new UnitTally(unitSize, load.openLoop ? ringCapacity : config.pipeline * unitSize, load.stats, queuedReads);
      this.scanner.nestedErrors = config.test.group!.transaction;
      if (this.builder.execAt.includes(1)) this.scanner.onNull = this.onNullReply;
    }
  }

  override async open(): Promise<void> {
    await this.connectSocket();
    this.state = State.Running;
  }

  protected override restartSequences(): void {
    this.builder.restart();
  }

  protected override claimed(first: number): void {
    this.builder.claimed(first);
  }

  override canSend(): boolean {
    return this.state === State.Running && !this.connectionSpent() && (this.units ? this.requestsInFlight() : this.ringSize) < OPEN_LOOP_MAX_IN_FLIGHT;
  }

  override sendScheduled(intended: number, _now: number): number {
    const count = this.takeBudget();
    if (count === 0) {
      this.finishIfDone();
      return 0;
    }
    const length = this.builder.build(count);
    const capacity = this.ringIntended.length;
    const measured = this.load.measuring ? 1 : 0;
    let at = (this.ringHead + this.ringSize) % capacity;
    const commands = count * this.builder.unitSize;
    for (let i = 0; i < commands; i++) {
      this.ringIntended[at] = intended;
      this.ringLabels[at] = this.builder.labels[i];
      this.ringMeasured[at] = measured;
      if (++at === capacity) at = 0;
    }
    this.ringSize += commands;
    // The builder's buffer is rewritten for the next batch while this one may still sit in the socket's
    // queue (several batches can be in flight): what the socket queues is a copy (keep).
    writeRange(this.socket!, this.builder.buffer, 0, length, true);
    this.countSent(this.builder.labels, commands, this.builder.singleLabel);
    return count;
  }

  protected override attached(socket: Socket): void {
    this.scanner.reset();
    watchPrimary(this.load.config.connection, socket);
  }

  protected override sendNextBatch(now: number): void {
    if (this.load.stopping || now >= this.load.deadline || this.state !== State.Running) {
      this.drain();
      return;
    }
    if (this.cycleIfSpent(now)) return;
    const count = this.takeBudget();
    if (count === 0) {
      this.finishIfDone();
      return;
    }
    const length = this.builder.build(count);
    const buffer = this.builder.buffer;
    this.batchSize = count * this.builder.unitSize;
    this.replied = 0;
    this.sentAt = now;
    this.batchMeasured = this.load.measuring;
    // Safe to rewrite this buffer later: the next batch is built only after every reply to this one
    // arrived, so by then the socket has sent all of it.
    writeRange(this.socket!, buffer, 0, length);
    this.countSent(this.builder.labels, this.batchSize, this.builder.singleLabel);
  }

  protected readonly onData = (chunk: Buffer, length: number): void => {
    if (this.socket === undefined) return;
    const now = performance.now();
    let replies: number;
    try {
      replies = this.scanner.scan(chunk, length);
    } catch (error) {
      // Replies that completed before the bad byte were answered: count them, then fail.
      if (error instanceof RespProtocolError && error.completedReplies > 0) this.countReplies(error.completedReplies, now);
      this.socket?.destroy(error as Error);
      return;
    }
    if (replies > 0) this.countReplies(replies, now);
    if (this.demoted) {
      this.demoted = false;
      this.socket?.destroy();
    }
  };

  /** A READONLY reply came from a Sentinel target: the server is no longer the primary. */
  private demoted = false;

  private countReplies(replies: number, now: number): void {
    this.load.heard(this.index, now);
    if (this.load.openLoop) {
      this.onOpenLoopReplies(replies, now);
      return;
    }
    if (this.batchSize === 0) return; // nothing in flight: not a reply to us
    if (this.units) {
      this.countUnitReplies(replies, now);
    } else if (this.batchMeasured) {
      const micros = Math.round((now - this.sentAt) * 1000);
      const stats = this.load.stats;
      if (this.builder.singleLabel) {
        stats.recordReplies(this.builder.labels[0], micros, replies, now);
      } else {
        const labels = this.builder.labels;
        for (let i = this.replied, end = this.replied + replies; i < end; i++) stats.recordReplies(labels[i], micros, 1, now);
      }
    }
    this.replied += replies;
    if (this.replied >= this.batchSize) {
      this.batchSize = 0;
      this.replied = 0;
      if (this.state === State.Running) this.sendNextBatch(now);
      else this.finishIfDone();
    }
  }

  /** Closed loop, a group: each reply to its command's row, each completed unit once. */
  private countUnitReplies(replies: number, now: number): void {
    const micros = Math.round((now - this.sentAt) * 1000);
    const size = this.builder.unitSize;
    const labels = this.builder.labels;
    const measured = this.batchMeasured;
    for (let i = this.replied, end = Math.min(this.batchSize, this.replied + replies); i < end; i++) {
      if (measured) this.load.stats.recordCommandReply(labels[i], micros);
      if ((i + 1) % size === 0) this.units!.unitDone(i + 1 - size, micros, now, measured);
    }
  }

  /** Open loop, a group: like countUnitReplies, with each unit's own intended time. */
  private onOpenLoopUnitReplies(replies: number, now: number): void {
    const capacity = this.ringIntended.length;
    const size = this.builder.unitSize;
    const stats = this.load.stats;
    let at = this.ringHead;
    const taken = Math.min(replies, this.ringSize);
    for (let i = 0; i < taken; i++) {
      const micros = Math.round((now - this.ringIntended[at]) * 1000);
      const measured = this.ringMeasured[at] === 1;
      if (measured) stats.recordCommandReply(this.ringLabels[at], micros);
      if (++this.unitPosition === size) {
        this.unitPosition = 0;
        this.units!.unitDone((at - size + 1 + capacity) % capacity, micros, now, measured);
      }
      if (++at === capacity) at = 0;
    }
    this.ringHead = at;
    this.ringSize -= taken;
    if (this.state === State.Running && !this.cycleIfSpent(now)) this.load.kick();
    this.finishIfDone();
  }

  private onOpenLoopReplies(replies: number, now: number): void {
    if (this.units) {
      this.onOpenLoopUnitReplies(replies, now);
      return;
    }
    const capacity = this.ringIntended.length;
    const stats = this.load.stats;
    let at = this.ringHead;
    let left = Math.min(replies, this.ringSize);
    // Consecutive replies with the same intended time and label share one latency: record them together.
    while (left > 0) {
      const intended = this.ringIntended[at];
      const label = this.ringLabels[at];
      const measured = this.ringMeasured[at];
      let run = 0;
      while (left > 0 && this.ringIntended[at] === intended && this.ringLabels[at] === label && this.ringMeasured[at] === measured) {
        run++;
        left--;
        if (++at === capacity) at = 0;
      }
      if (measured) stats.recordReplies(label, Math.round((now - intended) * 1000), run, now);
    }
    const taken = Math.min(replies, this.ringSize);
    this.ringHead = at;
    this.ringSize -= taken;
    if (this.state === State.Running && !this.cycleIfSpent(now)) this.load.kick();
    this.finishIfDone();
  }

  private readonly onErrorReply = (kind: string, text: string, replyIndex: number): void => {
    // A Sentinel target's primary turned replica (a failover): reconnect to the new one once this chunk is read.
    if (kind === 'READONLY' && this.load.config.connection.sentinel) this.demoted = true;
    if (this.units) {
      this.onUnitErrorReply(kind, text, replyIndex);
    } else if (this.load.openLoop) {
      if (replyIndex >= this.ringSize) return;
      const at = (this.ringHead + replyIndex) % this.ringIntended.length;
      if (this.ringMeasured[at]) this.load.stats.recordError(this.ringLabels[at], kind, text);
    } else if (this.batchMeasured) {
      this.load.stats.recordError(this.builder.labels[this.replied + replyIndex] ?? 0, kind, text);
    }
  };

  /** A group's error reply: its command's row and its unit (measured requests only). */
  private onUnitErrorReply(kind: string, text: string, replyIndex: number): void {
    if (this.load.openLoop) {
      if (replyIndex >= this.ringSize) return;
      const at = (this.ringHead + replyIndex) % this.ringIntended.length;
      if (this.ringMeasured[at]) this.units!.error(at, this.ringLabels[at], kind, text);
    } else if (this.batchMeasured && this.replied + replyIndex < this.batchSize) {
      const entry = this.replied + replyIndex;
      this.units!.error(entry, this.builder.labels[entry], kind, text);
    }
  }

  /** A nil reply: at an EXEC position, the transaction was aborted (WATCH), an error of EXEC and of its unit; a read's, a miss. */
  private readonly onNullReply = (replyIndex: number): void => {
    if (this.atExec(replyIndex)) return this.onUnitErrorReply(NIL_EXEC_KIND, NIL_EXEC_TEXT, replyIndex);
    const label = this.measuredLabelOf(replyIndex);
    if (label >= 0 && scannedMiss(this.missRules[label], false)) this.load.stats.recordMiss(label);
  };

  /** This scan's reply `replyIndex` is a group's EXEC. */
  private atExec(replyIndex: number): boolean {
    if (!this.units) return false;
    const position = this.load.openLoop ? (this.unitPosition + replyIndex) % this.builder.unitSize : (this.replied + replyIndex) % this.builder.unitSize;
    return this.builder.execAt[position] === 1;
  }

  /** A nil or empty element of an array reply: a key an MGET did not find, or a queued read's miss inside EXEC's reply. */
  private readonly onNestedMiss = (replyIndex: number, element: number, empty: boolean): void => {
    const label = this.measuredLabelOf(replyIndex);
    if (label < 0) return;
    if (this.atExec(replyIndex)) {
      const queued = this.queued[element];
      if (queued !== undefined && scannedMiss(this.missRules[queued], empty)) this.load.stats.recordMiss(queued);
    } else if (!empty && this.missRules[label] === MISS_NIL_ELEMENTS) {
      this.load.stats.recordMiss(label);
    }
  };

  /** A nil inside EXEC's element `element`: a key a queued MGET (HMGET, ZMSCORE) did not find. */
  private readonly onDeepNil = (replyIndex: number, element: number): void => {
    if (this.measuredLabelOf(replyIndex) < 0 || !this.atExec(replyIndex)) return;
    const queued = this.queued[element];
    if (queued !== undefined && this.missRules[queued] === MISS_NIL_ELEMENTS) this.load.stats.recordMiss(queued);
  };

  /** PUBLISH's reply: how many subscribers got the message. */
  private readonly onPublishReply = (receivers: number): void => this.load.stats.recordPublished(receivers);

  /** An empty array, set or map: a miss of a read of a key's contents (HGETALL, LRANGE…). */
  private readonly onEmptyReply = (replyIndex: number): void => {
    const label = this.measuredLabelOf(replyIndex);
    if (label >= 0 && this.missRules[label] === MISS_NIL_OR_EMPTY) this.load.stats.recordMiss(label);
  };

  /** The label of this scan's reply `replyIndex` (replies are counted after the scan), or -1 when it is not measured or not ours. */
  private measuredLabelOf(replyIndex: number): number {
    if (this.load.openLoop) {
      if (replyIndex >= this.ringSize) return -1;
      const at = (this.ringHead + replyIndex) % this.ringIntended.length;
      return this.ringMeasured[at] ? this.ringLabels[at] : -1;
    }
    const entry = this.replied + replyIndex;
    return this.batchMeasured && entry < this.batchSize ? this.builder.labels[entry] : -1;
  }

  /** Requests of this connection that were sent and will get no reply; timed-out ones with the time they waited. */
  protected override countInFlightAsErrors(kind: string, text: string): void {
    const stats = this.load.stats;
    const now = performance.now();
    const timedOut = kind === TIMEOUT_ERROR_KIND;
    if (this.load.openLoop) {
      const capacity = this.ringIntended.length;
      for (let i = 0, at = this.ringHead; i < this.ringSize; i++, at = (at + 1) % capacity) {
        const waited = timedOut ? Math.round((now - this.ringIntended[at]) * 1000) : undefined;
        if (!this.ringMeasured[at]) continue;
        if (!this.units) {
          stats.recordUnanswered(this.ringLabels[at], 1, kind, text, waited);
          continue;
        }
        stats.recordCommandUnanswered(this.ringLabels[at], kind, text, waited);
        // The unit counts once, at its last command.
        if ((this.unitPosition + i + 1) % this.builder.unitSize === 0) stats.recordUnanswered(UNIT_LABEL, 1, kind, text, waited);
      }
      this.ringHead = 0;
      this.ringSize = 0;
      this.unitPosition = 0;
      this.units?.clear();
    } else {
      if (this.batchMeasured && this.units) {
        const waited = timedOut ? Math.round((now - this.sentAt) * 1000) : undefined;
        const size = this.builder.unitSize;
        for (let i = this.replied; i < this.batchSize; i++) {
          stats.recordCommandUnanswered(this.builder.labels[i], kind, text, waited);
          if ((i + 1) % size === 0) stats.recordUnanswered(UNIT_LABEL, 1, kind, text, waited);
        }
      } else if (this.batchMeasured) {
        const waited = timedOut ? Math.round((now - this.sentAt) * 1000) : undefined;
        for (let i = this.replied; i < this.batchSize; i++) stats.recordUnanswered(this.builder.labels[i], 1, kind, text, waited);
      }
      this.units?.clear();
      this.batchSize = 0;
      this.replied = 0;
    }
  }

  /** Requests (a group's units, even when partly answered) sent and not answered yet. */
  protected override requestsInFlight(): number {
    if (this.units) {
      const size = this.builder.unitSize;
      return this.load.openLoop ? Math.ceil((this.ringSize + this.unitPosition) / size) : this.batchSize / size - Math.floor(this.replied / size);
    }
    return this.load.openLoop ? this.ringSize : this.batchSize - this.replied;
  }
}

/** The fast single-node path (clientPaths.ts). */
export const openClientPath: ClientPathModule['openClientPath'] = () => ({
  factory: (index, load) => new FastConnection(index, load),
  cluster: () => undefined,
});
