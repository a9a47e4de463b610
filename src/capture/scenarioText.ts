// The `.rbench` text of a capture: a header saying where, when and what was sampled (and that no name or
// value of the source was copied), what could not be reproduced with its share, then two scenarios over
// the same prefill: the observed rate as an open loop, and the same mix as fast as it goes (closed loop,
// the observed pipelining). The lines go through the one scenario writer (src/scenario/writer.ts): the
// server's version, its error replies and every other text it chose stay comments or quoted arguments.
// The text is checked by the language's own checker: a line the checker refuses becomes a comment saying
// why, so the file always checks clean.
import { checkText } from '../scenario';
import { layout, ScenarioWriteError, writeScenario, type WrittenArg, type WrittenLine } from '../scenario/writer';
import { UNREPRODUCIBLE_WORDS } from './commandKinds';
import type { SizeFit } from './fit';
import type { KeyGroup, PrefillPlan, Workload } from './workload';
import type { WorkloadLine } from './workloadLine';
import type { QueuePlan } from './jobQueues';
import { MAX_ELEMENTS } from './workload';
import type { CaptureResult } from './types';
import { groupDigits } from '../scenario/numberText';

const percent = (share: number) => `${(share * 100).toFixed(share >= 0.1 ? 0 : 1)}%`;
const count = (n: number) => groupDigits(Math.round(n));

const comment = (text: string): WrittenLine => ({ kind: 'comment', text });
const setting = (name: string, ...args: string[]): WrittenLine => ({ kind: 'setting', name, args });
const blank: WrittenLine = { kind: 'blank' };

function valueLine(fit: SizeFit | undefined): WrittenLine | undefined {
  if (!fit) return undefined;
  if (fit.kind === 'fixed') return setting('value', String(fit.size));
  if (fit.kind === 'range') return setting('value', `${fit.min}..${fit.max}`);
  return setting('value', ...fit.choices.flatMap((c, i) => [String(c.size), `${c.weight}%${i < fit.choices.length - 1 ? ',' : ''}`]));
}

/** A count as the language writes it: whole, with `_` separators. */
function countWord(n: number): string {
  return Math.max(1, Math.round(n))
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '_');
}

function rateWord(perSecond: number): string {
  return `${countWord(perSecond)}/s`;
}

