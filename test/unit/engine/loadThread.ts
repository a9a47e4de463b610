// Where a load runs (threads.ts runsInThread): in a worker, or on the caller's thread when that thread is free (the
// CLI's, where one-thread loads of any length run). Tests of a path that can run both ways run their checks both ways.
import assert from 'node:assert/strict';
import { loadsOnThisThread } from '../../../src/engine/inThreadLoad';
import { letLoadsHoldThisThread } from '../../../src/engine/threads';

export type LoadThread = 'worker' | 'caller';

/**
 * Runs `body` with the caller's thread free for loads (`caller`) or not (`worker`), and asserts that its load ran
 * there: `onTick` is for runLoad's options, and sees how many loads run on this thread at each progress tick.
 */
export async function onLoadThread<T>(where: LoadThread, body: (onTick: () => void) => Promise<T>): Promise<T> {
  const seen = new Set<number>();
  letLoadsHoldThisThread(where === 'caller');
  try {
    const result = await body(() => seen.add(loadsOnThisThread()));
    assert.equal(seen.has(1), where === 'caller', `loads on this thread at the ticks: ${[...seen].join(', ')}`);
    return result;
  } finally {
    letLoadsHoldThisThread(false);
  }
}
