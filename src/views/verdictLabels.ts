// The panel's short words for a bottleneck verdict (Bottleneck, src/engine/types.ts), one per kind. The
// verdict's full wording is src/results/bottleneck's; these are the labels a header line and a table
// cell have room for. A kind this table does not know (a newer run file) is shown as it was written.
import type { Bottleneck, BottleneckKind } from '../engine';
import { ownValue } from '../gates/plainData';

export const VERDICT_LABELS: Record<BottleneckKind, string> = {
  'server-cpu': 'server CPU',
  'client-cpu': 'client CPU',
  'client-starved': 'client starved of CPU',
  'round-trip': 'round trip',
  persistence: 'persistence (fork)',
  memory: 'memory',
  'slow-commands': 'slow commands',
  'foreign-load': 'foreign load',
  stall: 'server stall',
  mixed: 'mixed',
  undetermined: 'undetermined',
};

/** The short label of a kind; an unknown one as it was written (the schema only checks it is text). */
export function verdictLabel(kind: string): string {
  return ownValue(VERDICT_LABELS, kind) ?? kind;
}

/** `server CPU`, or for `mixed` its parts: `mixed: server CPU + persistence (fork)`. */
export function verdictShort(verdict: Pick<Bottleneck, 'kind' | 'parts'>): string {
  const parts = verdict.parts ?? [];
  if (verdict.kind === 'mixed' && parts.length > 0) return `mixed: ${parts.map((part) => verdictLabel(part.kind)).join(' + ')}`;
  return verdictLabel(verdict.kind);
}
