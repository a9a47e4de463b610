// The `.rbench` text of a capture: a header saying where, when and what was sampled (and that no name or
// value of the source was copied), what could not be reproduced with its share, then two scenarios over
// the same prefill: the observed rate as an open loop, and the same mix as fast as it goes (closed loop,
// the observed pipelining). The text is formatted by the language's own formatter and checked by its own
// checker: a line the checker refuses becomes a comment saying why, so the file always checks clean.
import { checkText } from '../scenario';
import { formatText } from '../scenario/features/formatting';
import { UNREPRODUCIBLE_WORDS } from './commandKinds';
import type { SizeFit } from './fit';
import type { PrefillPlan, Workload } from './workload';
import { MAX_ELEMENTS } from './workload';
import type { CaptureResult } from './types';
import { groupDigits } from '../scenario/numberText';

const percent = (share: number) => `${(share * 100).toFixed(share >= 0.1 ? 0 : 1)}%`;
const count = (n: number) => groupDigits(Math.round(n));

function valueLine(fit: SizeFit | undefined): string | undefined {
  if (!fit) return undefined;
  if (fit.kind === 'fixed') return `value ${fit.size}`;
  if (fit.kind === 'range') return `value ${fit.min}..${fit.max}`;
  return `value ${fit.choices.map((c) => `${c.size} ${c.weight}%`).join(', ')}`;
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

function header(capture: CaptureResult, workload: Workload): string[] {
  const { source } = capture;
  const lines = [
    `# Captured by rbench capture from ${source.display} (Redis ${source.version}, ${source.mode}, ${source.role}, db ${source.db})`,
    `# at ${capture.startedAt}, for ${(capture.windowMs / 1000).toFixed(1)} s.`,
  ];
  if (capture.partial) lines.push(`# PARTIAL: ${capture.partial}; what follows is what was sampled until then.`);
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
  lines.push('# Sampled:', ...sampled.map((item) => `#   - ${item}`));
  for (const note of [...capture.notes, ...(keyspace?.notes ?? []), ...workload.notes]) lines.push(`# Note: ${note}`);
  lines.push(
    capture.keepNames
      ? "# Names: kept as written (--keep-names): key and field names are the source's, with numbers and hex identifiers as __key__; values are random bytes of the observed sizes."
      : '# Privacy: no key name, value or argument of the source is copied. Identifiers in keys became __key__ (prefixes and lower-case words kept),',
  );
  if (!capture.keepNames) lines.push('# keys without one fixed:N, field names fN, numbers their mean; values are random bytes of the observed sizes.');
  const fit = workload.keyFit;
  lines.push(
    fit.kind === 'zipf'
      ? `# Keys: zipf ${fit.exponent} over ${count(workload.keySpace)} key numbers (maximum likelihood on the ${count(fit.ranks)} commonest, hit 5+ times)`
      : `# Keys: uniform over ${count(workload.keySpace)} key numbers (${fit.reason})`,
  );
  for (const group of workload.left) {
    lines.push(
      `# Not reproduced: ${percent(group.share)} ${UNREPRODUCIBLE_WORDS[group.kind]}: ${group.commands
        .slice(0, 8)
        .map((c) => `${c.name} ${percent(c.share)}`)
        .join(', ')}`,
    );
  }
  if (keyspace && keyspace.moduleTypes.size > 0) {
    lines.push(
      `# Skipped: ${[...keyspace.moduleTypes].map(([type, n]) => `${count(n)} sampled keys of module type ${JSON.stringify(type)}`).join(', ')} (RBench cannot build them)`,
    );
  }
  if (workload.scaledPrefill) {
    lines.push(
      `# The keyspace was scaled down to fit ${count(workload.scaledPrefill.to / 1024 ** 3)} GiB (the source's would take about ${(workload.scaledPrefill.from / 1024 ** 3).toFixed(1)} GiB here).`,
    );
  }
  return lines;
}

function prefillCommand(plan: PrefillPlan): string {
  const n = Math.min(MAX_ELEMENTS, plan.length);
  switch (plan.type) {
    case 'string':
      return `SET ${plan.pattern} __value__`;
    case 'hash':
      // Fields p1…pN: the traffic's own fields (f1…, HINCRBY's counters among them) stay free of random bytes.
      return `HSET ${plan.pattern} ${Array.from({ length: n }, (_, i) => `p${i + 1} __value__`).join(' ')}`;
    case 'list':
      return `RPUSH ${plan.pattern} __value__*${n}`;
    case 'set':
      return `SADD ${plan.pattern} __value__*${n}`;
    case 'zset':
      return `ZADD ${plan.pattern} (__rand_int__ __value__)*${n}`;
    default:
      return `XADD ${plan.pattern} * f1 __value__`;
  }
}

function prefillLines(workload: Workload): string[] {
  const lines: string[] = [];
  workload.prefill.forEach((plan, index) => {
    const name = `keyspace-${index + 1}`;
    lines.push(
      '',
      `# ${count(plan.keys)} ${plan.type} keys like ${plan.pattern}${plan.length > 1 ? `, ${plan.length} elements each` : ''}${plan.sampledLength > plan.length && plan.type !== 'string' ? ` (the sample's median is ${count(plan.sampledLength)}: capped)` : ''}`,
      `prefill ${name}`,
      `keys ${countWord(plan.keys)} sequential`,
      `requests ${countWord(plan.keys)}`,
      'pipeline 50',
      'clients 20',
    );
    const value = plan.type === 'string' ? valueLine(plan.value ?? workload.value) : 'value 16';
    if (value) lines.push(value);
    lines.push(prefillCommand(plan));
    if (plan.ttlShare > 0.005) {
      const withTtl = Math.max(1, Math.round(plan.keys * plan.ttlShare));
      lines.push(
        '',
        `# ${percent(plan.ttlShare)} of these keys have a time to live (median ${count(plan.ttlSeconds)} s)`,
        `prefill ${name}-ttl`,
        `keys ${countWord(withTtl)} sequential`,
        `requests ${countWord(withTtl)}`,
        'pipeline 50',
        'clients 20',
        `EXPIRE ${plan.pattern} ${plan.ttlSeconds}`,
      );
    }
  });
  return lines;
}

function trafficLines(workload: Workload): string[] {
  const total = workload.lines.reduce((sum, line) => sum + line.share, 0);
  if (workload.lines.length === 0) return ['# Nothing reproducible was captured: PING stands in.', '100% PING'];
  return workload.lines.map((line) => {
    const weight = Math.max(0.01, Math.round((line.share / total) * 10000) / 100);
    return [`${weight}%`, line.command, ...line.args].join(' ');
  });
}

function scenario(name: string, workload: Workload, capture: CaptureResult, openLoop: boolean): string[] {
  const duration = Math.max(1, Math.round(capture.windowMs / 1000));
  const fit = workload.keyFit;
  const lines = ['', `### ${name}`, `key-size ${workload.keySize}`, ...prefillLines(workload), '', `phase traffic`];
  lines.push(`duration ${duration}s`, `clients ${workload.clients}`);
  if (openLoop && workload.ratePerSec !== undefined) lines.push(`rate ${rateWord(workload.ratePerSec)}`);
  if (!openLoop && workload.pipeline > 1) lines.push(`pipeline ${workload.pipeline}`);
  lines.push(`keys ${countWord(workload.keySpace)} ${fit.kind === 'zipf' ? `zipf ${fit.exponent}` : 'uniform'}`);
  const value = valueLine(workload.value);
  if (value) lines.push(value);
  lines.push(...trafficLines(workload));
  return lines;
}

/** The scenario file's text: formatted, and clean under `rbench check`. */
export function scenarioText(capture: CaptureResult, workload: Workload): string {
  const lines = [
    ...header(capture, workload),
    ...scenario('captured workload (open loop at the observed rate)', workload, capture, workload.ratePerSec !== undefined),
    ...scenario('captured workload (closed loop, as fast as it goes)', workload, capture, false),
  ];
  return cleanUnderCheck(formatText(lines.join('\n') + '\n'));
}

/** Lines the checker refuses become comments with its reason, until none is left (a bounded number of rounds). */
function cleanUnderCheck(text: string): string {
  for (let round = 0; round < 5; round++) {
    const errors = checkText(text).diagnostics.filter((d) => d.severity === 'error');
    if (errors.length === 0) return text;
    const lines = text.split('\n');
    for (const error of errors) {
      const index = error.range.start.line;
      if (lines[index] !== undefined && !lines[index].startsWith('#'))
        lines[index] = `# not reproduced (rbench check: ${error.message.replace(/\n/g, ' ')}): ${lines[index]}`;
    }
    text = lines.join('\n');
  }
  return text;
}
