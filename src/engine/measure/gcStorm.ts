// A test hook (WorkerConfig.testHooks, set by tests only): forced full garbage collections every few ms
// over a retained heap large enough to make each one a pause of several ms, so a test can check that the
// client's own pauses show as the client's tail and not the server's latency. node:v8 and node:vm are
// required here, when a test starts a storm: no engine thread of a real run loads them.
import type * as V8 from 'node:v8';
import type * as Vm from 'node:vm';

/** Starts the storm; returns what stops it (and lets its heap go). */
export function startGcStorm(everyMs: number): () => void {
  /* eslint-disable @typescript-eslint/no-require-imports */
  (require('node:v8') as typeof V8).setFlagsFromString('--expose-gc');
  const gc = (require('node:vm') as typeof Vm).runInNewContext('gc') as () => void;
  /* eslint-enable @typescript-eslint/no-require-imports */
  // Live objects for the collector to mark, held by the timer: a full collection's pause grows with them.
  const retained = Array.from({ length: 100_000 }, (_, n) => ({ n }));
  const timer = setInterval(() => {
    if (retained.length > 0) gc();
  }, everyMs);
  return () => clearInterval(timer);
}
