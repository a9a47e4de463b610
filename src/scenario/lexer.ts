// Character-level reading of `.rbench` lines: line splitting, trailing comments, `{{var}}` and
// `${env:…}` references, and argument tokens (quotes, escapes, `*N` repetition, `( … )*N` groups).
// Everything works on character offsets within one line and runs in linear time; callers turn
// offsets into ranges (the parser on source lines, the resolver on interpolated text).
import { DIAGNOSTIC_LIMIT } from './diagnostics';

export interface LexProblem {
  start: number;
  end: number;
  code: string;
  message: string;
}

/** Splits on `\r\n`, `\n` or `\r`; the line texts exclude the line break. */
export function splitLines(text: string): string[] {
  // Splitting at one character is much faster than at a pattern, and most files have no `\r`.
  return text.includes('\r') ? text.split(/\r\n|\r|\n/) : text.split('\n');
}

export function isSpace(char: string): boolean {
  return char === ' ' || char === '\t' || char === '\f' || char === '\v' || char === '\u00a0' || char === '\ufeff';
}

export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface InterpolationRef {
  kind: 'variable' | 'env';
  /** The whole `{{…}}` or `${…}`. */
  start: number;
  end: number;
  name: string;
  nameStart: number;
  nameEnd: number;
  /** `${env:NAME:-default}`: the default text. */
  defaultValue?: string;
}

export interface LineScan {
  /** First non-space character. */
  contentStart: number;
  /** End of the content: before a trailing comment, trailing spaces trimmed. */
  contentEnd: number;
  /** Where a trailing ` # comment` starts. */
  commentStart?: number;
  interpolations: InterpolationRef[];
  /** At most `LINE_PROBLEM_LIMIT`; the rest are only counted in `moreProblems`. */
  problems: LexProblem[];
  moreProblems: number;
}

/**
 * Problems a line lists, at most: no more are shown for a whole file, and a line of a million bad
 * markers must not make a million objects nobody reads. The parser counts the rest as dropped,
 * which holds because the listed ones, all at different places, fill the file's list.
 */
export const LINE_PROBLEM_LIMIT = DIAGNOSTIC_LIMIT;

/**
 * Finds the content of a line (without a trailing comment) and its interpolations. A `#` starts a
 * comment at the beginning of the content or after a space, outside quotes and interpolations.
 * After an unterminated `{{` or `${` the rest of the line is literal text.
 */
export function scanLine(text: string, from = 0): LineScan {
  // Most lines have no interpolation: they share the empty lists (frozen, so a push fails loudly).
  let interpolations = NO_REFS;
  let problems = NO_PROBLEMS;
  const length = text.length;
  let contentStart = from;
  while (contentStart < length && isSpace(text[contentStart])) contentStart++;
  let commentStart: number | undefined;
  let quote = '';
  let interpolating = true;
  // The closing `}}` / `}` each reference searches for: reused while it lies ahead, so a line of a
  // million `{{` searches once, not a million times.
  const state: LineState = { variableClose: -1, envClose: -1, moreProblems: 0 };
  let i = contentStart;
  while (i < length) {
    const char = text[i];
    if (interpolating && (char === '{' || char === '$') && text[i + 1] === '{') {
      if (interpolations === NO_REFS) {
        interpolations = [];
        problems = [];
      }
      const ref = char === '{' ? readVariableRef(text, i, problems, state) : readEnvRef(text, i, problems, state);
      if (ref === 'unterminated') {
        interpolating = false;
        i += 2;
        continue;
      }
      if (ref) interpolations.push(ref.ref);
      i = ref ? ref.ref.end : i + 2;
      continue;
    }
    if (quote === '') {
      if (char === '"' || char === "'") quote = char;
      else if (char === '#' && (i === contentStart || isSpace(text[i - 1]))) {
        commentStart = i;
        break;
      }
    } else if (quote === '"') {
      if (char === '\\') {
        i += 2;
        continue;
      }
      if (char === '"') quote = '';
    } else if (char === "'") {
      quote = '';
    }
    i++;
  }
  let contentEnd = commentStart ?? length;
  while (contentEnd > contentStart && isSpace(text[contentEnd - 1])) contentEnd--;
  return { contentStart, contentEnd, commentStart, interpolations, problems, moreProblems: state.moreProblems };
}

const NO_REFS = Object.freeze([]) as unknown as InterpolationRef[];
const NO_PROBLEMS = Object.freeze([]) as unknown as LexProblem[];

type RefResult = { ref: InterpolationRef } | 'unterminated' | undefined;

/** What the reference readers keep over a line. */
interface LineState {
  /** The closing `}}` / `}` found by the last search: -1 before the first, -2 when there is none. */
  variableClose: number;
  envClose: number;
  /** Problems past `LINE_PROBLEM_LIMIT`. */
  moreProblems: number;
}

/** Adds the problem `make` describes, or only counts it once the line has listed its share. */
function addProblem(problems: LexProblem[], state: LineState, make: () => LexProblem): void {
  if (problems.length >= LINE_PROBLEM_LIMIT) state.moreProblems++;
  else problems.push(make());
}

