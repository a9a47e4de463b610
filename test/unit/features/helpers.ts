// Shared helpers for the editor feature tests.
import type { Position } from '../../../src/scenario';

/** Marks the cursor in test texts. */
export const CARET = '‸';

/** The text without its caret, and the caret's position. */
export function withCaret(marked: string): { text: string; position: Position } {
  const offset = marked.indexOf(CARET);
  if (offset < 0 || marked.indexOf(CARET, offset + 1) >= 0) throw new Error(`mark exactly one cursor with ${CARET}`);
  const before = marked.slice(0, offset).split('\n');
  return {
    text: marked.slice(0, offset) + marked.slice(offset + CARET.length),
    position: { line: before.length - 1, character: before[before.length - 1].length },
  };
}

/** Applies non-overlapping single-line-or-not edits to a text (from the last to the first). */
export function applyEdits(text: string, edits: readonly { range: { start: Position; end: Position }; newText: string }[]): string {
  const lineStarts = [0];
  for (const match of text.matchAll(/\r\n|\r|\n/g)) lineStarts.push(match.index! + match[0].length);
  const offset = (position: Position) => lineStarts[position.line] + position.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let result = text;
  for (const edit of sorted) result = result.slice(0, offset(edit.range.start)) + edit.newText + result.slice(offset(edit.range.end));
  return result;
}
