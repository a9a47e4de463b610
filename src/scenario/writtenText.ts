// The pieces of `.rbench` text the scenario writer (writer.ts) puts text a stranger chose into: a comment
// or title line, and an argument. Also for a quick fix that edits one token. No parser here: the lexer's
// rules are what these follow, and writer.ts checks the result by parsing it back.
import { DRAW_PLACEHOLDER } from './draws';

/** A model the writer cannot put into a file as it is meant; the message names the part and why. */
export class ScenarioWriteError extends Error {}

/**
 * What no written file holds outside the line feeds it is made of: controls (C0, DEL, C1 with NEL), format
 * characters (bidi embeddings, overrides, isolates and marks, U+061C, zero widths, BOM), line and paragraph
 * separators, lone surrogates. Some viewers break lines at them, others reorder or hide text with them.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
const UNSAFE_ONE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

const codePoint = (char: string) => (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');

/** `U+XXXX` of the first character of `text` no file may hold, if any. */
export function unsafeCharacter(text: string): string | undefined {
  const found = UNSAFE_ONE.exec(text);
  return found ? `U+${codePoint(found[0])}` : undefined;
}

/**
 * Text for a comment or a header: one line, every unsafe character as a visible `\uXXXX` (as the terminal
 * copy shows it, src/gates/output.ts), trailing spaces dropped (the formatter drops them too).
 */
export function lineText(text: string): string {
  return text.replace(UNSAFE, (char) => `\\u${codePoint(char).toLowerCase()}`).trimEnd();
}

/** A word written bare reads back as itself: no quote, escape, comment, interpolation, group or space. */
const BARE = /^[A-Za-z0-9_:./|{}@=,;%+*!?~^&<>[\]-]+$/;
/** `*N` at a word's end is repetition, `{{`/`${` interpolation (also inside quotes: they are escaped there). */
const BARE_REFUSED = /\*\d[0-9A-Za-z_./]*$|\{\{|\$\{/;

/**
 * True when `value` written without quotes reads back as itself, as one word. A drawn number's parentheses
 * (`__rand(1..1000)__`) are inside a word, where the lexer reads them as text: the placeholder stays bare.
 */
export const isBareWord = (value: string): boolean =>
  (BARE.test(value) || (value.includes(')__') && BARE.test(value.replace(DRAW_PLACEHOLDER, 'x')))) && !BARE_REFUSED.test(value);
/** In double quotes: what is escaped as `\xHH` (the lexer decodes two hex digits, so only up to U+00FF). */
// eslint-disable-next-line no-control-regex -- the point is to escape them
const QUOTE_ESCAPED = /[\x00-\x1f\x7f-\xa0\xad"\\{$]/g;
const NAMED: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * One argument as the lexer reads it back: bare when it is plain, else in double quotes with `\"`, `\\`,
 * `\n`, `\r`, `\t` and `\xHH` (also for `{` and `$`, which would interpolate even inside quotes). A character
 * above U+00FF that no file may hold (a bidi override, U+2028) has no escape in the language: refused, with
 * `what` naming the argument in the message.
 */
export function scenarioToken(value: string, what = 'an argument'): string {
  if (isBareWord(value)) return value;
  const unsafe = unsafeCharacter(value.replace(QUOTE_ESCAPED, ''));
  if (unsafe)
    throw new ScenarioWriteError(
      `${what} holds ${unsafe}, a character a scenario file cannot hold safely (no escape writes it, and written as it is it hides or reorders text): remove it`,
    );
  return `"${value.replace(QUOTE_ESCAPED, (char) => NAMED[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`)}"`;
}

const COMMAND_NAME = /^[A-Za-z][A-Za-z0-9_.|-]*$/;

/** True for a command name the writer puts on a line as it is (command names are never quoted). */
export const isPlainCommandName = (name: string): boolean => COMMAND_NAME.test(name);

/** scenarioToken's text, or undefined for a value no file can hold (a quick fix then offers nothing). */
export function writableToken(value: string): string | undefined {
  try {
    return scenarioToken(value);
  } catch (error) {
    if (error instanceof ScenarioWriteError) return undefined;
    throw error;
  }
}
