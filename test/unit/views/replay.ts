// Replays a run file as the progress events its run would have sent (for the live-view tests).
import type { RunFile } from '../../../src/results/runFile';
import type { RunProgress } from '../../../src/runner/runScenario';
import type { StampedProgress } from '../../../src/views/model';

/** The progress events a run file's loads would have produced, stamped with plausible times. */
export function replay(run: RunFile): StampedProgress[] {
  const events: StampedProgress[] = [];
  const started = Date.parse(run.startedAt);
  const loads = run.points.flatMap((point) => point.repeats.flatMap((loads, repeat) => loads.map((load) => ({ point: point.label, repeat, load }))));
  loads.forEach(({ point, repeat, load }, index) => {
    const at = { point, phase: load.phase, test: load.test, repeat, measured: true, index, total: loads.length };
    const startMs = Date.parse(load.startedAt) - started;
    events.push({ atMs: startMs, event: { kind: 'load-start', at } });
    let requests = 0;
    for (const second of load.timeline) {
      requests += second.ops;
      const tick = {
        elapsedMs: (second.t + 1) * 1000,
        requests,
        errors: 0,
        lastSecond: second,
        warmingUp: false,
        fraction: (second.t + 1) / load.timeline.length,
      };
      // Two ticks per second, as the engine sends several: the same second must not be counted twice.
      events.push({ atMs: startMs + (second.t + 0.5) * 1000, event: { kind: 'tick', at, tick } });
      events.push({ atMs: startMs + (second.t + 1) * 1000, event: { kind: 'tick', at, tick } });
    }
    events.push({ atMs: startMs + load.durationMs, event: { kind: 'load-end', at, result: load } });
  });
  for (const sample of run.server.samples) events.push({ atMs: sample.t, event: { kind: 'server-sample', sample } as RunProgress });
  return events.sort((a, b) => a.atMs - b.atMs);
}
