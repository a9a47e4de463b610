// The one writer of `.rbench` text: capture, import and the editor hand it lines as a small model (comments,
// headers, settings, phases, commands with their arguments) and get text back. Text a stranger chose (a
// server's version or error, a key prefix from an imported file) reaches the file only as the node it was
// meant to be: a comment is one line of printable text (controls, line separators and bidi controls shown as
// `\uXXXX`), an argument is a bare word or a double-quoted string in the lexer's own escapes. The line ending
// is always `\n`, and the text is parsed back with the real parser and compared with the model before it is
// returned: a difference throws ScenarioWriteError, and the caller writes nothing.
import { LOAD_NAME } from './clientGroups';
import { parseDocument } from './parser';
import { settingInfo } from './settings';
import type { ArgToken, DocLine } from './syntax';
import { isBareWord, isPlainCommandName, lineText, scenarioToken, ScenarioWriteError, unsafeCharacter } from './writtenText';

export { isPlainCommandName, lineText, scenarioToken, ScenarioWriteError };

const PHASE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]*$/;

/** A command argument: literal text, the same text `*N` times, or a group of arguments `( … )*N`. */
export type WrittenArg = string | { repeat: string; times: number } | { group: string[]; times: number };

export type WrittenLine =
  | { kind: 'blank' }
  | { kind: 'comment'; text: string }
  | { kind: 'header'; title: string }
  | { kind: 'setting'; name: string; args: string[] }
  | { kind: 'phase'; measured: boolean; name: string }
  /** `load NAME [background]`: starts a client group (src/scenario/clientGroups.ts); its settings and commands follow. */
  | { kind: 'load'; name: string; background?: boolean }
  | { kind: 'command'; weight?: number; name: string; args: WrittenArg[] }
  /** `expect p99 < 5ms`: the condition is RBench's own text (a template), never a stranger's. */
  | { kind: 'expect'; condition: string };

function argText(arg: WrittenArg, what: string): string {
  if (typeof arg === 'string') return scenarioToken(arg, what);
  if ('repeat' in arg) return `${bareForRepeat(arg.repeat, what)}*${count(arg.times)}`;
  return `(${arg.group.map((item) => scenarioToken(item, what)).join(' ')})*${count(arg.times)}`;
}

/** A repeated word is unquoted (the lexer repeats only an unquoted tail): it must be plain. */
function bareForRepeat(value: string, what: string): string {
  if (isBareWord(value)) return value;
  throw new ScenarioWriteError(`${what} \`${lineText(value)}\` is repeated (\`*N\`), which needs a plain word: letters, digits and \`_:./-\``);
}

function count(times: number): string {
  if (!Number.isSafeInteger(times) || times < 1) throw new ScenarioWriteError(`a repetition of ${times} is not a whole number of at least 1`);
  return String(times);
}

function weightText(weight: number): string {
  if (!Number.isFinite(weight) || weight < 0) throw new ScenarioWriteError(`a command's weight of ${weight} is not a share`);
  // The language's weights are plain decimals: no exponent.
  return `${Number(weight.toFixed(4))}%`;
}

/** One line of the model as text. */
function lineOf(line: WrittenLine): string {
  switch (line.kind) {
    case 'blank':
      return '';
    case 'comment': {
      const text = lineText(line.text);
      return text ? `# ${text}` : '#';
    }
    case 'header': {
      const title = lineText(line.title).trim();
      return title ? `### ${title}` : '###';
    }
    case 'setting':
      if (!settingInfo(line.name)) throw new ScenarioWriteError(`\`${lineText(line.name)}\` is not a setting`);
      return [line.name, ...line.args.map((arg) => scenarioToken(arg, `the value of \`${line.name}\``))].join(' ');
    case 'phase':
      if (!PHASE_NAME.test(line.name))
        throw new ScenarioWriteError(`\`${lineText(line.name)}\` is not a phase name: letters, digits, \`_\`, \`-\`, \`.\` and \`:\``);
      return `${line.measured ? 'phase' : 'prefill'} ${line.name}`;
    case 'load':
      if (!LOAD_NAME.test(line.name))
        throw new ScenarioWriteError(`\`${lineText(line.name)}\` is not a client group name: letters, digits, \`_\`, \`-\`, \`.\` and \`:\``);
      return `load ${line.name}${line.background ? ' background' : ''}`;
    case 'expect':
      if (unsafeCharacter(line.condition) || /(^|\s)#|\{\{|\$\{/.test(line.condition))
        throw new ScenarioWriteError(`\`${lineText(line.condition)}\` is not an expectation a file can hold as it is`);
      return `expect ${line.condition.trim()}`;
    case 'command': {
      if (!isPlainCommandName(line.name)) throw new ScenarioWriteError(`\`${lineText(line.name)}\` is not a command name`);
      const what = `an argument of ${line.name.toUpperCase()}`;
      const words = [line.name.toUpperCase(), ...line.args.map((arg) => argText(arg, what))];
      return (line.weight === undefined ? words : [weightText(line.weight), ...words]).join(' ');
    }
  }
}

/**
 * The model laid out as the formatter would: no blank line at the start or the end, none twice in a row, one
 * before each header after the first line. Writing a laid-out model gives one text line per model line.
 */
export function layout(lines: readonly WrittenLine[]): WrittenLine[] {
  const out: WrittenLine[] = [];
  for (const line of lines) {
    if (line.kind === 'blank') {
      if (out.length > 0 && out[out.length - 1].kind !== 'blank') out.push(line);
      continue;
    }
    if (line.kind === 'header' && out.length > 0 && out[out.length - 1].kind !== 'blank') out.push({ kind: 'blank' });
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1].kind === 'blank') out.pop();
  return out;
}