/** Messages quote at most this much of a bad reference: a hostile line's problems stay small. */
export const QUOTE_LIMIT = 40;

/** `text[from, to)` for a message, cut to `QUOTE_LIMIT` characters with `…`. */
export function quoteText(text: string, from: number, to: number): string {
  return to - from > QUOTE_LIMIT ? `${text.slice(from, from + QUOTE_LIMIT)}…` : text.slice(from, to);
}

const NAME_START = /[A-Za-z_]/;
const VARIABLE_CHAR = /[A-Za-z0-9_.-]/;
const ENV_CHAR = /[A-Za-z0-9_]/;
const TRIMMED = /\s/;

/** The end of a run of `allowed` characters (the first one also `first`) from `at`, before `to`. */
function nameEnd(text: string, at: number, to: number, allowed: RegExp): number {
  if (at >= to || !NAME_START.test(text[at])) return at;
  let end = at + 1;
  while (end < to && allowed.test(text[end])) end++;
  return end;
}

/** The first `mark` at or after `from`, reusing the last search while its result lies ahead. */
function closeAt(text: string, mark: '}}' | '}', from: number, state: LineState): number {
  const kind = mark === '}}' ? 'variableClose' : 'envClose';
  // Once a search found none, none lies further on either.
  if (state[kind] === -2) return -1;
  if (state[kind] < from) state[kind] = text.indexOf(mark, from);
  if (state[kind] < 0) {
    state[kind] = -2;
    return -1;
  }
  return state[kind];
}

// Both readers look only at the reference's own name (never slice or search past it), so a line
// of nested or unclosed markers costs time in proportion to its length.
function readVariableRef(text: string, start: number, problems: LexProblem[], state: LineState): RefResult {
  const close = closeAt(text, '}}', start + 2, state);
  if (close < 0) {
    addProblem(problems, state, () => ({
      start,
      end: text.length,
      code: 'unterminated-variable',
      message: 'unterminated `{{` — close it with `}}`: `{{name}}`',
    }));
    return 'unterminated';
  }
  const end = close + 2;
  let nameStart = start + 2;
  // Spaces around the name as `trim()` sees them.
  while (nameStart < close && TRIMMED.test(text[nameStart])) nameStart++;
  const nameStop = nameEnd(text, nameStart, close, VARIABLE_CHAR);
  let after = nameStop;
  while (after < close && TRIMMED.test(text[after])) after++;
  if (nameStop === nameStart || after < close) {
    addProblem(problems, state, () => {
      // The name as written, trimmed (only a bounded part of it is quoted).
      let last = close;
      if (close - nameStart <= QUOTE_LIMIT) while (last > nameStart && TRIMMED.test(text[last - 1])) last--;
      return {
        start,
        end,
        code: 'invalid-variable-name',
        message:
          last > nameStart
            ? `\`${quoteText(text, nameStart, last)}\` is not a variable name — names are letters, digits, \`_\`, \`-\` and \`.\`, starting with a letter or \`_\``
            : 'empty `{{}}` — write a variable name inside: `{{name}}`',
      };
    });
    return undefined;
  }
  return { ref: { kind: 'variable', start, end, name: text.slice(nameStart, nameStop), nameStart, nameEnd: nameStop } };
}

function readEnvRef(text: string, start: number, problems: LexProblem[], state: LineState): RefResult {
  const close = closeAt(text, '}', start + 2, state);
  if (close < 0) {
    addProblem(problems, state, () => ({ start, end: text.length, code: 'unterminated-env', message: 'unterminated `${` — close it with `}`: `${env:NAME}`' }));
    return 'unterminated';
  }
  const end = close + 1;
  if (close < start + 6 || !text.startsWith('env:', start + 2)) {
    addProblem(problems, state, () => ({
      start,
      end,
      code: 'unknown-interpolation',
      message: `\`\${${quoteText(text, start + 2, close)}}\` is not supported — write \`\${env:NAME}\` or \`\${env:NAME:-default}\``,
    }));
    return undefined;
  }
  const nameStart = start + 2 + 4;
  const nameStop = nameEnd(text, nameStart, close, ENV_CHAR);
  const hasDefault = nameStop + 1 < close && text[nameStop] === ':' && text[nameStop + 1] === '-';
  if (nameStop === nameStart || (nameStop < close && !hasDefault)) {
    addProblem(problems, state, () => {
      // The name is what comes before the first `:-` (looked for within the quoted part only).
      const shown = Math.min(close, nameStart + QUOTE_LIMIT + 1);
      const dash = text.slice(nameStart, shown).indexOf(':-');
      return {
        start,
        end,
        code: 'invalid-env-name',
        message: `\`${quoteText(text, nameStart, dash < 0 ? close : nameStart + dash)}\` is not an environment variable name — write letters, digits and \`_\`: \`\${env:NAME}\``,
      };
    });
    return undefined;
  }
  const ref: InterpolationRef = { kind: 'env', start, end, name: text.slice(nameStart, nameStop), nameStart, nameEnd: nameStop };
  if (hasDefault) ref.defaultValue = text.slice(nameStop + 2, close);
  return { ref };
}

