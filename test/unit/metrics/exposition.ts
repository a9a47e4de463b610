// Reading an exposition back in the `--metrics` tests: its samples by name and labels, and a load's position.
import type { LoadPosition } from '../../../src/runner/runScenario';

export const at = (test: string, point = ''): LoadPosition => ({ point, phase: 'load', test, repeat: 0, measured: true, index: 0, total: 1 });

/** `name{labels} value` lines of the exposition, keyed by the part before the value. */
export function samples(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    map.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return map;
}
