// A test hook (WorkerConfig.testHooks, set by tests only): forced full garbage collections every few ms
// over a retained heap large enough to make each one a pause of several ms, so a test can check that the
// client's own pauses show as the client's tail and not the server's latency.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Starts the storm; returns what stops it (and lets its heap go). */
export function startGcStorm(everyMs: number): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // Live objects for the collector to mark, held by the timer: a full collection's pause grows with them.
  const retained = Array.from({ length: 100_000 }, (_, n) => ({ n }));
  const timer = setInterval(() => {
    if (retained.length > 0) gc();
  }, everyMs);
  return () => clearInterval(timer);
}