export interface ArgLex {
  kind: 'word' | 'group-open' | 'group-close';
  start: number;
  end: number;
  /** The argument after removing quotes and escapes (and a `*N` suffix). */
  value: string;
  quoted: boolean;
  /** The `N` of a `*N` suffix, for words and group closes. */
  repeat?: { start: number; end: number; text: string };
}

const REPEAT_SUFFIX = /\*(\d[0-9A-Za-z_./]*)$/;
const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

/**
 * Splits `text[from, to)` into arguments. With `groups`, an unquoted `(` opening a word, a `)`
 * closing one (optionally followed by `*N`) and a `*N` suffix after a word are structure; without,
 * they are ordinary characters.
 */
export function tokenizeArgs(text: string, from: number, to: number, groups: boolean, problems: LexProblem[], maxTokens = Infinity): ArgLex[] {
  const tokens: ArgLex[] = [];
  let i = from;
  while (i < to && tokens.length < maxTokens) {
    while (i < to && isSpace(text[i])) i++;
    if (i >= to) break;
    if (groups && text[i] === '(') {
      tokens.push({ kind: 'group-open', start: i, end: i + 1, value: '(', quoted: false });
      i++;
      continue;
    }
    const start = i;
    let chunks: string[] | undefined;
    let quoted = false;
    let star = -1; // the last `*` of the word, for a `*N` suffix
    let unquotedFrom = start; // start of the current unquoted run
    let tailFrom = start; // where the trailing unquoted part of the word begins
    let close: ArgLex | undefined;
    while (i < to && !isSpace(text[i])) {
      const char = text[i];
      if (char === '"' || char === "'") {
        chunks ??= [];
        if (i > unquotedFrom) chunks.push(text.slice(unquotedFrom, i));
        quoted = true;
        i = readQuoted(text, i, to, chunks, problems);
        unquotedFrom = i;
        tailFrom = i;
        continue;
      }
      if (groups && char === ')') {
        close = readGroupClose(text, i, to);
        if (close) break;
      }
      if (char === '*') star = i;
      i++;
    }
    const wordEnd = close ? close.start : i;
    if (wordEnd > start) {
      // Most words have no quotes: their value is a plain slice.
      let value: string;
      if (chunks) {
        if (wordEnd > unquotedFrom) chunks.push(text.slice(unquotedFrom, wordEnd));
        value = chunks.join('');
      } else {
        value = text.slice(start, wordEnd);
      }
      const word: ArgLex = { kind: 'word', start, end: wordEnd, value, quoted };
      if (groups && star >= tailFrom) {
        const tail = text.slice(tailFrom, wordEnd);
        const suffix = REPEAT_SUFFIX.exec(tail);
        // `*5` alone is a literal; the suffix needs something to repeat.
        if (suffix && (suffix.index > 0 || tailFrom > start)) {
          word.repeat = { start: tailFrom + suffix.index + 1, end: wordEnd, text: suffix[1] };
          word.value = word.value.slice(0, word.value.length - suffix[0].length);
        }
      }
      tokens.push(word);
    }
    if (close) {
      tokens.push(close);
      i = close.end;
    }
  }
  return tokens;
}

/** A `)` ending a word, optionally followed by `*N`, closes a group; otherwise it is literal. */
function readGroupClose(text: string, at: number, to: number): ArgLex | undefined {
  let end = at + 1;
  if (end < to && text[end] === '*') {
    end++;
    if (end >= to || !/[0-9]/.test(text[end])) return undefined;
    while (end < to && /[0-9A-Za-z_./]/.test(text[end])) end++;
  }
  if (end < to && !isSpace(text[end])) return undefined;
  const close: ArgLex = { kind: 'group-close', start: at, end, value: ')', quoted: false };
  if (end > at + 1) close.repeat = { start: at + 2, end, text: text.slice(at + 2, end) };
  return close;
}

/** Reads a quoted section starting at `text[start]`; returns the offset after the closing quote. */
function readQuoted(text: string, start: number, to: number, chunks: string[], problems: LexProblem[]): number {
  const quote = text[start];
  let i = start + 1;
  let runFrom = i;
  while (i < to && text[i] !== quote) {
    if (quote === '"' && text[i] === '\\' && i + 1 < to) {
      if (i > runFrom) chunks.push(text.slice(runFrom, i));
      const next = text[i + 1];
      const hex = next === 'x' ? /^[0-9A-Fa-f]{2}$/.exec(text.slice(i + 2, i + 4)) : null;
      if (hex) {
        chunks.push(String.fromCharCode(parseInt(hex[0], 16)));
        i += 4;
      } else {
        // An unknown escape keeps its backslash, as redis-cli does.
        chunks.push(ESCAPES[next] ?? '\\' + next);
        i += 2;
      }
      runFrom = i;
      continue;
    }
    i++;
  }
  if (i > runFrom) chunks.push(text.slice(runFrom, i));
  if (i >= to) {
    problems.push({
      start,
      end: to,
      code: 'unterminated-quote',
      message: `unterminated ${quote === '"' ? 'double' : 'single'} quote — add the closing \`${quote}\``,
    });
    return to;
  }
  return i + 1;
}