/** The model's text, `\n` line endings; ScenarioWriteError when the parser would read anything but the model. */
export function writeScenario(lines: readonly WrittenLine[]): string {
  const model = layout(lines);
  const texts = model.map(lineOf);
  const text = texts.length === 0 ? '' : texts.join('\n') + '\n';
  verify(model, texts, text);
  return text;
}

/** Parses `text` back and compares every line with the model: the same kind, and the same name, values and arguments. */
function verify(model: readonly WrittenLine[], texts: readonly string[], text: string): void {
  const unsafe = unsafeCharacter(text.replace(/\n/g, ''));
  if (unsafe) throw new ScenarioWriteError(`the written text holds ${unsafe}`);
  const doc = parseDocument(text);
  // The final line feed leaves one empty line after the last.
  const read = text === '' ? [] : doc.lines.slice(0, -1);
  if (read.length !== model.length) throw mismatch(Math.min(read.length, model.length), texts, `${read.length} lines read back for ${model.length} written`);
  const syntax = doc.diagnostics.find((d) => d.severity === 'error');
  if (syntax) throw mismatch(syntax.range.start.line, texts, syntax.message);
  model.forEach((line, index) => {
    const problem = difference(line, read[index], texts[index]);
    if (problem) throw mismatch(index, texts, problem);
  });
}

function mismatch(index: number, texts: readonly string[], problem: string): ScenarioWriteError {
  return new ScenarioWriteError(`the scenario text would not read back as written (line ${index + 1}, \`${lineText(texts[index] ?? '')}\`): ${problem}`);
}

/** Why `node` is not what `line` meant, or undefined when it is. */
function difference(line: WrittenLine, node: DocLine, text: string): string | undefined {
  if (line.kind === 'load') {
    const words = [line.name, ...(line.background ? ['background'] : [])];
    return node.kind === 'setting' && node.setting.kind === 'load' && !node.comment && sameWords(node.args, words)
      ? undefined
      : 'the client group line reads differently';
  }
  if (node.kind !== line.kind) return `read as a ${node.kind} line, meant as a ${line.kind} line`;
  if (node.interpolations.length > 0) return 'it holds an interpolation';
  if (node.kind !== 'comment' && node.comment) return 'it holds a trailing comment';
  switch (node.kind) {
    case 'blank':
      return undefined;
    case 'comment':
      return node.comment?.start === 0 && node.comment.text === text ? undefined : 'the comment reads differently';
    case 'header':
      return node.name === lineText((line as { title: string }).title).trim() ? undefined : 'the title reads differently';
    case 'setting': {
      const meant = line as Extract<WrittenLine, { kind: 'setting' }>;
      if (node.setting.name !== meant.name) return `read as \`${node.setting.name}\``;
      return sameWords(node.args, meant.args) ? undefined : 'its values read differently';
    }
    case 'expect':
      return node.value?.text === (line as Extract<WrittenLine, { kind: 'expect' }>).condition.trim() ? undefined : 'the expectation reads differently';
    case 'phase': {
      const meant = line as Extract<WrittenLine, { kind: 'phase' }>;
      return node.measured === meant.measured && node.name?.text === meant.name && !node.extra ? undefined : 'the phase reads differently';
    }
    case 'command': {
      const meant = line as Extract<WrittenLine, { kind: 'command' }>;
      if (node.name !== meant.name.toUpperCase()) return `read as the command \`${node.name}\``;
      if ((node.weight === undefined) !== (meant.weight === undefined)) return 'its weight reads differently';
      if (node.weight && meant.weight !== undefined && Math.abs(node.weight.percent - meant.weight) > 1e-4) return 'its weight reads differently';
      return sameArgs(node.args, meant.args) ? undefined : 'its arguments read differently';
    }
    default:
      return `read as a ${(node as DocLine).kind} line`;
  }
}

function sameWords(tokens: readonly ArgToken[], values: readonly string[]): boolean {
  return tokens.length === values.length && tokens.every((token, i) => token.kind === 'word' && !token.repeat && token.value === values[i]);
}

/** The command's tokens as the model's arguments: words, repeated words, groups with their count. */
function sameArgs(tokens: readonly ArgToken[], args: readonly WrittenArg[]): boolean {
  let at = 0;
  const word = (value: string, repeat?: number) => {
    const token = tokens[at++];
    return token?.kind === 'word' && token.value === value && token.repeat?.text === (repeat === undefined ? undefined : String(repeat));
  };
  for (const arg of args) {
    if (typeof arg === 'string') {
      if (!word(arg)) return false;
    } else if ('repeat' in arg) {
      if (!word(arg.repeat, arg.times)) return false;
    } else {
      if (tokens[at++]?.kind !== 'group-open') return false;
      if (!arg.group.every((item) => word(item))) return false;
      const close = tokens[at++];
      if (close?.kind !== 'group-close' || close.repeat?.text !== String(arg.times)) return false;
    }
  }
  return at === tokens.length;
}
