// The panel's short words for a bottleneck verdict (Bottleneck, src/engine/types.ts): the verdict rule's own
// labels (src/results/bottleneck/labels.ts), one table for the CLI, the CSV, compare and the panel.
import type { BottleneckKind } from '../engine';
import { KIND_LABELS } from '../results/bottleneck';

export { verdictLabel, verdictShort } from '../results/bottleneck';

export const VERDICT_LABELS: Readonly<Record<BottleneckKind, string>> = KIND_LABELS;
