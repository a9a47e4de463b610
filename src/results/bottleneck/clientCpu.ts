// client-cpu: the engine itself was the limit, so the figures understate the server: the engine's own rule
// (src/engine/verdicts.ts, health.bottleneck), or its busiest thread busy nearly all the window while the
// process used about a core per thread — on a small machine the thread may get a little less than a core
// (the server takes the rest), which the engine's CPU-time rule alone would miss.
import type { BottleneckJudge } from './judge';
import { clientFigures } from './clientLoad';
import { bothBusy, clientSaturated, clientSide, reliefBound, saturationText, serverSide } from './cpuShares';
import { serverCpu } from './serverLoad';

/** The busiest thread's event loop busy at least this share of the window, and the process this share of a core per thread. */
export const CLIENT_BUSY_SHARE = 0.85;
/** Open loop: sends late for at most this share keep the client off the hook (as in src/engine/verdicts.ts). */
const CLIENT_LATE_SHARE = 0.01;

export const clientCpu: BottleneckJudge = {
  kind: 'client-cpu',
  description: "RBench's own threads used a full core: the numbers understate the server. Run the client on another machine or give it more threads.",
  judge: (evidence) => {
    const { load, server } = evidence;
    const { health } = load;
    // A thread that waited for a core more than it ran or slept was starved, not busy (client-starved, machine-cpu).
    const side = clientSide(evidence);
    if (side?.starved) return undefined;
    const perThread = health.cpuPercent / 100 / Math.max(1, health.threads);
    // Open loop: a busy client that kept to its schedule was not the limit.
    const onSchedule = health.lateShare !== undefined && health.lateShare <= CLIENT_LATE_SHARE;
    const busy = health.bottleneck === 'client' || ((health.eventLoopUtilization ?? 0) >= CLIENT_BUSY_SHARE && perThread >= CLIENT_BUSY_SHARE && !onSchedule);
    // By the scheduler's accounting: the thread had work (mostly running) past the saturation mark (cpuShares.ts).
    const saturated = clientSaturated(evidence, side) && side!.busy >= (serverSide(evidence)?.busy ?? 0) && !onSchedule;
    const both = bothBusy(evidence);
    if (!busy && !saturated && !both) return undefined;
    const cpu = serverCpu(server);
    const beside = cpu ? `; ${cpu.what} at ${Math.round(cpu.percent)} % of a core beside it` : '';
    const scheduled = side ? `; ${side.text}${saturated ? `, busy at least ${saturationText(evidence)}` : ''}` : '';
    // Both sides busy: the server had little headroom, so the figures understate it by at most the bound.
    if (both)
      return `the client had work nearly all the window (${clientFigures(health)}${scheduled}), and so did the server: ${reliefBound(both.server, 'client')}`;
    return `the client used its CPU to the full (${clientFigures(health)}${beside}${scheduled}): these numbers understate the server — run the client elsewhere or add threads`;
  },
};