function header(capture: CaptureResult, workload: Workload): WrittenLine[] {
  const { source } = capture;
  const lines = [
    `Captured by rbench capture from ${source.display} (Redis ${source.version}, ${source.mode}, ${source.role}, db ${source.db})`,
    `at ${capture.startedAt}, for ${(capture.windowMs / 1000).toFixed(1)} s.`,
  ];
  if (capture.partial) lines.push(`PARTIAL: ${capture.partial}; what follows is what was sampled until then.`);
  const sampled: string[] = [];
  if (capture.counters) sampled.push('INFO commandstats before and after the window (the command mix and rate)');
  if (capture.monitor && capture.traffic) {
    sampled.push(
      `MONITOR: ${count(capture.monitor.lines)} commands, ${count(capture.monitor.bytes / 1024)} KiB in ${(capture.monitor.elapsedMs / 1000).toFixed(1)} s (argument shapes, key frequencies, write sizes, pipelining)`,
    );
  }
  const keyspace = capture.keyspace;
  if (keyspace && !keyspace.refused) {
    sampled.push(
      `SCAN: ${count(keyspace.scanned)} of ${keyspace.dbsize !== undefined ? count(keyspace.dbsize) : 'an unknown number of'} keys with TYPE, TTL, MEMORY USAGE and lengths`,
    );
  }
  lines.push('Sampled:', ...sampled.map((item) => `  - ${item}`));
  for (const note of [...capture.notes, ...(keyspace?.notes ?? []), ...workload.notes]) lines.push(`Note: ${note}`);
  lines.push(
    capture.keepNames
      ? "Names: kept as written (--keep-names): key and field names are the source's, with numbers and hex identifiers as __key__; values are random bytes of the observed sizes."
      : 'Privacy: no key name, value or argument of the source is copied. Identifiers in keys became __key__ (prefixes and lower-case words kept),',
  );
  if (!capture.keepNames) lines.push('keys without one fixed:N, field names fN, numbers their mean; values are random bytes of the observed sizes.');
  const fit = workload.keyFit;
  if (workload.groups.length > 1) {
    lines.push('Keys: a key space per key pattern (a client group each, all at the same time, each at its part of the rate and clients):');
    for (const group of workload.groups) {
      const spread =
        group.fit.kind === 'zipf'
          ? `zipf ${group.fit.exponent} (maximum likelihood on the ${count(group.fit.ranks)} commonest, hit 5+ times)`
          : `uniform (${group.fit.reason})`;
      lines.push(`  - ${group.pattern ?? 'keys without an identifier'}: ${count(group.keys)} keys, ${spread}`);
    }
  } else
    lines.push(
      fit.kind === 'zipf'
        ? `Keys: zipf ${fit.exponent} over ${count(workload.keySpace)} key numbers (maximum likelihood on the ${count(fit.ranks)} commonest, hit 5+ times)`
        : `Keys: uniform over ${count(workload.keySpace)} key numbers (${fit.reason})`,
    );
  for (const group of workload.left) {
    lines.push(
      `Not reproduced: ${percent(group.share)} ${UNREPRODUCIBLE_WORDS[group.kind]}: ${group.commands
        .slice(0, 8)
        .map((c) => `${c.name} ${percent(c.share)}${c.reason ? ` (${c.reason})` : ''}`)
        .join(', ')}`,
    );
  }
  for (const queue of workload.queues) {
    lines.push(
      `Job queue on ${queue.keys.join(', ')}: ${queue.consumers.map((c) => `${c.command} ${percent(c.share)} from ${c.clients} client${c.clients === 1 ? '' : 's'}`).join(', ')}, ` +
        `fed by ${queue.producers.map((p) => `${p.command} ${percent(p.share)}`).join(', ')}: producer and consumer groups beside the rest (see "Job queues" in docs/rbench-format.md)`,
    );
  }
  if (keyspace && keyspace.moduleTypes.size > 0) {
    lines.push(
      `Skipped: ${[...keyspace.moduleTypes].map(([type, n]) => `${count(n)} sampled keys of module type ${JSON.stringify(type)}`).join(', ')} (RBench cannot build them)`,
    );
  }
  if (workload.scaledPrefill) {
    lines.push(
      `The keyspace was scaled down to fit ${count(workload.scaledPrefill.to / 1024 ** 3)} GiB (the source's would take about ${(workload.scaledPrefill.from / 1024 ** 3).toFixed(1)} GiB here).`,
    );
  }
  return lines.map(comment);
}

function prefillCommand(plan: PrefillPlan): WrittenLine {
  const n = Math.min(MAX_ELEMENTS, plan.length);
  const command = (name: string, ...args: WrittenArg[]): WrittenLine => ({ kind: 'command', name, args: [plan.pattern, ...args] });
  switch (plan.type) {
    case 'string':
      return command('SET', '__value__');
    case 'hash':
      // Fields p1…pN: the traffic's own fields (f1…, HINCRBY's counters among them) stay free of random bytes.
      return command('HSET', ...Array.from({ length: n }, (_, i) => [`p${i + 1}`, '__value__']).flat());
    case 'list':
      return command('RPUSH', { repeat: '__value__', times: n });
    case 'set':
      return command('SADD', { repeat: '__value__', times: n });
    case 'zset':
      return command('ZADD', { group: ['__rand_int__', '__value__'], times: n });
    default:
      return command('XADD', '*', 'f1', '__value__');
  }
}

