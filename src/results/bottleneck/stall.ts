// stall: the server did not answer for a stretch while requests were outstanding (load.stalls, measured by
// the engine per connection), or stopped answering and the stall limit ended the load.
import type { LoadResult, Stall } from '../../engine';
import type { BottleneckJudge } from './judge';
import { length, seconds } from './figures';

/** A stall longer than this makes a run read "complete, with a 2.0 s stall" rather than a clean complete. */
export const NOTABLE_STALL_MS = 1000;

/** `the server did not answer from 2.5 s to 4.5 s (2.0 s)`. */
export function stallSpan(stall: Stall): string {
  return `the server did not answer from ${seconds(stall.fromMs)} to ${seconds(stall.toMs)} (${length(stall.toMs - stall.fromMs)})`;
}

/** `the server did not answer from 2.5 s to 4.5 s (2.0 s) on 10 of 10 connections`. */
export function stallLine(stall: Stall): string {
  return `${stallSpan(stall)} on ${stall.connections} of ${stall.of} connections`;
}

export function longestStall(load: Pick<LoadResult, 'stalls'>): Stall | undefined {
  const stalls = load.stalls ?? [];
  return stalls.length === 0 ? undefined : stalls.reduce((a, b) => (b.toMs - b.fromMs > a.toMs - a.fromMs ? b : a));
}

export const stall: BottleneckJudge = {
  kind: 'stall',
  description:
    'The server did not answer for a stretch while requests were waiting: a freeze (a fork, a slow command, a paused process, the network) set the figures.',
  judge: ({ load }) => {
    const longest = longestStall(load);
    if (longest) {
      const others = (load.stalls?.length ?? 1) - 1;
      return `${stallLine(longest)}${others > 0 ? `, and ${others} shorter stall${others === 1 ? '' : 's'}` : ''}`;
    }
    return load.windowKind === 'first-send-to-stall'
      ? `the server stopped answering: ${load.errorStatusReason ?? 'the stall limit ended the test'}`
      : undefined;
  },
};
