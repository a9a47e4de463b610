// What every setting-value reader shares: the expanded text of the line, its words, and reporting a
// wrong value at its range with the expected form (the reader then returns undefined).
import type { Range } from './plan';
import { closest } from './suggest';
import { isRedisCommand } from './commands';
import { ownValue } from '../gates/plainData';
import { replaceFix, type DiagnosticSink } from './diagnostics';
import type { ExpandedText } from './interpolate';
import { isSpace, tokenizeArgs, type ArgLex, type LexProblem } from './lexer';
import type { SettingInfo } from './settings';
import type { UnitResult } from './units';
import { groupDigits } from './numberText';

export interface ValueInput {
  setting: SettingInfo;
  /** The text after the keyword, interpolated. */
  expanded: ExpandedText;
  /** The setting's keyword (its range is computed only for a diagnostic). */
  keyword: { readonly range: Range };
  baseDir?: string;
  sink: DiagnosticSink;
}

/** A slice of the expanded text. */
export interface Span {
  text: string;
  start: number;
  end: number;
}

export class Reader {
  private tokens: ArgLex[] | undefined;
  constructor(readonly input: ValueInput) {
    // Problems in the source line were reported by the parser; substituted text is tokenized now to
    // report its own. Other values are tokenized only when a reader asks for the words.
    if (input.expanded.hasSubstitutions) this.tokenize();
  }

  /** The words of the value. */
  get args(): ArgLex[] {
    return this.tokens ?? this.tokenize();
  }

  private tokenize(): ArgLex[] {
    const { expanded } = this.input;
    const problems: LexProblem[] = [];
    this.tokens = tokenizeArgs(expanded.text, 0, expanded.text.length, false, problems);
    for (const problem of problems) {
      if (expanded.isSubstituted(problem.start, problem.end)) this.fail(problem, problem.message, problem.code);
    }
    return this.tokens;
  }

  get name(): string {
    return this.input.setting.name;
  }

  range(span: { start: number; end: number }): Range {
    return this.input.expanded.range(span.start, span.end);
  }

  fail(span: { start: number; end: number }, message: string, code = 'invalid-value', fixes?: ReturnType<typeof replaceFix>[]): undefined {
    this.input.sink.error(this.range(span), code, message, fixes);
    return undefined;
  }

  missing(): undefined {
    const { setting } = this.input;
    this.input.sink.error(
      this.input.keyword.range,
      'missing-value',
      `\`${setting.name}\` needs a value — write \`${setting.syntax}\`, such as \`${setting.example}\``,
    );
    return undefined;
  }

  /** The single argument, or undefined (reported) when there is none or more than one. */
  one(): ArgLex | undefined {
    if (this.args.length === 0) return this.missing();
    if (this.args.length > 1) {
      const extra = { start: this.args[1].start, end: this.args[this.args.length - 1].end };
      return this.fail(extra, `\`${this.name}\` takes one value — remove \`${this.input.expanded.text.slice(extra.start, extra.end)}\``, 'extra-value');
    }
    return this.args[0];
  }

  /** The whole value text, trimmed. */
  whole(): Span | undefined {
    const text = this.input.expanded.text;
    let start = 0;
    let end = text.length;
    while (start < end && isSpace(text[start])) start++;
    while (end > start && isSpace(text[end - 1])) end--;
    if (start === end) return this.missing();
    return { text: text.slice(start, end), start, end };
  }

  unit(span: { start: number; end: number }, result: UnitResult): number | undefined {
    if (!result.ok) return this.fail(span, `\`${this.name}\`: ${result.message}${this.commandHint()}`);
    return this.bounds(span, result.value);
  }

  bounds(span: { start: number; end: number }, value: number, unit = ''): number | undefined {
    const { min, max } = this.input.setting;
    if (min !== undefined && value < min) return this.fail(span, `\`${this.name}\` must be at least ${min}${unit}`, 'out-of-range');
    if (max !== undefined && value > max) return this.fail(span, `\`${this.name}\` must be at most ${groupDigits(max)}${unit}`, 'out-of-range');
    return value;
  }

  /** A word from a list, with a did-you-mean fix. */
  choice<T extends string>(arg: ArgLex, allowed: readonly T[], aliases: Record<string, T> = {}): T | undefined {
    if ((allowed as readonly string[]).includes(arg.value)) return arg.value as T;
    // Own aliases only: `sweep constructor` suggests nothing, not Object.
    const suggestion = ownValue(aliases, arg.value.toLowerCase()) ?? (this.input.sink.full ? undefined : closest(arg.value, allowed));
    const list = allowed.map((value) => `\`${value}\``).join(', ');
    const fixes = suggestion && !this.input.expanded.isSubstituted(arg.start, arg.end) ? [replaceFix(this.range(arg), suggestion)] : undefined;
    const hint = suggestion ? ` — did you mean \`${suggestion}\`?` : '';
    return this.fail(arg, `\`${this.name}\` takes ${list}, not \`${arg.value}\`${hint}${this.commandHint()}`, 'invalid-value', fixes);
  }

  /** `keys *` was probably meant as the KEYS command. */
  commandHint(): string {
    return isRedisCommand(this.name) ? ` (to send the ${this.name.toUpperCase()} command, write it in upper case)` : '';
  }
}

/** The end of the quoted section starting at `text[start]` (after its closing quote), or `to` when it is not closed. */
export function quotedEnd(text: string, start: number, to: number): number {
  const quote = text[start];
  for (let i = start + 1; i < to; i++) {
    if (text[i] === '\\' && quote === '"') i++;
    else if (text[i] === quote) return i + 1;
  }
  return to;
}

/** Splits `text` on commas into trimmed items with offsets; `quotes`: a comma inside quotes splits nothing. */
export function splitList(text: string, from: number, to: number, quotes = false): Span[] {
  const items: Span[] = [];
  let itemStart = from;
  for (let i = from; i <= to; i++) {
    if (quotes && i < to && (text[i] === '"' || text[i] === "'")) {
      i = quotedEnd(text, i, to) - 1;
      continue;
    }
    if (i === to || text[i] === ',') {
      let start = itemStart;
      let end = i;
      while (start < end && isSpace(text[start])) start++;
      while (end > start && isSpace(text[end - 1])) end--;
      items.push({ text: text.slice(start, end), start, end });
      itemStart = i + 1;
    }
  }
  return items;
}

export function words(span: Span): Span[] {
  const result: Span[] = [];
  const pattern = /\S+/g;
  for (const match of span.text.matchAll(pattern)) {
    const start = span.start + (match.index ?? 0);
    result.push({ text: match[0], start, end: start + match[0].length });
  }
  return result;
}
