// Reading a bottleneck verdict in the tests: its kinds (itself, or a mixed verdict's parts) and one kind's line.
import type { Bottleneck } from '../../src/engine/types';

/** The verdict's kind, or the kinds of a mixed verdict. */
export function kinds(verdict: Bottleneck | undefined): string[] {
  if (!verdict) return [];
  return verdict.parts ? verdict.parts.map((part) => part.kind) : [verdict.kind];
}

/** The `why` of `kind` in the verdict (itself, or its part). */
export function whyOf(verdict: Bottleneck, kind: string): string {
  return verdict.parts?.find((part) => part.kind === kind)?.why ?? verdict.why;
}
