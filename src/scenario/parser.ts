// `.rbench` text → document tree. Every line is classified (header, setting, variable, command,
// expect, phase, comment, blank, unknown) and every token keeps its exact range, for diagnostics
// and for editor features built on this tree. Syntax problems become diagnostics; nothing throws.
import type { Diagnostic, Range } from './plan';
import { COMMAND_NAMES, isRedisCommand } from './commands';
import { DiagnosticSink, rangeOf, replaceFix } from './diagnostics';
import { isSpace, scanLine, splitLines, tokenizeArgs, VARIABLE_NAME, type ArgLex, type InterpolationRef, type LexProblem } from './lexer';
import { SETTING_NAMES, settingInfo, type SettingInfo } from './settings';
import { closest } from './suggest';

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

/**
 * What every line has; the kind-specific fields are added by the parser. The fields are assigned,
 * not declared with initializers: one constructor serves several node classes, and defining
 * fields on objects of many classes is slow on a file of many lines.
 */
class LineNode {
  declare kind: DocLine['kind'];
  /** Zero-based line number. */
  declare readonly line: number;
  /** The whole line, without its line break. */
  declare readonly text: string;
  /** Offsets of the content: after indentation, before a trailing comment. */
  declare readonly contentStart: number;
  declare readonly contentEnd: number;
  declare readonly interpolations: readonly Interpolation[];
  declare comment?: Token;

  constructor(kind: DocLine['kind'], line: number, text: string, contentStart: number, contentEnd: number, interpolations: readonly Interpolation[]) {
    this.kind = kind;
    this.line = line;
    this.text = text;
    this.contentStart = contentStart;
    this.contentEnd = contentEnd;
    this.interpolations = interpolations;
    this.comment = undefined;
  }

  get range(): Range {
    return rangeOf(this.line, 0, this.text.length);
  }
}

/**
 * A line that starts with a keyword (a setting or `expect`). Its keyword and value tokens are made
 * on demand: the resolver reads values from the interpolated text, so only editor features ask.
 */
class KeywordNode extends LineNode {
  /** Where the keyword ends and the value starts (-1: no value). */
  declare keywordEnd: number;
  declare valueStart: number;

  get keyword(): Token {
    return new Token(this.line, this.text, this.contentStart, this.keywordEnd);
  }

  get value(): Token | undefined {
    return this.valueStart < 0 ? undefined : new Token(this.line, this.text, this.valueStart, this.contentEnd);
  }
}

/** A setting line; its arguments are tokenized on demand too. */
class SettingNode extends KeywordNode {
  declare setting: SettingInfo;
  /** Set when the line had to be tokenized anyway (it has quotes). */
  declare tokenized?: ArgToken[];

  get args(): ArgToken[] {
    this.tokenized ??= argTokens(this.line, this.text, tokenizeArgs(this.text, this.keywordEnd, this.contentEnd, false, []));
    return this.tokenized;
  }
}

/** A `### name` line; the name's range is computed when asked. */
class HeaderNode extends LineNode {
  declare name: string;
  declare nameStart: number;

  get nameRange(): Range {
    return rangeOf(this.line, this.nameStart, this.nameStart + this.name.length);
  }
}

/** A command line; like a setting line's, its arguments are tokenized on demand. */
class CommandNode extends LineNode {
  declare weight?: Token & { percent: number };
  declare commandStart: number;
  declare commandEnd: number;
  declare name: string;
  declare argsStart: number;
  declare tokenized?: ArgToken[];

  get command(): Token {
    return new Token(this.line, this.text, this.commandStart, this.commandEnd);
  }

  get args(): ArgToken[] {
    this.tokenized ??= argTokens(this.line, this.text, tokenizeArgs(this.text, this.argsStart, this.contentEnd, true, []));
    return this.tokenized;
  }
}

function argTokens(line: number, text: string, lexed: ArgLex[], from = 0): ArgToken[] {
  const tokens: ArgToken[] = [];
  for (let i = from; i < lexed.length; i++) tokens.push(new ArgToken(line, text, lexed[i]));
  return tokens;
}

/** True when `text[from, to)` holds one of the characters that make tokenizing more than splitting on spaces. */
function hasSpecial(text: string, from: number, to: number, groups: boolean): boolean {
  for (let i = from; i < to; i++) {
    const char = text.charCodeAt(i);
    if (char === 0x22 || char === 0x27) return true; // " '
    if (groups && (char === 0x28 || char === 0x29 || char === 0x2a)) return true; // ( ) *
  }
  return false;
}

