// Formatting `.rbench` files: normalises layout without changing what a file means (the tests check
// that the resolved plans are identical before and after, on the examples and on generated files).
//
// - lines start flush left and lose trailing whitespace, except a command group's lines (between `group`
//   and `end`), indented by two spaces;
// - words of settings, commands, expectations and phases are separated by one space, except inside
//   quotes, inside `{{…}}` / `${…}`, and anywhere after the first interpolation of a line (the
//   substituted text may open a quote, which would make that whitespace part of a value);
// - command names are upper case; `###name` becomes `### name`; `@name=value` becomes `@name = value`
//   (the value itself is kept as written: it is substituted textually, spaces and all);
// - at most one blank line in a row, exactly one before each `###` header, none at the start or end;
// - comments are kept as written, and so is the space before a trailing comment (it is often aligned);
// - lines the parser could not classify are only trimmed.
import type { ArgLex } from '../lexer';
import { tokenizeArgs } from '../lexer';
import { GROUP_INDENT } from '../groups';
import { parseDocument } from '../parser';
import type { DocLine } from '../syntax';
import type { TextEdit } from './types';

export function formatText(text: string): string {
  const doc = parseDocument(text);
  const eol = /\r\n|\r|\n/.exec(text)?.[0] ?? '\n';
  const out: string[] = [];
  let blankPending = false;
  let inGroup = false;
  for (const line of doc.lines) {
    if (line.kind === 'blank') {
      blankPending = out.length > 0;
      continue;
    }
    if (blankPending || (line.kind === 'header' && out.length > 0)) out.push('');
    blankPending = false;
    const groupLine = line.kind === 'setting' ? line.setting.kind : undefined;
    if (groupLine === 'end' || line.kind === 'header' || line.kind === 'phase') inGroup = false;
    out.push((inGroup ? GROUP_INDENT : '') + formatLine(line));
    if (groupLine === 'group') inGroup = true;
  }
  return out.length === 0 ? '' : out.join(eol) + eol;
}

/** One edit replacing the whole text when formatting changes it (the editor narrows it to a minimal diff). */
export function formattingEdits(text: string): TextEdit[] {
  const formatted = formatText(text);
  if (formatted === text) return [];
  const lines = text.split(/\r\n|\r|\n/);
  const last = lines.length - 1;
  return [{ range: { start: { line: 0, character: 0 }, end: { line: last, character: lines[last].length } }, newText: formatted }];
}

function formatLine(line: DocLine): string {
  const trailingComment = line.comment ? line.text.slice(line.contentEnd, line.comment.start) + line.comment.text.trimEnd() : '';
  switch (line.kind) {
    case 'header':
      return line.name ? `### ${line.name}` : '###';
    case 'comment':
      return line.comment!.text.trimEnd();
    case 'variable':
      // A value starting with `#` stays against the `=`: after a space it would become a comment.
      return `@${line.name.text} =${line.value.text && !line.value.text.startsWith('#') ? ' ' : ''}${line.value.text}${trailingComment}`;
    case 'setting':
    case 'expect':
    case 'phase':
    case 'command':
      return spaceWords(line) + trailingComment;
    default:
      return line.text.slice(line.contentStart, line.contentEnd) + trailingComment;
  }
}

/** The line's content with single spaces between its words, where that cannot change a value. */
function spaceWords(line: DocLine): string {
  const { text } = line;
  const words: ArgLex[] = tokenizeArgs(text, line.contentStart, line.contentEnd, false, []);
  const firstInterpolation = line.interpolations[0]?.start ?? Infinity;
  let out = '';
  words.forEach((word, index) => {
    if (index > 0) {
      const gapStart = words[index - 1].end;
      out += gapStart >= firstInterpolation ? text.slice(gapStart, word.start) : ' ';
    }
    const written = text.slice(word.start, word.end);
    out += line.kind === 'command' && word.start === line.command.start ? written.toUpperCase() : written;
  });
  return out;
}
