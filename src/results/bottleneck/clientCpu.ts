// client-cpu: the engine itself was the limit (src/engine/verdicts.ts's rule, health.bottleneck), so the
// figures understate the server.
import type { BottleneckJudge } from './judge';
import { clientFigures } from './clientLoad';

export const clientCpu: BottleneckJudge = {
  kind: 'client-cpu',
  description: "RBench's own threads used a full core: the numbers understate the server. Run the client on another machine or give it more threads.",
  judge: ({ load }) =>
    load.health.bottleneck === 'client'
      ? `the client used its CPU to the full (${clientFigures(load.health)}): these numbers understate the server — run the client elsewhere or add threads`
      : undefined,
};