function prefillLines(workload: Workload): WrittenLine[] {
  const lines: WrittenLine[] = [];
  workload.prefill.forEach((plan, index) => {
    const name = `keyspace-${index + 1}`;
    lines.push(
      blank,
      comment(
        `${count(plan.keys)} ${plan.type} keys like ${plan.pattern}${plan.length > 1 ? `, ${plan.length} elements each` : ''}${plan.sampledLength > plan.length && plan.type !== 'string' ? ` (the sample's median is ${count(plan.sampledLength)}: capped)` : ''}`,
      ),
      { kind: 'phase', measured: false, name },
      setting('keys', countWord(plan.keys), 'sequential'),
      setting('requests', countWord(plan.keys)),
      setting('pipeline', '50'),
      setting('clients', '20'),
    );
    const value = plan.type === 'string' ? valueLine(plan.value ?? workload.value) : setting('value', '16');
    if (value) lines.push(value);
    lines.push(writable(prefillCommand(plan)));
    if (plan.ttlShare > 0.005) {
      const withTtl = Math.max(1, Math.round(plan.keys * plan.ttlShare));
      lines.push(
        blank,
        comment(`${percent(plan.ttlShare)} of these keys have a time to live (median ${count(plan.ttlSeconds)} s)`),
        { kind: 'phase', measured: false, name: `${name}-ttl` },
        setting('keys', countWord(withTtl), 'sequential'),
        setting('requests', countWord(withTtl)),
        setting('pipeline', '50'),
        setting('clients', '20'),
        writable({ kind: 'command', name: 'EXPIRE', args: [plan.pattern, String(plan.ttlSeconds)] }),
      );
    }
  });
  return lines;
}

function trafficLines(lines: readonly WorkloadLine[]): WrittenLine[] {
  const total = lines.reduce((sum, line) => sum + line.share, 0);
  if (lines.length === 0) return [comment('Nothing reproducible was captured: PING stands in.'), { kind: 'command', weight: 100, name: 'PING', args: [] }];
  return lines.map((line) => {
    const weight = Math.max(0.01, Math.round((line.share / (total || 1)) * 10000) / 100);
    // `CONFIG GET`: the subcommand is the first argument.
    const [name, ...subcommand] = line.command.split(' ');
    return writable({ kind: 'command', weight, name, args: [...subcommand, ...line.args] });
  });
}

/** The workload's key groups (one, over the whole key space, for a workload built without them; none when the queues hold every line). */
function groupsOf(workload: Workload): KeyGroup[] {
  if (workload.groups.length > 0) return workload.groups;
  const produced = new Set(workload.queues.flatMap((queue) => queue.producers));
  const lines = workload.lines.filter((line) => !produced.has(line));
  if (lines.length === 0 && workload.queues.length > 0) return [];
  return [{ keys: workload.keySpace, fit: workload.keyFit, share: lines.reduce((sum, line) => sum + line.share, 0), lines }];
}

/** ZADD's options before its score/member pairs. */
const ZADD_OPTIONS = new Set(['NX', 'XX', 'GT', 'LT', 'CH', 'INCR']);

/**
 * A push's job carries its send time at its start, so the consumers measure the wake-up latency (push to pop): a
 * list element (`__now__:__value__`), a stream entry's first value (what a stream consumer reads as the job), a
 * sorted set's member (`__now__:` before the member as written: it also makes each member new, so each ZADD is a job).
 */
function stamped(line: WorkloadLine): WorkloadLine {
  const stamp = (at: (index: number) => boolean) => ({ ...line, args: line.args.map((arg, index) => (at(index) ? `__now__:${arg}` : arg)) });
  if (['LPUSH', 'RPUSH', 'LPUSHX', 'RPUSHX'].includes(line.command)) return stamp((index) => index > 0 && line.args[index] === '__value__');
  if (line.command === 'XADD') {
    const id = line.args.indexOf('*');
    return id > 0 ? stamp((index) => index === id + 2) : line;
  }
  if (line.command === 'ZADD') {
    let scores = 1;
    while (scores < line.args.length && ZADD_OPTIONS.has(line.args[scores].toUpperCase())) scores++;
    return stamp((index) => index > scores && (index - scores) % 2 === 1);
  }
  return line;
}

/** The stream groups a queue's consumers read in, created before the phases (at `$`: the entries a prefill added are not jobs). */
function streamGroupLines(workload: Workload): WrittenLine[] {
  return workload.queues
    .flatMap((queue) => queue.streamGroups)
    .flatMap(({ key, group }, index) => [
      blank,
      comment(`The stream group the consumers of ${key} read in`),
      { kind: 'phase', measured: false, name: `stream-group-${index + 1}` } as WrittenLine,
      setting('clients', '1'),
      setting('requests', '1'),
      writable({ kind: 'command', name: 'XGROUP', args: ['CREATE', key, group, '$', 'MKSTREAM'] }),
    ]);
}

/** The consumer's load: its command, or a stream read and the XACK of what it read in one group. */
function consumerLines(consumer: QueuePlan['consumers'][number]): WrittenLine[] {
  const read = writable({ kind: 'command', name: consumer.command, args: consumer.args });
  if (!consumer.ack) return [read];
  return [setting('group', 'consume'), read, writable({ kind: 'command', name: 'XACK', args: consumer.ack }), setting('end')];
}

/** How a group of the traffic phase sends: its part of the rate (open loop) or of the requests (closed loop), its pipelining. */
interface GroupPace {
  workload: Workload;
  part: number;
  duration: number;
  openLoop: boolean;
}

function paceLines({ workload, part, duration, openLoop }: GroupPace): WrittenLine[] {
  const rated = workload.ratePerSec !== undefined;
  const lines: WrittenLine[] = [];
  if (!openLoop && rated) lines.push(setting('requests', countWord(workload.ratePerSec! * part * duration)));
  if (openLoop && rated) lines.push(setting('rate', rateWord(workload.ratePerSec! * part)));
  if (!openLoop && workload.pipeline > 1) lines.push(setting('pipeline', String(workload.pipeline)));
  return lines;
}

/**
 * A job queue as client groups of the traffic phase: the producers (the pushes, at their part of the rate, or of
 * the requests in the closed loop) and a consumer group per blocking command, as captured (its keys and timeout),
 * closed loop and pipeline 1 as consumer groups are; the consumers stop once the producers have ended and the
 * queue is drained.
 */
function queueLines(queue: QueuePlan, index: number, pace: GroupPace): WrittenLine[] {
  const suffix = index === 0 ? '' : `-${index + 1}`;
  const producerClients = Math.min(pace.workload.clients, Math.max(1, ...queue.producers.map((line) => line.clients ?? 1)));
  const lines: WrittenLine[] = [
    comment(
      `A job queue on ${queue.keys.join(', ')}: ${percent(pace.part)} of the replayed commands pushed by ${producerClients} client${producerClients === 1 ? '' : 's'}, ` +
        'taken by the consumers as captured (each job carries its send time, __now__, for the wake-up latency: 17 bytes more each)',
    ),
    { kind: 'load', name: `producers${suffix}` },
    setting('clients', String(producerClients)),
    ...paceLines(pace),
    ...trafficLines(queue.producers.map(stamped)),
  ];
  queue.consumers.forEach((consumer, n) => {
    lines.push(
      { kind: 'load', name: `consumers${suffix}${n === 0 ? '' : `-${n + 1}`}` },
      setting('clients', String(consumer.clients)),
      ...consumerLines(consumer),
    );
  });
  return lines;
}

/** A command line as it is, or a comment saying why it is not reproduced when no file can hold it as it is meant. */
function writable(line: WrittenLine): WrittenLine {
  try {
    writeScenario([{ kind: 'header', title: 'line' }, line]);
    return line;
  } catch (error) {
    if (!(error instanceof ScenarioWriteError)) throw error;
    return comment(`not reproduced (${error.message})`);
  }
}

function scenario(name: string, workload: Workload, capture: CaptureResult, openLoop: boolean): WrittenLine[] {
  const duration = Math.max(1, Math.round(capture.windowMs / 1000));
  // A stream a queue reads is the run's own: deleted after it, so its stream group is created anew on the next run.
  const streams = [...new Set(workload.queues.flatMap((queue) => queue.streamGroups.map((group) => group.key)))];
  const lines: WrittenLine[] = [
    blank,
    { kind: 'header', title: name },
    setting('key-size', String(workload.keySize)),
    ...streams.map((key) => setting('cleanup', key)),
    ...prefillLines(workload),
    ...streamGroupLines(workload),
    blank,
  ];
  // The measured phase `traffic`. One key space (and no queue): the mix as one pool of clients, as captured. Else
  // a client group per key pattern (a pattern with 100 keys must replay into 100 keys, not into the largest
  // pattern's space: each group has its own `keys`) and the queues' producers and consumers, all at the same time,
  // as the source ran them: each group at its own part of the rate (closed loop: of the requests) and of the
  // clients, so each command runs at its source rate and each pattern's keys are its own.
  const groups = groupsOf(workload);
  const queueShare = (queue: QueuePlan) => queue.producers.reduce((sum, line) => sum + line.share, 0);
  const totalShare = groups.reduce((sum, group) => sum + group.share, 0) + workload.queues.reduce((sum, queue) => sum + queueShare(queue), 0) || 1;
  const rated = workload.ratePerSec !== undefined;
  const keysLine = (group: KeyGroup) =>
    group.fit.kind === 'zipf' ? setting('keys', countWord(group.keys), 'zipf', String(group.fit.exponent)) : setting('keys', countWord(group.keys), 'uniform');
  const value = valueLine(workload.value);
  if (groups.length === 1 && workload.queues.length === 0) {
    lines.push({ kind: 'phase', measured: true, name: 'traffic' }, setting('duration', `${duration}s`), setting('clients', String(workload.clients)));
    lines.push(...paceLines({ workload, part: 1, duration, openLoop }).filter((line) => line.kind !== 'setting' || line.name !== 'requests'));
    lines.push(keysLine(groups[0]), ...(value ? [value] : []), ...trafficLines(groups[0].lines));
    return lines;
  }
  lines.push({ kind: 'phase', measured: true, name: 'traffic' });
  // Closed loop with a rate read: each group sends its part of the requests; else all run for the window.
  if (openLoop || !rated) lines.push(setting('duration', `${duration}s`));
  if (value) lines.push(value);
  groups.forEach((group, index) => {
    const part = group.share / totalShare;
    lines.push(
      blank,
      comment(
        `${group.pattern !== undefined ? `Keys like ${group.pattern}` : 'Keys without an identifier'}: ${count(group.keys)} of them, ${percent(part)} of the commands`,
      ),
      { kind: 'load', name: index === 0 ? 'keys' : `keys-${index + 1}` },
      setting('clients', String(Math.max(1, Math.round(workload.clients * part)))),
      ...paceLines({ workload, part, duration, openLoop }),
      keysLine(group),
      ...trafficLines(group.lines),
    );
  });
  workload.queues.forEach((queue, index) => {
    lines.push(blank, ...queueLines(queue, index, { workload, part: queueShare(queue) / totalShare, duration, openLoop }));
  });
  return lines;
}

/** The scenario file's text: formatted, and clean under `rbench check`. */
export function scenarioText(capture: CaptureResult, workload: Workload): string {
  return cleanUnderCheck(
    layout([
      ...header(capture, workload),
      ...scenario('captured workload (open loop at the observed rate)', workload, capture, workload.ratePerSec !== undefined),
      ...scenario('captured workload (closed loop, as fast as it goes)', workload, capture, false),
    ]),
  );
}

/** Lines the checker refuses become comments with its reason, until none is left (a bounded number of rounds). */
function cleanUnderCheck(lines: WrittenLine[]): string {
  let text = writeScenario(lines);
  for (let round = 0; round < 5; round++) {
    const errors = checkText(text).diagnostics.filter((d) => d.severity === 'error');
    if (errors.length === 0) return text;
    const written = text.split('\n');
    for (const error of errors) {
      const index = error.range.start.line;
      if (lines[index] && lines[index].kind !== 'comment' && lines[index].kind !== 'blank')
        lines[index] = comment(`not reproduced (rbench check: ${error.message}): ${written[index]}`);
    }
    text = writeScenario(lines);
  }
  return text;
}
