// The one interface every bottleneck kind implements: given a load's evidence, the `why` line when the kind
// holds, with its figures, or undefined. Each kind is a file of its own; index.ts lists them in one table.
import type { BottleneckKind, LoadResult } from '../../engine';
import type { ServerDelta } from '../../redis/types';
import type { PersistenceEvent } from '../runFile';

/** A kind a judge can name (`mixed` and `undetermined` are what the rule says, not a judge). */
export type JudgedKind = Exclude<BottleneckKind, 'mixed' | 'undetermined'>;

/** What a verdict is made from: the load as measured, its window, and what else was known of the server. */
export interface Evidence {
  load: LoadResult;
  /** The throughput window, ms (windowMs, else durationMs). */
  windowMs: number;
  /** The server's counters over the load; absent when the server was not read. */
  server?: ServerDelta;
  /** Persistence events (BGSAVE, AOF rewrite) that started during the load, from the run's INFO samples. */
  events: PersistenceEvent[];
}

export interface BottleneckJudge {
  kind: JudgedKind;
  /** What the kind means and what to do about it, one sentence (the docs and the panel show it). */
  description: string;
  judge(evidence: Evidence): string | undefined;
  /** What the kind saw that did not set the pace (a short fork): added to the verdict's `why` as a note. */
  note?(evidence: Evidence): string | undefined;
  /** A kind that explains the pace only when nothing else does (round-trip): it never joins a `mixed` verdict. */
  residual?: boolean;
}