/** End of the word starting at `start`: the next space (for text without quotes). */
function wordEnd(text: string, start: number, to: number): number {
  let end = start;
  while (end < to && !isSpace(text[end])) end++;
  return end;
}

/** Start of the next word at or after `at`. */
function skipSpaces(text: string, at: number, to: number): number {
  while (at < to && isSpace(text[at])) at++;
  return at;
}

interface LineBase {
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

const WEIGHT = /^\d+(?:\.\d+)?%$/;
const PHASE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]*$/;
const KEYWORDS = [...SETTING_NAMES, ...COMMAND_NAMES];

export function parseDocument(text: string): ScenarioDocument {
  const sink = new DiagnosticSink();
  const lines: DocLine[] = [];
  let fileLines: DocLine[] = [];
  const scenarios: ScenarioNode[] = [];
  parseScenarios(text, sink, {
    line: (line) => lines.push(line),
    fileLines: (found) => (fileLines = found),
    scenario: (node) => scenarios.push(node),
  });
  return { lines, fileLines, scenarios, diagnostics: sink.finish(), droppedDiagnostics: sink.dropped };
}

/** What `parseScenarios` hands over, in file order. */
export interface ScenarioVisitor {
  /** Every line, as it is parsed. */
  line?(line: DocLine): void;
  /** The lines before the first header (all lines of a file without scenarios): once, before any scenario. */
  fileLines(lines: DocLine[]): void;
  /** A scenario, as soon as its last line is parsed. */
  scenario(node: ScenarioNode): void;
}

/**
 * Parses `text` one line at a time and hands each scenario over as soon as it ends. A caller that
 * keeps no nodes lets them die young: on a large file, keeping every line's node alive until the
 * end cost more garbage collection than the parsing itself.
 */
export function parseScenarios(text: string, sink: DiagnosticSink, visitor: ScenarioVisitor): void {
  const grouper = new ScenarioGrouper(sink, visitor);
  // Lines are cut one at a time (no array of all lines); a file with `\r` line breaks is split first.
  if (text.includes('\r')) {
    const lines = splitLines(text);
    for (let index = 0; index < lines.length; index++) grouper.add(parseLine(lines[index], index, sink));
  } else {
    let from = 0;
    for (let index = 0; ; index++) {
      const end = text.indexOf('\n', from);
      grouper.add(parseLine(end < 0 ? text.slice(from) : text.slice(from, end), index, sink));
      if (end < 0) break;
      from = end + 1;
    }
  }
  grouper.finish();
}

/** Groups lines into the file-level lines and scenarios (from a header to the line before the next one). */
class ScenarioGrouper {
  private fileLines: DocLine[] = [];
  private current: { header: HeaderLine; lines: DocLine[] } | undefined;
  private count = 0;
  private last: DocLine | undefined;
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly sink: DiagnosticSink,
    private readonly visitor: ScenarioVisitor,
  ) {}

  add(line: DocLine): void {
    this.visitor.line?.(line);
    if (line.kind !== 'header') {
      (this.current ? this.current.lines : this.fileLines).push(line);
      this.last = line;
      return;
    }
    if (this.current) this.close();
    else this.closeFileLines();
    this.current = { header: line, lines: [] };
    this.last = line;
  }

  finish(): void {
    if (this.current) {
      this.close();
      return;
    }
    const lines = this.fileLines;
    // A file without headers is one implicit scenario when it has something to run.
    const hasCommands = lines.some((line) => line.kind === 'command' || (line.kind === 'setting' && line.setting.kind === 'suite'));
    if (!hasCommands) {
      this.visitor.fileLines(lines);
      return;
    }
    this.visitor.fileLines([]);
    const firstLine = lines[0].range;
    const range = { start: firstLine.start, end: lines[lines.length - 1].range.end };
    this.visitor.scenario({ name: 'scenario 1', index: 0, nameRange: firstLine, headerRange: firstLine, range, lines });
  }

  private closeFileLines(): void {
    for (const line of this.fileLines) {
      if (line.kind === 'command') {
        this.sink.error(line.command.range, 'command-outside-scenario', 'this command belongs to no scenario — add a `### name` line above it (lines before the first `###` only hold shared settings)');
      }
    }
    this.visitor.fileLines(this.fileLines);
  }

  private close(): void {
    const { header, lines } = this.current!;
    const index = this.count++;
    const name = header.name || `scenario ${index + 1}`;
    const earlier = this.seen.get(name);
    if (earlier !== undefined) {
      this.sink.error(
        header.name ? header.nameRange : header.range,
        'duplicate-scenario',
        `another scenario is already named \`${name}\` (line ${earlier + 1}) — results are stored by name, so give this one a different name`,
      );
    } else {
      this.seen.set(name, header.line);
    }
    const headerRange = header.range;
    const last = this.last!;
    this.current = undefined;
    this.visitor.scenario({
      name,
      index,
      header,
      nameRange: header.name ? header.nameRange : headerRange,
      headerRange,
      range: { start: headerRange.start, end: { line: last.line, character: last.text.length } },
      lines,
    });
  }
}

