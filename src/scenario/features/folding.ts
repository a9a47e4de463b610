// Folding ranges: one per scenario (header to its last non-blank line), one per phase, one per command
// group (`group` to `end`), and one per run of full-line comments (built with the outline, in outline.ts).
import { documentOutline } from './outline';
import type { FoldingRangeData } from './types';

export function foldingRanges(text: string): FoldingRangeData[] {
  return documentOutline(text).folding;
}
