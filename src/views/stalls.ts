// Stretches without replies (LoadResult.stalls) as the panel words and shades them. Times in a stall are
// ms since the load's measuring began: the clock of its timeline's `t` (seconds), so a stall lands on the
// timeline at the load's offset plus its own time. Pure: bundled into the webview and unit-tested.
import type { Stall } from '../engine';
import { longestStall as longestOf, NOTABLE_STALL_MS } from '../results/bottleneck/stall';

/** A stall longer than this keeps a run from reading as a clean `complete` (the verdict rule's limit). */
export const LONG_STALL_MS = NOTABLE_STALL_MS;

/** `2.0 s`: a stall's times and lengths. */
export const stallSeconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** `no reply 2.5 s – 4.5 s (2.0 s) on 10 of 10 connections`. */
export function stallText(stall: Stall): string {
  return `no reply ${stallSeconds(stall.fromMs)} – ${stallSeconds(stall.toMs)} (${stallSeconds(stall.toMs - stall.fromMs)}) on ${stall.connections} of ${stall.of} connection${stall.of === 1 ? '' : 's'}`;
}

/** The stalls worth drawing: a run file is a stranger's, so an empty or reversed stretch is left out. */
export function validStalls(stalls: readonly Stall[] | undefined): Stall[] {
  return (stalls ?? []).filter((s) => Number.isFinite(s.fromMs) && Number.isFinite(s.toMs) && s.toMs > s.fromMs);
}

/** The longest of the stalls (valid ones only), or undefined. */
export function longestStall(stalls: readonly Stall[] | undefined): Stall | undefined {
  return longestOf({ stalls: validStalls(stalls) });
}

/** The header's words for a stall over a second: `the server did not answer for 2.0 s`, or on some connections only. */
export function stallHeadline(stall: Stall): string {
  const length = stallSeconds(stall.toMs - stall.fromMs);
  return stall.connections >= stall.of
    ? `the server did not answer for ${length}`
    : `${stall.connections} of ${stall.of} connections heard no reply for ${length}`;
}

/** A stall on the run's clock: [from, to] in run seconds, with its words (the load's name first when there are several). */
export interface StallSpan {
  from: number;
  to: number;
  text: string;
}

export function stallSpans(loads: readonly { label: string; offset: number; stalls?: readonly Stall[] }[]): StallSpan[] {
  const named = loads.length > 1;
  return loads.flatMap((load) =>
    validStalls(load.stalls).map((stall) => ({
      from: load.offset + stall.fromMs / 1000,
      to: load.offset + stall.toMs / 1000,
      text: `${named && load.label ? `${load.label}: ` : ''}${stallText(stall)}`,
    })),
  );
}
