// The part of a large document that a feature at one line needs: the file-level lines (before the
// first header) and the scenario holding the line. Completion, hover and quick fixes read the
// window instead of the whole text, so a keystroke in a 10 MB file parses a few lines, not 700,000.
import { isSpace } from '../lexer';
import type { Range } from '../plan';
import type { CodeActionData } from './types';

export interface TextWindow {
  text: string;
  /** The document line of a window line. */
  toDocument(line: number): number;
  /** The window line of a document line; undefined outside the window. */
  toWindow(line: number): number | undefined;
}

const LINE_BREAK = /\r\n|\r|\n/g;

/** Offsets where the lines start, and which lines are headers (`###`). */
function lineStarts(text: string): { starts: number[]; headers: number[] } {
  const starts = [0];
  const headers: number[] = [];
  const isHeader = (from: number) => {
    while (from < text.length && isSpace(text[from])) from++;
    return text.startsWith('###', from);
  };
  if (isHeader(0)) headers.push(0);
  LINE_BREAK.lastIndex = 0;
  for (let match = LINE_BREAK.exec(text); match; match = LINE_BREAK.exec(text)) {
    const start = match.index + match[0].length;
    if (isHeader(start)) headers.push(starts.length);
    starts.push(start);
  }
  return { starts, headers };
}

/** The window around document line `line`: the file-level lines, then the lines of its scenario (the first one for a file-level line). */
export function scenarioWindow(text: string, line: number): TextWindow {
  const { starts, headers } = lineStarts(text);
  const fileEnd = headers[0] ?? starts.length; // first line after the file-level lines
  // A line above the first header gets the first scenario too: the file must still have one for the
  // line to read as file-level (a file without headers is one implicit scenario).
  let scenarioStart = fileEnd;
  let scenarioEnd = headers.length > 0 ? (headers[1] ?? starts.length) : fileEnd;
  for (let i = 0; i < headers.length; i++) {
    if (headers[i] > line) break;
    scenarioStart = headers[i];
    scenarioEnd = headers[i + 1] ?? starts.length;
  }
  /** Lines [from, to) with the line break after each, but the last one's only when `keepLastBreak`. */
  const slice = (from: number, to: number, keepLastBreak: boolean) => {
    if (from >= to) return '';
    let end = to < starts.length ? starts[to] : text.length;
    if (!keepLastBreak && to < starts.length) end -= text.startsWith('\r\n', end - 2) ? 2 : 1;
    return text.slice(starts[from], end);
  };
  const windowText = slice(0, fileEnd, scenarioEnd > scenarioStart) + slice(scenarioStart, scenarioEnd, false);
  const shift = scenarioStart - fileEnd;
  return {
    text: windowText,
    toDocument: (windowLine) => (windowLine < fileEnd ? windowLine : windowLine + shift),
    toWindow: (documentLine) => (documentLine < fileEnd ? documentLine : documentLine >= scenarioStart && documentLine < scenarioEnd ? documentLine - shift : undefined),
  };
}

/** A window range as a document range. */
export function documentRange(range: Range, window: TextWindow): Range {
  return {
    start: { line: window.toDocument(range.start.line), character: range.start.character },
    end: { line: window.toDocument(range.end.line), character: range.end.character },
  };
}

/** A quick fix found in a window, with its ranges (and its diagnostic's) in the document. */
export function documentCodeAction(action: CodeActionData, toDocument: (range: Range) => Range): CodeActionData {
  const { diagnostic } = action;
  const mapped = { ...diagnostic, range: toDocument(diagnostic.range) };
  if (diagnostic.fixes) mapped.fixes = diagnostic.fixes.map((fix) => ({ ...fix, range: toDocument(fix.range) }));
  return { ...action, diagnostic: mapped, edits: action.edits.map((edit) => ({ ...edit, range: toDocument(edit.range) })) };
}
