// A preload (NODE_OPTIONS=--require, which reaches worker threads too) that reports, per thread of a CLI
// process, its resourceLimits' young generation and the largest new space V8 gave it while it ran: the
// memory tests of issue 46 read them from stderr. Lines are written at once (a worker may be terminated).
import type { Scratch } from './cli';

const RECORDER = `
const { writeSync } = require('node:fs');
const { threadId, resourceLimits } = require('node:worker_threads');
const v8 = require('node:v8');
let largest = 0;
function sample() {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  if (space.space_size <= largest) return;
  largest = space.space_size;
  writeSync(2, 'RBENCH-HEAP ' + threadId + ' ' + (resourceLimits.maxYoungGenerationSizeMb ?? 0) + ' ' + largest + '\\n');
}
sample();
setInterval(sample, 20).unref();
`;

export interface ThreadHeap {
  /** The thread's resourceLimits.maxYoungGenerationSizeMb (0 on the main thread). */
  youngMb: number;
  /** The largest new space seen, in bytes. */
  largestNewSpace: number;
}

/** Writes the preload into the scratch folder; returns the NODE_OPTIONS that load it. */
export function heapRecorderOptions(scratch: Pick<Scratch, 'write'>): string {
  return `--require ${scratch.write('heap-recorder.cjs', RECORDER)}`;
}

/** What the preload reported, by thread id (0: the main thread). */
export function heapByThread(stderr: string): Map<number, ThreadHeap> {
  const threads = new Map<number, ThreadHeap>();
  for (const [, thread, youngMb, largest] of stderr.matchAll(/^RBENCH-HEAP (\d+) (\d+) (\d+)$/gm)) {
    const seen = threads.get(Number(thread));
    threads.set(Number(thread), { youngMb: Number(youngMb), largestNewSpace: Math.max(seen?.largestNewSpace ?? 0, Number(largest)) });
  }
  return threads;
}
