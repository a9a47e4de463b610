// Quick fixes: the fixes the parser and resolver attach to their diagnostics (did-you-mean, removing
// a password from a URL, adding `redis://`), plus the ones that are certain from the document alone
// and that the resolver does not attach (see `addedFixes`).
import { replaceFix } from '../diagnostics';
import { parseDocument } from '../parser';
import type { DocLine, ScenarioDocument } from '../syntax';
import type { Diagnostic, Range, TextFix } from '../plan';
import { checkDiagnostics } from '../check';
import { isPlainCommandName } from '../writer';
import { unitSuggestions, unknownUnitFamily } from '../units';
import { lineContext, scenarioAt } from './locate';
import type { CodeActionData } from './types';

export interface QuickFixOptions {
  /** The environment the diagnostics were computed with (the editor uses its process environment). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The file's folder, for relative TLS file paths. */
  baseDir?: string;
}

/** Quick fixes for the diagnostics touching `range` (usually the cursor or a selection). */
export function codeActions(text: string, range: Range, options: QuickFixOptions = {}): CodeActionData[] {
  const doc = parseDocument(text);
  // The whole check (the command table's warnings too: an unknown command's suggestion is a fix).
  const diagnostics = checkDiagnostics(text, { env: { ...options.env }, baseDir: options.baseDir });
  const actions: CodeActionData[] = [];
  for (const diagnostic of diagnostics) {
    if (!overlaps(diagnostic.range, range)) continue;
    const fixes = [...(diagnostic.fixes ?? []), ...addedFixes(doc, diagnostic)];
    for (const fix of fixes) {
      actions.push({ title: fix.title, diagnostic, edits: [{ range: fix.range, newText: fix.newText }], preferred: fixes.length === 1 });
    }
  }
  return actions;
}

function before(a: Range['start'], b: Range['start']): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** Touching counts: a cursor right after a word is "on" it. */
function overlaps(a: Range, b: Range): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}

export const REDIS_PASSWORD_ENV = 'REDIS_PASSWORD';

function addedFixes(doc: ScenarioDocument, diagnostic: Diagnostic): TextFix[] {
  if (diagnostic.fixes) return [];
  const { range } = diagnostic;
  const line = doc.lines[range.start.line];
  if (!line) return [];
  const at = range.start.character;
  switch (diagnostic.code) {
    case 'literal-password':
      // `password hunter2`: the value must name where the password comes from.
      if (line.kind !== 'setting' || line.setting.name !== 'password') return [];
      return [
        replaceFix(range, `env:${REDIS_PASSWORD_ENV}`, `Read the password from the environment variable ${REDIS_PASSWORD_ENV}`),
        replaceFix(range, 'secret', "Read the password from the editor's secret storage"),
      ];
    case 'unterminated-quote': {
      const quote = line.text[at];
      if (quote !== '"' && quote !== "'") return [];
      return [replaceFix(collapsed(range.end), quote, `Close the quote with ${quote}`)];
    }
    case 'unterminated-variable': {
      const name = /^\s*[A-Za-z_][A-Za-z0-9_.-]*/.exec(line.text.slice(at + 2))?.[0];
      if (!line.text.startsWith('{{', at) || !name) return [];
      return [replaceFix(collapsed({ line: line.line, character: at + 2 + name.length }), '}}', `Close {{${name.trim()}}}`)];
    }
    case 'unterminated-env': {
      const inner = /^env:[A-Za-z_][A-Za-z0-9_]*/.exec(line.text.slice(at + 2))?.[0];
      if (!line.text.startsWith('${', at) || !inner) return [];
      // With a `:-` default, where the default ends is not certain: no fix then.
      if (line.text.startsWith(':-', at + 2 + inner.length)) return [];
      return [replaceFix(collapsed({ line: line.line, character: at + 2 + inner.length }), '}', `Close \${${inner}}`)];
    }
    case 'duplicate-setting': {
      // The last one wins, so removing the earlier one keeps what the file means.
      if (line.kind !== 'setting') return [];
      const earlier = lineContext(doc, line.line).section.filter(
        (candidate) => candidate.kind === 'setting' && candidate.setting === line.setting && candidate.line < line.line,
      );
      return earlier.length > 0 ? [removeLine(doc, earlier[earlier.length - 1], 'Remove the earlier')] : [];
    }
    case 'duplicate-variable': {
      if (line.kind !== 'variable') return [];
      const scope = doc.fileLines.includes(line) ? doc.fileLines : (scenarioAt(doc, line.line)?.lines ?? []);
      const earlier = scope.filter((candidate) => candidate.kind === 'variable' && candidate.name.text === line.name.text && candidate.line < line.line);
      return earlier.length > 0 ? [removeLine(doc, earlier[earlier.length - 1], 'Remove the earlier')] : [];
    }
    case 'managed-directive':
    case 'unsafe-directive':
      return [removeLine(doc, line, 'Remove')];
    case 'invalid-value': {
      // `value 10QB`: the number with the nearest known unit.
      const family = unknownUnitFamily(diagnostic.message);
      if (!family || range.start.line !== range.end.line) return [];
      const written = line.text.slice(at, range.end.character);
      return unitSuggestions(written, family).map((fixed) => replaceFix(range, fixed, `Change ${written} to ${fixed}`));
    }
    case 'unknown-command': {
      // `GTE k`: the command the checker suggests, in the name's place (a weight or arguments stay as written).
      const name = /^`([^`]+)`/.exec(diagnostic.message)?.[1];
      const suggestion = /did you mean `([^`]+)`\?/.exec(diagnostic.message)?.[1];
      // The suggestion may come from a server's command table: only a plain command name goes into the line.
      if (!name || !suggestion || !isPlainCommandName(suggestion) || range.start.line !== range.end.line) return [];
      const written = line.text.slice(at, range.end.character);
      const offset = written.search(new RegExp(`(^|\\s)${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`, 'i'));
      if (offset < 0) return [];
      const start = at + offset + (/\s/.test(written[offset]) ? 1 : 0);
      return [
        replaceFix(
          { start: { line: line.line, character: start }, end: { line: line.line, character: start + name.length } },
          suggestion,
          `Change ${name} to ${suggestion}`,
        ),
      ];
    }
    default:
      return [];
  }
}

function collapsed(position: Range['start']): Range {
  return { start: position, end: position };
}

/** Deletes a whole line with its line break: `Remove the earlier \`pipeline 10\` (line 3)`. */
function removeLine(doc: ScenarioDocument, line: DocLine, verb: string): TextFix {
  const next = doc.lines[line.line + 1];
  const previous = doc.lines[line.line - 1];
  // The last line takes the line break before it instead.
  const range: Range = next
    ? { start: { line: line.line, character: 0 }, end: { line: line.line + 1, character: 0 } }
    : { start: previous ? previous.range.end : { line: line.line, character: 0 }, end: line.range.end };
  const shown = line.text.slice(line.contentStart, line.contentEnd);
  return { title: `${verb} \`${shown}\` (line ${line.line + 1})`, range, newText: '' };
}