function token(line: number, text: string, start: number, end: number): Token {
  return new Token(line, text, start, end);
}

const NO_INTERPOLATIONS: readonly Interpolation[] = Object.freeze([]);

/** What is known of a line before its node is made (the node's class depends on its kind). */
type LineFacts = Omit<LineBase, 'range'>;

/** The line being parsed: one object for every line, so that each line makes one node, of its final class. */
const facts: LineFacts = { kind: 'blank', line: 0, text: '', contentStart: 0, contentEnd: 0, comment: undefined, interpolations: NO_INTERPOLATIONS };

/** Tokenizing problems of the line being parsed (emptied for each line). */
const lineProblems: LexProblem[] = [];

/** A plain line node of `kind` with kind-specific fields. */
function become<T extends DocLine>(base: LineFacts, kind: T['kind'], fields: Omit<T, keyof LineBase>): T {
  const node = promote(base, LineNode);
  node.kind = kind;
  return Object.assign(node, fields) as unknown as T;
}

function reportProblems(line: number, problems: LexProblem[], sink: DiagnosticSink): void {
  // An indexed loop: this runs for every line, mostly over an empty list.
  for (let i = 0; i < problems.length; i++) {
    // One line's problems are distinct (their places differ): past the cap they are only counted.
    if (sink.full) return sink.countDropped(problems.length - i);
    sink.error(rangeOf(line, problems[i].start, problems[i].end), problems[i].code, problems[i].message);
  }
}

export function parseLine(text: string, line: number, sink: DiagnosticSink): DocLine {
  const headerAt = firstNonSpace(text);
  if (text.startsWith('###', headerAt)) {
    const raw = text.slice(headerAt + 3);
    const name = raw.trim();
    const nameStart = name ? headerAt + 3 + raw.indexOf(name) : text.length;
    const header = new HeaderNode('header', line, text, headerAt, text.length, NO_INTERPOLATIONS);
    header.name = name;
    header.nameStart = nameStart;
    return header as unknown as HeaderLine;
  }
  const scan = scanLine(text, headerAt);
  const { contentStart, contentEnd } = scan;
  const interpolations = scan.interpolations.length === 0 ? NO_INTERPOLATIONS : scan.interpolations.map((ref) => new Interpolation(line, ref));
  const base = facts;
  base.kind = 'blank';
  base.line = line;
  base.text = text;
  base.contentStart = contentStart;
  base.contentEnd = contentEnd;
  base.interpolations = interpolations;
  base.comment = scan.commentStart === undefined ? undefined : token(line, text, scan.commentStart, text.length);
  if (contentStart >= contentEnd) {
    base.kind = base.comment ? 'comment' : 'blank';
    return promote(base, LineNode) as unknown as BlankLine | CommentLine;
  }
  reportProblems(line, scan.problems, sink);
  if (scan.moreProblems > 0) sink.countDropped(scan.moreProblems);
  if (text[contentStart] === '@') return parseVariable(base, sink);

  // Only the first word decides the kind of line; the rest is read by the kind's own parser.
  const problems = lineProblems;
  problems.length = 0;
  const first = firstWord(text, contentStart, contentEnd, problems);
  if (interpolations.some((ref) => ref.start < first.end)) {
    reportProblems(line, problems, sink);
    sink.error(rangeOf(line, first.start, first.end), 'interpolated-keyword', 'a line must start with a setting or command name written out — it cannot come from `{{…}}` or `${…}`');
    return become<UnknownLine>(base, 'unknown', { word: token(line, text, first.start, first.end) });
  }
  const setting = settingInfo(first.value);
  if (setting && !first.quoted) {
    let words: ArgLex[] | undefined;
    // Without quotes there are no tokenizing problems, and the words are split at spaces.
    if (hasSpecial(text, contentStart, contentEnd, false) || setting.kind === 'phase' || setting.kind === 'prefill') {
      words = tokenizeArgs(text, contentStart, contentEnd, false, problems);
    }
    reportProblems(line, problems, sink);
    return parseKeywordLine(base, first, setting, words, sink);
  }
  if (WEIGHT.test(first.value) || isRedisCommand(first.value)) return parseCommand(base, first, sink);
  reportProblems(line, problems, sink);
  const word = token(line, text, first.start, first.end);
  reportUnknownWord(word, 'unknown-keyword', sink);
  return become<UnknownLine>(base, 'unknown', { word });
}

