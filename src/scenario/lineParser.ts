// One line of `.rbench` text → its node: the first word decides the kind of line (header, setting, variable,
// command, expect, phase, comment, blank, unknown), and the kind's own reader takes the rest. Syntax problems
// become diagnostics; nothing throws.
import { COMMAND_NAMES, isCommandWord } from './commands';
import { DiagnosticSink, rangeOf, replaceFix } from './diagnostics';
import { isSpace, scanLine, tokenizeArgs, VARIABLE_NAME, type ArgLex, type LexProblem } from './lexer';
import { argTokens, become, CommandNode, HeaderNode, KeywordNode, LineNode, promote, SettingNode, type LineFacts } from './lineNodes';
import { SETTING_NAMES, settingInfo, type SettingInfo } from './settings';
import { closest } from './suggest';
import {
  Interpolation,
  Token,
  type BlankLine,
  type CommandLine,
  type CommentLine,
  type DocLine,
  type ExpectLine,
  type HeaderLine,
  type PhaseLine,
  type SettingLine,
  type UnknownLine,
  type VariableLine,
} from './syntax';

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

const WEIGHT = /^\d+(?:\.\d+)?%$/;
const PHASE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]*$/;
const KEYWORDS = [...SETTING_NAMES, ...COMMAND_NAMES];
/** A command the built-in table does not know may still be written (a module's): only a setting's name is never one. */
const isSettingName = (lower: string) => settingInfo(lower) !== undefined;

function token(line: number, text: string, start: number, end: number): Token {
  return new Token(line, text, start, end);
}

const NO_INTERPOLATIONS: readonly Interpolation[] = Object.freeze([]);

/** The line being parsed: one object for every line, so that each line makes one node, of its final class. */
const facts: LineFacts = { kind: 'blank', line: 0, text: '', contentStart: 0, contentEnd: 0, comment: undefined, interpolations: NO_INTERPOLATIONS };

/** Tokenizing problems of the line being parsed (emptied for each line). */
const lineProblems: LexProblem[] = [];

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
    sink.error(
      rangeOf(line, first.start, first.end),
      'interpolated-keyword',
      'a line must start with a setting or command name written out — it cannot come from `{{…}}` or `${…}`',
    );
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
  if (WEIGHT.test(first.value) || isCommandWord(first.value, isSettingName)) return parseCommand(base, first, sink);
  reportProblems(line, problems, sink);
  const word = token(line, text, first.start, first.end);
  reportUnknownWord(word, 'unknown-keyword', sink);
  return become<UnknownLine>(base, 'unknown', { word });
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
    sink.error(
      word.range,
      code,
      `unknown ${what} \`${word.text}\` — start the line with a setting (such as \`clients\`), a Redis command (such as \`GET\`), \`@name = value\` or \`# comment\``,
    );
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

function parseKeywordLine(
  base: LineFacts,
  first: ArgLex,
  setting: SettingInfo,
  words: ArgLex[] | undefined,
  sink: DiagnosticSink,
): SettingLine | ExpectLine | PhaseLine {
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
  if (commandLex.kind !== 'word' || !isCommandWord(commandLex.value, isSettingName) || commandLex.quoted) {
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
