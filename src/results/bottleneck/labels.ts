// The verdict's short label, one table for every place that has room for a word or two and not a sentence:
// the CLI's `limit` column and brief lines, the CSV, compare and the panel. The sentence (`why`) says the rest.
import type { Bottleneck, BottleneckKind } from '../../engine';
import { ownValue } from '../../gates/plainData';

/** Short names for headers, table cells and `--brief` lines. */
export const KIND_LABELS: Record<BottleneckKind, string> = {
  'server-cpu': 'server CPU',
  'client-cpu': 'client CPU',
  'client-starved': 'client starved of CPU',
  'machine-cpu': 'machine CPU (both starved)',
  'round-trip': 'round trip',
  persistence: 'persistence',
  memory: 'memory',
  'slow-commands': 'slow commands',
  'foreign-load': 'foreign load',
  stall: 'server stall',
  network: 'network (loss)',
  'late-sends': 'late sends (open loop)',
  mixed: 'mixed',
  undetermined: 'undetermined',
};

/** The short label of a kind; an unknown one (a newer run file: the schema only checks it is text) as it was written. */
export function verdictLabel(kind: string): string {
  return ownValue(KIND_LABELS, kind) ?? kind;
}

/** `server CPU`, or for `mixed` its parts: `mixed: server CPU + persistence`. */
export function verdictShort(verdict: Pick<Bottleneck, 'kind' | 'parts'>): string {
  const parts = verdict.parts ?? [];
  if (verdict.kind === 'mixed' && parts.length > 0) return `mixed: ${parts.map((part) => verdictLabel(part.kind)).join(' + ')}`;
  return verdictLabel(verdict.kind);
}
