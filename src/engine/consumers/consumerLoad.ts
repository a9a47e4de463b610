// A consumer group's load: its clients each hold one connection blocked on the group's command (BRPOP,
// BLMOVE, BZPOPMIN, XREADGROUP … BLOCK) and take the jobs the phase's other groups push. A blocked call is
// waiting for work, not a server that stopped answering: no stall limit applies; each wait is bounded by
// the command's own timeout. The consumers stop once the producers' groups have ended and the queue is
// drained (read empty on a separate connection, or each consumer's wait ran out), within a drain bound;
// blocked calls are ended with CLIENT UNBLOCK, and the connections closed, so no call is left waiting.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ConnectionOptions } from '../../redis/types';
import { readRespValue, RespErrorReply, type RespValue } from '../../protocol/respValue';
import { consumerArgs, consumerWait, isAckingRead, literalArg, type ConsumerWait } from '../../scenario/consumerGroup';
import type { ClientPath, PhasePlan, TestPlan } from '../../scenario/plan';
import { LoadError } from '../errors';
import { handshakeCommands, type RawConnection } from '../fast/connect';
import { openTargetSocket } from '../fast/primarySocket';
import { askRaw } from '../fast/rawReply';
import { LatencyRecorder } from '../measure/histogram';
import { summarize } from '../measure/summary';
import { stampAt } from '../sendStamp';
import type { StartBarrier } from '../startBarrier';
import type { CommandResult, ConsumerResult, LoadResult, LoadTick, TimelineSecond } from '../types';
import { entryIdsIn, jobsIn } from './popReply';
import { BlockingCaller } from './blockingCaller';
import { asLoad } from '../optimizeWhileLoading';

export interface ConsumerRequest {
  phase: PhasePlan;
  test: TestPlan;
  connection: ConnectionOptions;
  client: ClientPath;
}

export interface ConsumerOptions {
  signal?: AbortSignal;
  onTick?: (tick: LoadTick) => void;
  startTogether?: { barrier: StartBarrier; index: number };
  /** Settles when the phase's other groups (the producers) have ended: then the consumers drain the queue and stop. */
  producersEnded: Promise<unknown>;
}

/** How often the queue's length is read while draining, and how often blocked calls are unblocked at the end. */
const POLL_MS = 20;
/** Draining ends when no job was taken for this long (a wait of the file's own timeout: twice it, plus a second). */
const DRAIN_LIMIT_MS = 5000;
/** …and at the latest this long after the producers ended (someone else may push for ever). */
const DRAIN_CAP_MS = 10 * 60_000;
/** Attempts to unblock the calls still waiting before their connections are closed. */
const UNBLOCK_ATTEMPTS = 25;
/** Past a call's own timeout, the server has this long to answer before the consumer reports it silent. */
const ANSWER_MARGIN_MS = 10_000;

interface Consumer {
  connection: RawConnection;
  id: number;
  waiting: boolean;
  /** Its place among the group's consumers: `__client__` in its call. */
  index: number;
}

export function runConsumers(request: ConsumerRequest, options: ConsumerOptions): Promise<LoadResult> {
  // On the caller's thread: in the CLI, V8 optimizes only while a load runs (optimizeWhileLoading.ts).
  return asLoad(() => consumersLoad(request, options));
}

