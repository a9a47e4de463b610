// The panel's short words for a bottleneck verdict (Bottleneck, src/engine/types.ts): the labels a header
// line and a table cell have room for, from the verdict rule's table (src/results/bottleneck). A kind this table does not know (a newer run file) is shown as it was written.
import type { Bottleneck, BottleneckKind } from '../engine';
import { ownValue } from '../gates/plainData';
import { KIND_LABELS } from '../results/bottleneck';

/** The short labels are the verdict rule's own (src/results/bottleneck): one table for the CLI, compare and the panel. */
export const VERDICT_LABELS: Readonly<Record<BottleneckKind, string>> = KIND_LABELS;

/** The short label of a kind; an unknown one as it was written (the schema only checks it is text). */
export function verdictLabel(kind: string): string {
  return ownValue(VERDICT_LABELS, kind) ?? kind;
}

/** `server CPU`, or for `mixed` its parts: `mixed: server CPU + persistence`. */
export function verdictShort(verdict: Pick<Bottleneck, 'kind' | 'parts'>): string {
  const parts = verdict.parts ?? [];
  if (verdict.kind === 'mixed' && parts.length > 0) return `mixed: ${parts.map((part) => verdictLabel(part.kind)).join(' + ')}`;
  return verdictLabel(verdict.kind);
}
