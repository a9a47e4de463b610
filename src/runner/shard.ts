// `rbench run --shard I/N` and `--start-at`: one machine's part of a scenario spread over N load machines.
// Part I runs its share of every test's clients; the clients keep their scenario-wide numbers, so the N
// parts together send exactly the scenario's requests: requests and rate follow the clients, sequential
// keys keep their stride (each key is written by one part only), `__client__` stays unique, and with a
// fixed `seed` each part draws the same keys and values on every rerun (draws follow the requests a part
// claims from its budget, so they are not the ones a single machine would draw).
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { splitRequests } from '../engine';
import type { RunFile } from '../results/runFile';
import { formatDuration } from '../results/format';
import type { LoadPlan, ScenarioPlan } from '../scenario/plan';

export interface ShardSpec {
  /** 1-based: the I of I/N. */
  index: number;
  count: number;
  /**
   * What the parts of one run share on their command lines: `--run-id` as given, else `--start-at`'s time.
   * Without either the parts cannot tell each other from another run's.
   */
  group?: string;
}

/** `--run-id`: any text the parts are given alike (a job's name, a CI run number), at most 64 characters; or why not. */
export function parseRunId(text: string): string | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.length > 64 || !/^[\x21-\x7e]+$/.test(trimmed)) {
    return { error: `--run-id "${text.slice(0, 70)}": give 1 to 64 visible characters without spaces, the same on every part (e.g. --run-id nightly-42)` };
  }
  return trimmed;
}

/** The group `--start-at` gives the parts when no `--run-id` does: parts started together by one time belong together. */
export function startAtGroup(at: number): string {
  return `start-at:${at}`;
}

/**
 * The run id the parts of one run share: 8 hex digits of SHA-256 over the group, the scenario and the part
 * count, so the scenarios of one file and splits into different counts never share one.
 */
export function shardRunId(group: string, scenario: string, count: number): string {
  return createHash('sha256').update(`${group}\n${scenario}\n${count}`).digest('hex').slice(0, 8);
}

/** `2/3` → { index: 2, count: 3 }, or why not. */
export function parseShard(text: string): ShardSpec | string {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const usage = 'write --shard I/N with 1 ≤ I ≤ N, e.g. --shard 2/3 for the second of three machines';
  if (!match) return `--shard "${text}": ${usage}`;
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || index < 1 || index > count) return `--shard ${text}: ${usage}`;
  return { index, count };
}

/** `--start-at`: an ISO 8601 time with a zone (`2026-11-30T12:00:00Z`) or epoch milliseconds → epoch ms. */
export function parseStartAt(text: string): number | string {
  const trimmed = text.trim();
  const usage = 'give an ISO time with its zone (2026-11-30T12:00:00Z) or epoch milliseconds (date +%s%3N)';
  if (/^\d{10,}$/.test(trimmed)) {
    // Ten digits are epoch seconds, not ms: a likely slip that would mean "start now".
    if (trimmed.length < 12) return `--start-at ${trimmed} looks like epoch seconds: ${usage}`;
    return Number(trimmed);
  }
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/i.test(trimmed)) {
    return `--start-at "${trimmed}" is not a time: ${usage}; without a zone the machines could disagree on it`;
  }
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? `--start-at "${trimmed}" is not a valid date: ${usage}` : at;
}

/** The part of a load that shard I of N runs; undefined when the load has fewer clients than parts. */
function shardLoad(load: LoadPlan, shard: ShardSpec): LoadPlan | undefined {
  if (load.clients < shard.count) return undefined;
  const clientsPerPart = splitRequests(load.clients, shard.count);
  const firstClient = clientsPerPart.slice(0, shard.index - 1).reduce((sum, n) => sum + n, 0);
  const clients = clientsPerPart[shard.index - 1];
  const part: LoadPlan = { ...load, clients, shard: { firstClient, totalClients: load.clients } };
  if (load.requests !== undefined) {
    // The engine gives each client its share of the requests; this part sends its clients' shares.
    part.requests = splitRequests(load.requests, load.clients)
      .slice(firstClient, firstClient + clients)
      .reduce((sum, n) => sum + n, 0);
  }
  if (load.rate !== undefined) part.rate = (load.rate * clients) / load.clients;
  return part;
}

/** The plan that shard I of N runs, recording the shard; or a message naming a test that cannot be split. */
export function shardPlan(plan: ScenarioPlan, shard: ShardSpec): ScenarioPlan | string {
  const points = [];
  for (const point of plan.points) {
    const phases = [];
    for (const phase of point.phases) {
      // A phase of client groups runs its groups' clients: its own shared setting is split where it can be.
      const load = shardLoad(phase.load, shard) ?? (phase.groups ? phase.load : undefined);
      if (!load) {
        const where = `${point.label ? `at ${point.label}, ` : ''}phase ${phase.name}`;
        return `--shard ${shard.index}/${shard.count}: ${where} has ${phase.load.clients} client${phase.load.clients === 1 ? '' : 's'}, fewer than the ${shard.count} parts — give it at least ${shard.count} clients, or use fewer parts`;
      }
      // Client groups: each group's clients are split over the parts as a load of their own.
      const groups = [];
      for (const group of phase.groups ?? []) {
        const part = shardLoad(group.phase.load, shard);
        if (!part) {
          const where = `${point.label ? `at ${point.label}, ` : ''}phase ${phase.name}, client group ${group.name}`;
          return `--shard ${shard.index}/${shard.count}: ${where} has ${group.phase.load.clients} client${group.phase.load.clients === 1 ? '' : 's'}, fewer than the ${shard.count} parts — give it at least ${shard.count} clients, or use fewer parts`;
        }
        groups.push({ ...group, phase: { ...group.phase, load: part } });
      }
      phases.push({ ...phase, load, ...(phase.groups ? { groups } : {}) });
    }
    points.push({ ...point, phases });
  }
  const runId = shard.group === undefined ? undefined : shardRunId(shard.group, plan.name, shard.count);
  return { ...plan, points, shard: { index: shard.index, count: shard.count, ...(runId ? { runId } : {}) } };
}

/**
 * Waits until `at` (epoch ms) so that every part starts together. Resolves false when cancelled.
 * Long waits sleep in steps, so a clock adjusted meanwhile is followed.
 */
export async function waitUntil(at: number, signal?: AbortSignal): Promise<boolean> {
  for (;;) {
    if (signal?.aborted) return false;
    const left = at - Date.now();
    if (left <= 0) return true;
    try {
      await sleep(Math.min(left, 60_000), undefined, { signal });
    } catch {
      return false;
    }
  }
}

/**
 * `--start-at`: says what it waits for (or that it is late), then waits. Resolves false when cancelled.
 * `note` gets a line for people, `warn` one for stderr.
 */
export async function startTogether(at: number, signal: AbortSignal | undefined, note: (line: string) => void, warn: (line: string) => void): Promise<boolean> {
  const late = Date.now() - at;
  if (late > 1000) warn(`warning: --start-at was ${formatDuration(late)} ago: starting now, not together with the other parts`);
  else note(`Waiting until ${new Date(at).toISOString()} to start…`);
  return waitUntil(at, signal);
}

/**
 * A part's run file: the part in its id (parts started together may share a millisecond), and no
 * threshold outcomes — a part's throughput is a fraction of the whole; `rbench merge` checks them.
 */
export function markPart(run: RunFile): void {
  const shard = run.plan.shard;
  if (!shard) return;
  run.id += `-part${shard.index}of${shard.count}`;
  run.thresholds = [];
}
