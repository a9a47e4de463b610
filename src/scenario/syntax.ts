// The `.rbench` document tree: tokens with their exact ranges, one node type per kind of line, and the
// scenarios and document that hold them. src/scenario/parser.ts builds it (its nodes are the lazy classes of
// lineNodes.ts); the resolver and the editor features read it.
import type { ArgLex, InterpolationRef } from './lexer';
import type { Diagnostic, Range } from './plan';
import { rangeOf } from './diagnostics';
import type { SettingInfo } from './settings';

/**
 * A piece of a line: its source text, character offsets and range. Text and range are computed on
 * demand: a large file has millions of tokens, and most are never looked at.
 */
export class Token {
  // Assigned, not declared with initializers (see LineNode): tokens are made by the million.
  declare readonly line: number;
  declare protected readonly lineText: string;
  declare readonly start: number;
  declare readonly end: number;

  constructor(line: number, lineText: string, start: number, end: number) {
    this.line = line;
    this.lineText = lineText;
    this.start = start;
    this.end = end;
  }

  get text(): string {
    return this.lineText.slice(this.start, this.end);
  }

  get range(): Range {
    return rangeOf(this.line, this.start, this.end);
  }
}

export class ArgToken extends Token {
  declare readonly kind: ArgLex['kind'];
  /** Unquoted, unescaped text. */
  declare readonly value: string;
  declare readonly quoted: boolean;
  /** The `N` of `*N`. */
  declare readonly repeat?: Token;

  constructor(line: number, lineText: string, lex: ArgLex) {
    super(line, lineText, lex.start, lex.end);
    this.kind = lex.kind;
    this.value = lex.value;
    this.quoted = lex.quoted;
    this.repeat = lex.repeat ? new Token(line, lineText, lex.repeat.start, lex.repeat.end) : undefined;
  }
}

/** A `{{name}}` or `${env:NAME}` reference in a line. */
export class Interpolation {
  readonly kind: InterpolationRef['kind'];
  readonly start: number;
  readonly end: number;
  readonly name: string;
  readonly nameStart: number;
  readonly nameEnd: number;
  readonly defaultValue?: string;

  constructor(
    readonly line: number,
    ref: InterpolationRef,
  ) {
    this.kind = ref.kind;
    this.start = ref.start;
    this.end = ref.end;
    this.name = ref.name;
    this.nameStart = ref.nameStart;
    this.nameEnd = ref.nameEnd;
    if (ref.defaultValue !== undefined) this.defaultValue = ref.defaultValue;
  }

  get range(): Range {
    return rangeOf(this.line, this.start, this.end);
  }

  get nameRange(): Range {
    return rangeOf(this.line, this.nameStart, this.nameEnd);
  }
}

export interface LineBase {
  kind: DocLine['kind'];
  line: number;
  range: Range;
  text: string;
  contentStart: number;
  contentEnd: number;
  comment?: Token;
  interpolations: readonly Interpolation[];
}

export interface BlankLine extends LineBase {
  kind: 'blank';
}
export interface CommentLine extends LineBase {
  kind: 'comment';
}
export interface HeaderLine extends LineBase {
  kind: 'header';
  /** Trimmed text after `###` (may be empty). */
  name: string;
  nameRange: Range;
}
export interface VariableLine extends LineBase {
  kind: 'variable';
  name: Token;
  /** The value as written (trimmed; possibly empty, then at the end of the line). */
  value: Token;
}
export interface SettingLine extends LineBase {
  kind: 'setting';
  keyword: Token;
  setting: SettingInfo;
  args: ArgToken[];
  /** Everything after the keyword; absent when nothing follows it. */
  value?: Token;
}
export interface ExpectLine extends LineBase {
  kind: 'expect';
  keyword: Token;
  value?: Token;
}
export interface PhaseLine extends LineBase {
  kind: 'phase';
  keyword: Token;
  /** false for `prefill`. */
  measured: boolean;
  name?: Token;
  /** Words after the name (an error). */
  extra?: Token;
}
export interface CommandLine extends LineBase {
  kind: 'command';
  /** `80%` before the command; `percent` is the number. */
  weight?: Token & { percent: number };
  command: Token;
  /** Upper-case command name. */
  name: string;
  args: ArgToken[];
  /** Offset where the arguments begin (after the command word). */
  argsStart: number;
}
export interface UnknownLine extends LineBase {
  kind: 'unknown';
  word: Token;
}

export type DocLine = BlankLine | CommentLine | HeaderLine | VariableLine | SettingLine | ExpectLine | PhaseLine | CommandLine | UnknownLine;

export interface ScenarioNode {
  name: string;
  index: number;
  /** Absent for a file without headers (one implicit scenario). */
  header?: HeaderLine;
  nameRange: Range;
  headerRange: Range;
  /** From the header to the end of the line before the next header. */
  range: Range;
  /** The lines after the header. */
  lines: DocLine[];
}

export interface ScenarioDocument {
  lines: DocLine[];
  /** Lines before the first header (none when the whole file is one implicit scenario). */
  fileLines: DocLine[];
  scenarios: ScenarioNode[];
  diagnostics: Diagnostic[];
  /** Syntax problems beyond the diagnostic limit. */
  droppedDiagnostics: number;
}
