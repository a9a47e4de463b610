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

/** Where the header lines (`###`) are: their line numbers and the offsets where they start. */
function findHeaders(text: string): { lines: number[]; offsets: number[] } {
  const lines: number[] = [];
  const offsets: number[] = [];
  // Line breaks are found with indexOf (fast on a large text); a lone `\r` (rare) needs a pattern.
  const loneReturn = /\r(?!\n)/.test(text);
  const breaks = /\r\n|\r|\n/g;
  const nextLine = (from: number): number => {
    if (!loneReturn) {
      const at = text.indexOf('\n', from);
      return at < 0 ? -1 : at + 1;
    }
    breaks.lastIndex = from;
    const match = breaks.exec(text);
    return match ? match.index + match[0].length : -1;
  };
  for (let line = 0, start = 0; start >= 0; line++, start = nextLine(start)) {
    let at = start;
    while (at < text.length && isSpace(text[at])) at++;
    if (text.startsWith('###', at)) {
      lines.push(line);
      offsets.push(start);
    }
  }
  return { lines, offsets };
}

/** The window around document line `line`: the file-level lines, then the lines of its scenario (the first one for a file-level line). */
export function scenarioWindow(text: string, line: number): TextWindow {
  const headers = findHeaders(text);
  // A line above the first header gets the first scenario too: the file must still have one for the
  // line to read as file-level (a file without headers is one implicit scenario).
  let scenario = 0;
  while (scenario + 1 < headers.lines.length && headers.lines[scenario + 1] <= line) scenario++;
  if (headers.lines.length === 0) return { text, toDocument: (windowLine) => windowLine, toWindow: (documentLine) => documentLine };
  const fileEnd = headers.lines[0];
  const scenarioStart = headers.lines[scenario];
  const nextHeader = headers.lines[scenario + 1];
  // Without its last line break: the window's last line is the scenario's last line.
  let end = headers.offsets[scenario + 1] ?? text.length;
  if (nextHeader !== undefined) end -= text.startsWith('\r\n', end - 2) ? 2 : 1;
  const windowText = text.slice(0, headers.offsets[0]) + text.slice(headers.offsets[scenario], end);
  const shift = scenarioStart - fileEnd;
  const scenarioEnd = nextHeader ?? Infinity;
  return {
    text: windowText,
    toDocument: (windowLine) => (windowLine < fileEnd ? windowLine : windowLine + shift),
    toWindow: (documentLine) =>
      documentLine < fileEnd ? documentLine : documentLine >= scenarioStart && documentLine < scenarioEnd ? documentLine - shift : undefined,
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