/** `base` as a node of a kind with arguments (a setting or command line). */
function promote<T extends LineNode>(base: LineFacts, Node: new (...args: ConstructorParameters<typeof LineNode>) => T): T {
  const node = new Node(base.kind, base.line, base.text, base.contentStart, base.contentEnd, base.interpolations);
  if (base.comment) node.comment = base.comment;
  return node;
}

/** The first word of the content, as tokenizeArgs reads it (without groups). */
function firstWord(text: string, from: number, to: number, problems: LexProblem[]): ArgLex {
  if (hasSpecial(text, from, wordEnd(text, from, to), false)) return tokenizeArgs(text, from, to, false, problems, 1)[0];
  const end = wordEnd(text, from, to);
  return { kind: 'word', start: from, end, value: text.slice(from, end), quoted: false };
}

function firstNonSpace(text: string): number {
  let at = 0;
  while (at < text.length && isSpace(text[at])) at++;
  return at;
}

/** `unknown setting or command \`x\` — did you mean \`y\`?` with a fix replacing the word. */
function reportUnknownWord(word: Token, code: string, sink: DiagnosticSink, candidates: readonly string[] = KEYWORDS): void {
  if (sink.full) {
    sink.error(word.range, code, `unknown setting or command \`${word.text}\``);
    return;
  }
  const suggestion = closest(word.text, candidates);
  const what = candidates === KEYWORDS ? 'setting or command' : 'command';
  if (suggestion && suggestion.toLowerCase() === word.text.toLowerCase()) {
    sink.error(word.range, code, `settings are written in lower case — write \`${suggestion}\``, [replaceFix(word.range, suggestion)]);
  } else if (suggestion) {
    sink.error(word.range, code, `unknown ${what} \`${word.text}\` — did you mean \`${suggestion}\`?`, [replaceFix(word.range, suggestion)]);
  } else {
    sink.error(word.range, code, `unknown ${what} \`${word.text}\` — start the line with a setting (such as \`clients\`), a Redis command (such as \`GET\`), \`@name = value\` or \`# comment\``);
  }
}

function parseVariable(base: LineFacts, sink: DiagnosticSink): VariableLine | UnknownLine {
  const { text, line, contentStart, contentEnd } = base;
  const match = /^@([^\s=]*)\s*(=)?/.exec(text.slice(contentStart, contentEnd));
  const nameText = match?.[1] ?? '';
  const name = token(line, text, contentStart + 1, contentStart + 1 + nameText.length);
  if (!VARIABLE_NAME.test(nameText) || !match?.[2]) {
    const problem = !VARIABLE_NAME.test(nameText)
      ? nameText
        ? `\`${nameText}\` is not a variable name — use letters, digits, \`_\`, \`-\` and \`.\`, starting with a letter or \`_\``
        : 'a variable needs a name — write `@name = value`'
      : `\`@${nameText}\` needs a value — write \`@${nameText} = value\``;
    sink.error(rangeOf(line, contentStart, contentEnd), 'invalid-variable', problem);
    return become<UnknownLine>(base, 'unknown', { word: token(line, text, contentStart, contentStart + 1 + nameText.length) });
  }
  let valueStart = contentStart + match[0].length;
  while (valueStart < contentEnd && /\s/.test(text[valueStart])) valueStart++;
  return become<VariableLine>(base, 'variable', { name, value: token(line, text, valueStart, Math.max(valueStart, contentEnd)) });
}