async function consumersLoad(request: ConsumerRequest, options: ConsumerOptions): Promise<LoadResult> {
  const { phase, test, connection } = request;
  const command = test.commands[0].command;
  // Each consumer's call: literal arguments, XREADGROUP's consumer name with `__client__` its own.
  const callOf = (client: number) => [command.name, ...consumerArgs(command.args, client)];
  const wait = consumerWait(command.name, consumerArgs(command.args, 0));
  // `XACK KEY GROUP __ids__` after the read, in one group: the IDs each read returned are acknowledged at once.
  const ack = isAckingRead(test) ? test.commands[1].command : undefined;
  const ackCall = ack ? [ack.name, ...ack.args.slice(0, 2).map((arg) => literalArg(arg) ?? '')] : undefined;
  if (connection.cluster)
    throw new LoadError(`consumer group ${test.name}: blocking consumers run against one server, not a cluster — point the run at one node`);
  const startedAt = new Date().toISOString();
  const own = new Map<string, number>();
  const count = (name: string, n = 1) => own.set(name, (own.get(name) ?? 0) + n);
  const { control, consumers } = await openAll(connection, phase.load.clients, count);
  const closeAll = () => {
    control.socket.destroy();
    for (const consumer of consumers) consumer.connection.socket.destroy();
  };
  const signal = options.signal;
  if (signal?.aborted) {
    closeAll();
    return cancelledBeforeStart(request, startedAt, consumers.length);
  }
  if (options.startTogether) await options.startTogether.barrier.arrive(options.startTogether.index);

  const t0 = process.hrtime.bigint();
  const measuredFrom = new Date().toISOString();
  const cpuBefore = process.cpuUsage();
  const wakeUp = new LatencyRecorder();
  const seconds: { jobs: number; latency: LatencyRecorder }[] = [];
  const tally = { calls: 0, pops: 0, jobs: 0, empty: 0, errors: 0, idleNs: 0n, acks: 0, acked: 0 };
  const errorsByKind: Record<string, number> = {};
  const errorExamples: Record<string, string> = {};
  let fault: string | undefined;
  let stopping = false;
  let cancelled = false;
  let producersDoneAt: bigint | undefined;
  let lastJobAt: bigint | undefined;
  const callTimeoutMs = wait.timeoutMs > 0 ? wait.timeoutMs + ANSWER_MARGIN_MS : 2 ** 31 - 1;

  const consume = async (consumer: Consumer) => {
    const caller = new BlockingCaller(consumer.connection, callOf(consumer.index));
    while (!stopping) {
      const callStart = process.hrtime.bigint();
      let reply: RespValue;
      consumer.waiting = true;
      tally.calls++;
      try {
        reply = readRespValue(await caller.call(callTimeoutMs))!.value;
      } catch (error) {
        // A connection the run closed (a cancel, the drain bound) ends its consumer quietly.
        if (!stopping) fault ??= `consumer group ${test.name}: ${(error as Error).message}`;
        return;
      } finally {
        consumer.waiting = false;
      }
      const now = process.hrtime.bigint();
      tally.pops++;
      const jobs = jobsIn(reply);
      const failed = (name: string, error: RespErrorReply) => {
        const kind = error.message.split(' ')[0];
        tally.errors++;
        errorsByKind[kind] = (errorsByKind[kind] ?? 0) + 1;
        errorExamples[kind] ??= error.message;
        fault ??= errorFault(test.name, name, error.message);
      };
      if (jobs instanceof RespErrorReply) return failed(command.name, jobs);
      if (jobs.length === 0) {
        tally.empty++;
        // After the producers, a wait that ran out finds the queue drained for this consumer (past the window:
        // not idle time of it).
        if (producersDoneAt !== undefined) return;
        tally.idleNs += now - callStart;
        continue;
      }
      tally.jobs += jobs.length;
      lastJobAt = now;
      if (ackCall) {
        // Acknowledged on the same connection before the next read (even while stopping: what was read is acked).
        const ids = entryIdsIn(reply);
        tally.acks++;
        try {
          const acked = readRespValue(await caller.ask([...ackCall, ...ids], connection.connectTimeoutMs + ANSWER_MARGIN_MS))!.value;
          if (acked instanceof RespErrorReply) return failed(ackCall[0], acked);
          tally.acked += typeof acked === 'number' ? acked : 0;
        } catch (error) {
          if (!stopping) fault ??= `consumer group ${test.name}: ${(error as Error).message}`;
          return;
        }
      }
      const second = (seconds[Number((now - t0) / 1_000_000_000n)] ??= { jobs: 0, latency: new LatencyRecorder() });
      second.jobs += jobs.length;
      let waitedUntil = callStart;
      for (const value of jobs) {
        const stampUs = stampAt(value);
        if (stampUs === undefined) continue;
        const latencyUs = Number(now / 1000n - stampUs);
        wakeUp.record(Math.max(1, latencyUs), 1);
        second.latency.record(Math.max(1, latencyUs), 1);
        // The consumer was idle until the job was pushed, if it waited for it.
        const pushedAt = stampUs * 1000n;
        if (pushedAt > waitedUntil && pushedAt < now) waitedUntil = pushedAt;
      }
      tally.idleNs += waitedUntil - callStart;
    }
  };

  // Blocked calls end with CLIENT UNBLOCK (their reply is read as an empty return), then the connections close.
  const stop = async () => {
    stopping = true;
    for (let attempt = 0; attempt < UNBLOCK_ATTEMPTS && consumers.some((consumer) => consumer.waiting); attempt++) {
      let refused = false;
      for (const consumer of consumers.filter((each) => each.waiting)) {
        count('client|unblock');
        const answer = await askRaw(control, ['CLIENT', 'UNBLOCK', String(consumer.id)], connection.connectTimeoutMs).catch(() => null);
        if (answer instanceof RespErrorReply || answer === null) refused = true;
      }
      if (refused) break;
      await sleep(POLL_MS);
    }
    for (const consumer of consumers) consumer.connection.socket.destroy();
  };
  const onAbort = () => {
    cancelled = true;
    stopping = true;
    for (const consumer of consumers) consumer.connection.socket.destroy();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const ticker = setInterval(() => {
    const elapsedMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const last = seconds[Math.floor(elapsedMs / 1000) - 1];
    options.onTick?.({
      elapsedMs,
      requests: tally.jobs,
      errors: tally.errors,
      warmingUp: false,
      ...(last ? { lastSecond: bucket(Math.floor(elapsedMs / 1000) - 1, last) } : {}),
    });
  }, 1000);

  const loops = Promise.all(consumers.map(consume));
  let ended: ConsumerResult['ended'] = 'drained';
  const drained = (async () => {
    await Promise.race([options.producersEnded, loops]);
    if (stopping) return;
    producersDoneAt = process.hrtime.bigint();
    // Draining goes on while jobs are taken; it stops when none was for the bound, and at the latest at DRAIN_CAP_MS.
    const quietNs = BigInt(wait.timeoutMs > 0 ? Math.min(2 * wait.timeoutMs + 1000, 60_000) : DRAIN_LIMIT_MS) * 1_000_000n;
    const cap = producersDoneAt + BigInt(DRAIN_CAP_MS) * 1_000_000n;
    while (!stopping && consumers.some((consumer) => consumer.waiting || !consumer.connection.socket.destroyed)) {
      const now = process.hrtime.bigint();
      const lastProgress = lastJobAt !== undefined && lastJobAt > producersDoneAt ? lastJobAt : producersDoneAt;
      if (now >= cap || now - lastProgress >= quietNs) {
        ended = 'drain-limit';
        break;
      }
      const left = await queueLength(control, wait, count, connection.connectTimeoutMs, true).catch(() => undefined);
      if (left !== undefined && left.every((key) => key.length === 0)) break;
      const done = await Promise.race([loops.then(() => true), sleep(POLL_MS).then(() => false)]);
      if (done) break;
    }
    await stop();
  })();
  await Promise.all([loops, drained]);
  signal?.removeEventListener('abort', onAbort);
  clearInterval(ticker);
  const endAt = process.hrtime.bigint();
  if (cancelled) ended = 'cancelled';
  const queueLeft = cancelled ? [] : await queueLength(control, wait, count, connection.connectTimeoutMs, false).catch(() => []);
  closeAll();

  // The window: from the start together with the producers to the last job taken (jobs/s is the rate the queue
  // was served at); without jobs, to the producers' end.
  const windowEnd = cancelled ? endAt : (lastJobAt ?? producersDoneAt ?? endAt);
  const windowMs = Math.max(1, Number(windowEnd - t0) / 1e6);
  const wake = summarize(wakeUp);
  const row = (label: string): CommandResult => ({
    command: label,
    requests: tally.jobs,
    errors: tally.errors,
    errorsByKind,
    errorExamples,
    opsPerSec: (tally.jobs * 1000) / windowMs,
    ...wake,
  });
  const cpu = process.cpuUsage(cpuBefore);
  const consumer: ConsumerResult = {
    consumers: consumers.length,
    pops: tally.pops,
    jobs: tally.jobs,
    emptyReturns: tally.empty,
    wakeUp: wake,
    idleMs: Number(tally.idleNs) / 1e6,
    // (A wait that began before the window's end and ran past it counts whole: at most all consumers.)
    idleConsumers: Math.min(consumers.length, Number(tally.idleNs) / 1e6 / windowMs),
    drainMs: producersDoneAt === undefined ? 0 : Number(endAt - producersDoneAt) / 1e6,
    ended,
    queueLeft,
    ...(ack ? { acked: tally.acked, acks: tally.acks } : {}),
  };
  for (const step of handshakeCommands(connection)) count(step.step, consumers.length + 1);
  return {
    test: test.name,
    phase: phase.name,
    measured: phase.measured,
    client: request.client,
    status: cancelled ? 'cancelled' : fault ? 'failed' : 'complete',
    ...(fault && !cancelled ? { error: fault } : {}),
    startedAt,
    measuredFrom,
    durationMs: windowMs,
    windowMs,
    windowKind: cancelled ? 'until-stopped' : 'first-send-to-last-reply',
    total: row('total'),
    commands: [row(command.label)],
    timeline: seconds.map((second, t) => bucket(t, second ?? { jobs: 0, latency: new LatencyRecorder() })),
    connections: { opened: consumers.length + 1, reconnects: 0 },
    health: { threads: 1, cpuPercent: ((cpu.user + cpu.system) / 1000 / windowMs) * 100, eventLoopLagP99Ms: 0, bottleneck: 'unknown' },
    seed: phase.keys.seed ?? 0,
    sent: {
      requests: tally.calls + tally.acks,
      byLabel: { [command.label]: tally.calls, ...(ack ? { [ack.label]: tally.acks } : {}) },
      handshakes: Object.fromEntries(own),
    },
    consumer,
  };
}

function bucket(t: number, second: { jobs: number; latency: LatencyRecorder }): TimelineSecond {
  const { latency } = second;
  return {
    t,
    ops: second.jobs,
    errors: 0,
    p50Us: latency.totalCount > 0 ? latency.valueAtPercentile(50) : 0,
    p99Us: latency.totalCount > 0 ? latency.valueAtPercentile(99) : 0,
    maxUs: latency.totalCount > 0 ? latency.maxValue() : 0,
  };
}

/** An error reply ends the consumers: the message names the command's answer, and for a missing stream group the fix. */
function errorFault(group: string, name: string, message: string): string {
  const fix = message.startsWith('NOGROUP')
    ? ' — create the stream group before the consumers start, in a prefill: `XGROUP CREATE KEY GROUP $ MKSTREAM`'
    : ' — the consumers stopped';
  return `consumer group ${group}: the server answered ${name} with "${message}"${fix}`;
}

/** The consumers' connections and a control connection beside them; all closed again when one cannot open. */
async function openAll(
  connection: ConnectionOptions,
  clients: number,
  count: (name: string) => void,
): Promise<{ control: RawConnection; consumers: Consumer[] }> {
  const opened: RawConnection[] = [];
  try {
    const open = async () => {
      const raw = await openTargetSocket(connection);
      opened.push(raw);
      if (connection.clientName !== undefined) {
        count('client|setname');
        await askRaw(raw, ['CLIENT', 'SETNAME', connection.clientName], connection.connectTimeoutMs);
      }
      return raw;
    };
    const control = await open();
    const consumers = await Promise.all(
      Array.from({ length: clients }, async (_, index): Promise<Consumer> => {
        const raw = await open();
        count('client|id');
        const id = await askRaw(raw, ['CLIENT', 'ID'], connection.connectTimeoutMs);
        return { connection: raw, id: typeof id === 'number' ? id : -1, waiting: false, index };
      }),
    );
    return { control, consumers };
  } catch (error) {
    for (const raw of opened) raw.socket.destroy();
    throw error instanceof LoadError ? error : new LoadError((error as Error).message);
  }
}

/**
 * The queue's length per key on the control connection, by the key's type: LLEN, ZCARD, XLEN (and XPENDING for
 * a stream group: jobs taken, not acknowledged). While draining (`drainOnly`) a stream is skipped: its entries
 * stay in it, taken or not.
 */
async function queueLength(
  control: RawConnection,
  wait: ConsumerWait,
  count: (name: string) => void,
  timeoutMs: number,
  drainOnly: boolean,
): Promise<ConsumerResult['queueLeft']> {
  const left: ConsumerResult['queueLeft'] = [];
  for (const key of wait.keys) {
    count('type');
    const type = await askRaw(control, ['TYPE', key], timeoutMs);
    const ask = async (name: string, rest: string[]) => {
      count(name.toLowerCase());
      const answer = await askRaw(control, [name, key, ...rest], timeoutMs);
      const length = Array.isArray(answer) ? answer[0] : answer;
      left.push({ key, command: name, length: typeof length === 'number' ? length : 0 });
    };
    if (type === 'list') await ask('LLEN', []);
    else if (type === 'zset') await ask('ZCARD', []);
    else if (type === 'none') left.push({ key, command: 'EXISTS', length: 0 });
    else if (type === 'stream' && !drainOnly) {
      await ask('XLEN', []);
      if (wait.streamGroup !== undefined) await ask('XPENDING', [wait.streamGroup]);
    } else if (drainOnly) return [{ key, command: 'TYPE', length: -1 }];
  }
  return left;
}

function cancelledBeforeStart(request: ConsumerRequest, startedAt: string, consumers: number): LoadResult {
  const empty = summarize(new LatencyRecorder());
  const row = (label: string): CommandResult => ({ command: label, requests: 0, errors: 0, errorsByKind: {}, errorExamples: {}, opsPerSec: 0, ...empty });
  return {
    test: request.test.name,
    phase: request.phase.name,
    measured: request.phase.measured,
    client: request.client,
    status: 'cancelled',
    startedAt,
    durationMs: 0,
    total: row('total'),
    commands: [row(request.test.commands[0].command.label)],
    timeline: [],
    connections: { opened: consumers + 1, reconnects: 0 },
    health: { threads: 1, cpuPercent: 0, eventLoopLagP99Ms: 0, bottleneck: 'unknown' },
    seed: request.phase.keys.seed ?? 0,
  };
}
