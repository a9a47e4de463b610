// The bottleneck verdict of a test: what set its pace, from the client's and the server's evidence. One
// rule for the CLI, the run file, the panel, compare and merge: every kind in KINDS judges the load; one
// that holds is the verdict, two or more are `mixed` (a residual kind, round-trip, counts only when nothing
// else holds), none falls back to what the evidence supports best, and a window too short to judge is
// `undetermined`.
import type { Bottleneck, BottleneckKind, LoadResult } from '../../engine';
import type { PersistenceEvent } from '../runFile';
import type { BottleneckJudge, Evidence, JudgedKind } from './judge';
import { clientCpu } from './clientCpu';
import { clientFigures } from './clientLoad';
import { clientStarved } from './clientStarved';
import { clientSide, serverSide } from './cpuShares';
import { count, length } from './figures';
import { foreignLoad } from './foreignLoad';
import { lateSends } from './lateSends';
import { memory } from './memory';
import { network } from './network';
import { persistence } from './persistence';
import { machineCpu } from './machineCpu';
import { keptRate, latencySplit, roundTrip } from './roundTrip';
import { serverCpu } from './serverCpu';
import { slowCommands } from './slowCommands';
import { stall } from './stall';

export type { JudgedKind } from './judge';
export { describeOtherRun, foreignCalls, foreignLoadLine, otherRunsOverlapped, RUN_CLIENT_PREFIX } from './foreignLoad';
export { KIND_LABELS, verdictLabel, verdictShort } from './labels';
export { longestStall, NOTABLE_STALL_MS, stallLine, stallSpan } from './stall';

/** Every kind, in the order a `mixed` verdict lists them: the server's own limits first, then the client's, then the path between. */
export const KINDS: readonly BottleneckJudge[] = [
  stall,
  persistence,
  memory,
  slowCommands,
  foreignLoad,
  serverCpu,
  machineCpu,
  clientCpu,
  clientStarved,
  lateSends,
  network,
  roundTrip,
];

/** A window shorter than this, or fewer replies, supports no verdict (issue 20: 14 replies in 1.5 ms read as CPU-bound). */
export const MIN_WINDOW_MS = 200;
export const MIN_REPLIES = 100;

/** What each kind means, for the docs and the panel's hover. */
export const KIND_DESCRIPTIONS: Record<BottleneckKind, string> = {
  ...(Object.fromEntries(KINDS.map((judge) => [judge.kind, judge.description])) as Record<JudgedKind, string>),
  mixed: 'Two or more of the kinds held at once; each is listed with its own figures.',
  undetermined: 'The evidence supports no verdict: the window was too short, or the client had headroom and the server was not read.',
};

export interface BottleneckContext {
  /** The run's persistence events (run.server.events) and when the run started, to find those during the load. */
  events?: PersistenceEvent[];
  runStartedAt?: string;
}

/** The events that started inside the load's measured window (event `t` is ms since the run started). */
function eventsDuring(load: LoadResult, context: BottleneckContext, windowMs: number): PersistenceEvent[] {
  if (!context.events?.length || !context.runStartedAt) return [];
  const from = Date.parse(load.measuredFrom ?? load.startedAt) - Date.parse(context.runStartedAt);
  return context.events.filter((event) => event.t >= from && event.t <= from + windowMs);
}

/** What the evidence supports when no kind holds: never a guess — the figures there are and the evidence missing. */
function fallback(evidence: Evidence): Bottleneck {
  const { load, server } = evidence;
  const client = clientFigures(load.health);
  if (!server) {
    const reason = load.health.bottleneck === 'server' ? 'the client had headroom' : 'the client was busy but not clearly the limit';
    return { kind: 'undetermined', why: `${reason} (${client}); the server's counters were not read, so server and round trip cannot be told apart` };
  }
  const clientCpu = clientSide(evidence);
  const serverCpu = serverSide(evidence);
  const split = latencySplit(evidence);
  const figures = [clientCpu?.text ?? client, serverCpu?.text ?? "the server's CPU not read", split?.text].filter(Boolean).join('; ');
  const missing = [
    clientCpu ? '' : "the client's wait for a core (no schedstat)",
    serverCpu?.shares ? '' : "the server's wait for a core (no schedstat of a redis-server on this machine)",
  ].filter(Boolean);
  const kept = keptRate(evidence);
  const why = kept
    ? `no limit reached (${figures}): ${kept.text}`
    : missing.length
      ? `no limit reached (${figures}); ${missing.join(' and ')} not known, so an idle side cannot be told from a waiting one`
      : `no limit reached (${figures}), but a side was busy or waited for a core as long as it ran: neither idle, so not the round trip`;
  return { kind: 'undetermined', why };
}

/** The verdict on one load (context: the run's persistence events, to catch a BGSAVE the counters missed). */
export function bottleneckOf(load: LoadResult, context: BottleneckContext = {}): Bottleneck {
  // A subscriber receives at the publishers' pace: no rule here reads its figures, so none is made up.
  if (load.pubsub?.role === 'subscriber')
    return {
      kind: 'undetermined',
      why: "not judged: a subscriber group receives at its publishers' pace (see their verdict); its figures are delivered/s and publish→receive latency",
    };
  const verdict = judged(load, context);
  const evidence: Evidence = {
    load,
    windowMs: load.windowMs ?? load.durationMs,
    server: load.server,
    events: eventsDuring(load, context, load.windowMs ?? load.durationMs),
  };
  // Notes (a short fork, a resend's wait) go with any verdict the window supports, `undetermined` ones included;
  // a window too short for a verdict gets none.
  const notes = tooShort(load) ? [] : KINDS.flatMap((judge) => judge.note?.(evidence) ?? []);
  return notes.length > 0 ? { ...verdict, why: `${verdict.why}; note: ${notes.join('; ')}` } : verdict;
}

/** A window shorter than MIN_WINDOW_MS, or fewer replies than MIN_REPLIES: no verdict. */
function tooShort(load: LoadResult): boolean {
  return (load.windowMs ?? load.durationMs) < MIN_WINDOW_MS || load.total.latency.count < MIN_REPLIES;
}

function judged(load: LoadResult, context: BottleneckContext): Bottleneck {
  // Consumers wait for the producers' jobs by design: their pace is the producers', and a blocked call is no
  // saturated resource. Their figures (jobs/s, wake-up latency, idle consumers) speak for them.
  if (load.consumer)
    return { kind: 'undetermined', why: 'not judged: a consumer group takes jobs at the pace the producers push them (see its jobs/s and wake-up latency)' };
  const windowMs = load.windowMs ?? load.durationMs;
  const replies = load.total.latency.count;
  if (tooShort(load)) {
    const window = windowMs < 1000 ? `${windowMs < 10 ? windowMs.toFixed(1) : Math.round(windowMs)} ms` : length(windowMs);
    return { kind: 'undetermined', why: `the window (${window}, ${count(replies)} repl${replies === 1 ? 'y' : 'ies'}) is too short for a verdict` };
  }
  const evidence: Evidence = { load, windowMs, server: load.server, events: eventsDuring(load, context, windowMs) };
  const all = KINDS.flatMap((judge) => {
    const why = judge.judge(evidence);
    return why === undefined ? [] : [{ kind: judge.kind, why, residual: judge.residual === true }];
  });
  const decisive = all.filter((part) => !part.residual);
  const held = (decisive.length > 0 ? decisive : all).map(({ kind, why }) => ({ kind, why }));
  if (held.length === 1) return held[0];
  if (held.length > 1) return { kind: 'mixed', why: held.map((part) => `${part.kind}: ${part.why}`).join('; '), parts: held };
  return fallback(evidence);
}