function parseKeywordLine(base: LineFacts, first: ArgLex, setting: SettingInfo, words: ArgLex[] | undefined, sink: DiagnosticSink): SettingLine | ExpectLine | PhaseLine {
  if (setting.kind === 'phase' || setting.kind === 'prefill') return parsePhase(base, setting, words!, sink);
  const { line, text, contentEnd } = base;
  let valueStart = words ? (words[1]?.start ?? contentEnd) : skipSpaces(text, first.end, contentEnd);
  if (valueStart >= contentEnd) valueStart = -1;
  if (setting.kind === 'expect') {
    const node = promote(base, KeywordNode);
    node.kind = 'expect';
    node.keywordEnd = first.end;
    node.valueStart = valueStart;
    return node as unknown as ExpectLine;
  }
  const node = promote(base, SettingNode);
  node.kind = 'setting';
  node.setting = setting;
  node.keywordEnd = first.end;
  node.valueStart = valueStart;
  if (words) node.tokenized = argTokens(line, text, words, 1);
  return node as unknown as SettingLine;
}

function parsePhase(base: LineFacts, setting: SettingInfo, words: ArgLex[], sink: DiagnosticSink): PhaseLine {
  const { line, text, contentEnd } = base;
  const keyword = token(line, text, words[0].start, words[0].end);
  const phase = become<PhaseLine>(base, 'phase', { keyword, measured: setting.kind === 'phase' });
  if (words.length > 1) phase.name = token(line, text, words[1].start, words[1].end);
  if (words.length > 2) phase.extra = token(line, text, words[2].start, contentEnd);
  if (!phase.name && phase.measured) {
    sink.error(keyword.range, 'missing-phase-name', 'a phase needs a name — write `phase NAME`, such as `phase read`');
  } else if (phase.name && !PHASE_NAME.test(phase.name.text)) {
    sink.error(phase.name.range, 'invalid-phase-name', `\`${phase.name.text}\` is not a phase name — use letters, digits, \`_\`, \`-\`, \`.\` and \`:\``);
  }
  if (phase.extra) sink.error(phase.extra.range, 'invalid-phase-name', 'a phase name is one word — remove the rest or join it with `-`');
  return phase;
}

/** `first` is the first word of the content, which ends at `contentEnd`. */
function parseCommand(base: LineFacts, first: ArgLex, sink: DiagnosticSink): CommandLine | UnknownLine {
  const { line, text, contentStart, contentEnd } = base;
  // Without quotes, groups or `*N` the words are split at spaces: no need to tokenize the arguments now.
  let lexed: ArgLex[] | undefined;
  if (hasSpecial(text, contentStart, contentEnd, true)) {
    const problems: LexProblem[] = [];
    lexed = tokenizeArgs(text, contentStart, contentEnd, true, problems);
    reportProblems(line, problems, sink);
  }
  let at = 0;
  let weight: CommandLine['weight'];
  const firstLex = lexed ? lexed[0] : first;
  if (firstLex.kind === 'word' && WEIGHT.test(firstLex.value)) {
    weight = Object.assign(token(line, text, firstLex.start, firstLex.end), { percent: Number(firstLex.value.slice(0, -1)) });
    at = 1;
  }
  let commandLex: ArgLex | undefined;
  if (lexed) {
    commandLex = lexed[at];
  } else if (at === 0) {
    commandLex = first;
  } else {
    const start = skipSpaces(text, first.end, contentEnd);
    const end = wordEnd(text, start, contentEnd);
    if (end > start) commandLex = { kind: 'word', start, end, value: text.slice(start, end), quoted: false };
  }
  if (!commandLex) {
    sink.error(weight!.range, 'missing-command', `a weight must be followed by a command — write \`${weight!.text} GET key\``);
    return become<UnknownLine>(base, 'unknown', { word: weight! });
  }
  if (commandLex.kind !== 'word' || !isRedisCommand(commandLex.value) || commandLex.quoted) {
    const command = token(line, text, commandLex.start, commandLex.end);
    reportUnknownWord(command, 'unknown-command', sink, COMMAND_NAMES);
    return become<UnknownLine>(base, 'unknown', { word: command });
  }
  // Only command lines have arguments: the node changes class once the line is known to be one.
  const node = promote(base, CommandNode);
  node.kind = 'command';
  node.weight = weight;
  node.commandStart = commandLex.start;
  node.commandEnd = commandLex.end;
  node.name = commandLex.value.toUpperCase();
  node.argsStart = commandLex.end;
  if (lexed) node.tokenized = argTokens(line, text, lexed, at + 1);
  return node as unknown as CommandLine;
}
