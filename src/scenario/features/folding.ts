// Folding ranges: one per scenario (header to its last non-blank line), one per phase, one per command
// group (`group` to `end`), and one per run of full-line comments.
import { groupBlocks } from '../groups';
import { parseDocument } from '../parser';
import type { Range } from '../plan';
import { blockRange, phaseBlocks } from './locate';
import type { FoldingRangeData } from './types';

export function foldingRanges(text: string): FoldingRangeData[] {
  const doc = parseDocument(text);
  const ranges: FoldingRangeData[] = [];
  const add = (start: number, end: number, kind?: FoldingRangeData['kind']) => {
    if (end > start) ranges.push(kind ? { start, end, kind } : { start, end });
  };
  const addBlock = (range: Range) => add(range.start.line, range.end.line);
  for (const scenario of doc.scenarios) {
    if (scenario.header) addBlock(blockRange(scenario.header.range, scenario.lines));
    for (const { line, lines } of phaseBlocks(scenario)) addBlock(blockRange(line.range, lines));
    for (const group of groupBlocks(scenario.lines)) add(group.line.line, group.end.line);
  }
  let commentsFrom: number | undefined;
  doc.lines.forEach((line, index) => {
    if (line.kind === 'comment') commentsFrom ??= index;
    else if (commentsFrom !== undefined) {
      add(commentsFrom, index - 1, 'comment');
      commentsFrom = undefined;
    }
  });
  if (commentsFrom !== undefined) add(commentsFrom, doc.lines.length - 1, 'comment');
  return ranges.sort((a, b) => a.start - b.start || b.end - a.end);
}
