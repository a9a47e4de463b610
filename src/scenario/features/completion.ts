// Completion for `.rbench` files: what may be written at the cursor, from the same tables the parser
// and resolver read (settings, metrics, placeholders, suites, the Redis command table).
import { insideGroup } from '../groups';
import { rangeOf } from '../diagnostics';
import { isSpace, tokenizeArgs, ENV_NAME, type ArgLex } from '../lexer';
import { parseDocument } from '../parser';
import type { CommandLine, DocLine, ScenarioDocument } from '../syntax';
import type { Position, Range } from '../plan';
import { resolveDocument } from '../resolver';
import {
  COMPARE_OPS,
  DEFAULT_GAUSSIAN_STDDEV,
  DEFAULT_ZIPF_EXPONENT,
  EXPECT_METRICS,
  KEY_DISTRIBUTIONS,
  PLACEHOLDERS,
  SETTINGS,
  SHA_PLACEHOLDER,
  settingInfo,
  SWEEP_AXES,
  type SettingInfo,
} from '../settings';
import { BUILT_IN_TABLE, commandTableOf, type CommandTable } from '../commandTable';
import { FIND_METRICS } from '../find';
import { isProfileName } from '../targetValue';
import { isPlainCommandName } from '../writtenText';
import { SUITE_NAMES, selectSuiteTests } from '../suites';
import { commandHint, commandInfo, isCommonCommand, isOfferedCommand } from './commandInfo';
import { code, drawMarkdown, METRIC_EXAMPLES, metricMarkdown, placeholderMarkdown, settingMarkdown } from './docs';
import { DRAW_FORMS } from '../draws';
import { lineContext, looksSecret, MASK, scenarioAt, visibleVariables } from './locate';
import { snippetItems } from './snippets';
import type { CompletionItemData, CompletionOptions } from './types';

interface Cursor {
  doc: ScenarioDocument;
  line: DocLine;
  /** Character offset of the cursor in the line. */
  at: number;
  options: CompletionOptions;
}

/** Completion items at `position` in `text`. Never throws on any input. */
export function completions(text: string, position: Position, options: CompletionOptions = {}): CompletionItemData[] {
  const doc = parseDocument(text);
  const line = doc.lines[position.line];
  if (!line) return [];
  const cursor: Cursor = { doc, line, at: Math.min(Math.max(position.character, 0), line.text.length), options };
  if (line.kind === 'header' || line.kind === 'comment' || (line.comment && cursor.at > line.comment.start)) return [];
  return interpolationItems(cursor) ?? lineItems(cursor);
}

// ---- `{{name}}` and `${env:NAME}` --------------------------------------------------------------

const VARIABLE_CHARS = /^[A-Za-z0-9_.-]*/;
const ENV_CHARS = /^[A-Za-z0-9_]*/;

/** Items inside an unclosed `{{` or `${` before the cursor; undefined when the cursor is not in one. */
function interpolationItems({ doc, line, at, options }: Cursor): CompletionItemData[] | undefined {
  const text = line.text;
  const before = text.slice(0, at);
  const openVariable = before.lastIndexOf('{{');
  if (openVariable >= 0 && !before.includes('}}', openVariable)) {
    const typed = /^\s*([A-Za-z0-9_.-]*)$/.exec(before.slice(openVariable + 2));
    if (!typed) return [];
    const end = at + VARIABLE_CHARS.exec(text.slice(at))![0].length;
    const closed = /^\s*\}\}/.test(text.slice(end));
    const range = rangeOf(line.line, at - typed[1].length, end);
    return [...visibleVariables(doc, line.line).values()].map((definition) => {
      const name = definition.name.text;
      return {
        label: name,
        kind: 'variable',
        detail: looksSecret(name) ? MASK : definition.value.text,
        documentation: `Defined on line ${definition.line + 1}: ${code(`@${name} = …`)}`,
        insertText: closed ? name : `${name}}}`,
        range,
      };
    });
  }
  const openEnv = before.lastIndexOf('${');
  if (openEnv >= 0 && !before.includes('}', openEnv)) {
    const inner = before.slice(openEnv + 2);
    if (!inner.startsWith('env:')) {
      if (!'env:'.startsWith(inner)) return [];
      const item: CompletionItemData = {
        label: 'env:',
        kind: 'env',
        detail: '${env:NAME} or ${env:NAME:-default}',
        range: rangeOf(line.line, openEnv + 2, at),
        retrigger: true,
      };
      return [item];
    }
    const typed = inner.slice(4);
    // After `:-` the default is being typed: free text.
    if (!ENV_CHARS.test(typed) || ENV_CHARS.exec(typed)![0] !== typed) return [];
    const end = at + ENV_CHARS.exec(text.slice(at))![0].length;
    const closed = /^(?:\}|:-)/.test(text.slice(end));
    return envItems(options, rangeOf(line.line, at - typed.length, end), closed ? '' : '}');
  }
  return undefined;
}

/** Environment variable names (never their values: they may be secrets). */
function envItems(options: CompletionOptions, range: Range, suffix: string): CompletionItemData[] {
  return Object.keys(options.env ?? {})
    .filter((name) => ENV_NAME.test(name))
    .sort()
    .map((name) => ({ label: name, kind: 'env', detail: 'environment variable', insertText: name + suffix, range }));
}

// ---- Keywords and values -----------------------------------------------------------------------

const WEIGHT = /^\d+(?:\.\d+)?%$/;

function wordEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && !isSpace(text[end])) end++;
  return end;
}

function skipSpaces(text: string, from: number): number {
  let at = from;
  while (at < text.length && isSpace(text[at])) at++;
  return at;
}

function lineItems(cursor: Cursor): CompletionItemData[] {
  const { line, at } = cursor;
  const text = line.text;
  if (line.kind === 'blank') return keywordItems(cursor, rangeOf(line.line, at, at));
  if (at < line.contentStart) return [];
  const firstEnd = wordEnd(text, line.contentStart);
  if (at <= firstEnd) {
    const word = text.slice(line.contentStart, firstEnd);
    if (/^[@#\d"']/.test(word)) return [];
    return keywordItems(cursor, rangeOf(line.line, line.contentStart, firstEnd));
  }
  const firstWord = text.slice(line.contentStart, firstEnd);
  if (WEIGHT.test(firstWord)) {
    // `80% GE|`: the command of a weighted line.
    const commandStart = skipSpaces(text, firstEnd);
    const commandEnd = wordEnd(text, commandStart);
    if (at >= commandStart && at <= commandEnd) {
      return commandItems(rangeOf(line.line, commandStart, commandEnd), commandTableOf(cursor.options.commandTable));
    }
  }
  if (line.kind === 'command') return argumentItems(line, at);
  if (line.kind === 'setting' || line.kind === 'expect' || line.kind === 'phase') {
    const info = settingInfo(firstWord);
    if (info) return valueItems(cursor, info, valueSlot(line, firstEnd, at));
  }
  return [];
}

/**
 * Settings allowed where the line is, and Redis commands inside scenarios. An item inserts the word alone:
 * a trailing space would double the one the user types next, and would make Enter on a fully typed word a
 * textual change, so Enter accepted it instead of ending the line (editor.acceptSuggestionOnEnter "smart",
 * set for the language in package.json, passes Enter through only when accepting changes nothing). The
 * space typed after the word asks for its values (a trigger character).
 */
function keywordItems(cursor: Cursor, range: Range): CompletionItemData[] {
  const context = lineContext(cursor.doc, cursor.line.line);
  // A phase line may follow another phase: it starts the next one.
  // Inside a group only commands and its `end` belong.
  const inGroup = context.scope !== 'file' && insideGroup(context.section, cursor.line.line);
  const allowed = inGroup
    ? SETTINGS.filter((info) => info.kind === 'end')
    : SETTINGS.filter((info) => info.scopes.includes(context.scope) || (context.scope === 'phase' && (info.kind === 'phase' || info.kind === 'prefill')));
  const settings = allowed.map((info): CompletionItemData => {
    return { label: info.name, kind: 'setting', detail: info.syntax, documentation: settingMarkdown(info), range, sortText: `0 ${info.name}` };
  });
  // Snippets start lines (a scenario, a sweep, a group), so they are offered where a line starts and outside groups.
  const snippets = inGroup ? [] : snippetItems(range);
  return context.scope === 'file'
    ? [...settings, ...snippets]
    : [...settings, ...commandItems(range, commandTableOf(cursor.options.commandTable)), ...snippets];
}

/** Commands completion offers from a table (all of them stay valid when written), upper case; the last table's list is kept. */
let offered: { table: CommandTable; names: readonly string[] } | undefined;
function offeredCommands(table: CommandTable): readonly string[] {
  if (offered?.table !== table)
    offered = {
      table,
      names: table
        .names()
        .filter((name) => isOfferedCommand(name, table))
        .map((name) => name.toUpperCase())
        // A server's table may name anything: only a name a line holds as it is gets inserted.
        .filter(isPlainCommandName),
    };
  return offered.names;
}

function commandItems(range: Range, table: CommandTable = BUILT_IN_TABLE): CompletionItemData[] {
  return offeredCommands(table).map((name): CompletionItemData => {
    const info = commandInfo(name, table)!;
    // Common data commands first: `SE` offers SET before SELECT.
    return { label: name, kind: 'command', detail: commandHint(info), range, sortText: `1 ${isCommonCommand(name) ? 0 : 1} ${name}` };
  });
}

/** Placeholders inside a command's arguments: after a space, or while typing `__…`. */
function argumentItems(line: CommandLine, at: number): CompletionItemData[] {
  if (at <= line.command.end) return [];
  const slot = valueSlot(line, line.command.end, at);
  const typed = line.text.slice(slot.start, at);
  const fragment = /_[A-Za-z_]*$/.exec(typed)?.[0] ?? '';
  if (typed && !fragment) return [];
  // A drawn number just closed (`__rand(1..9)__`): its `__` ends it, it begins nothing Enter should complete.
  if (/\)__$/.test(typed)) return [];
  const end = at + /^[A-Za-z_]*/.exec(line.text.slice(at))![0].length;
  const range = rangeOf(line.line, at - fragment.length, end);
  const named = [...PLACEHOLDERS, SHA_PLACEHOLDER].map((info): CompletionItemData => ({
    label: info.name,
    kind: 'placeholder',
    detail: info.doc,
    documentation: placeholderMarkdown(info),
    range,
  }));
  const drawn = DRAW_FORMS.map((form): CompletionItemData => ({
    label: form.example,
    kind: 'placeholder',
    detail: form.doc,
    documentation: drawMarkdown(form),
    range,
  }));
  return [...named, ...drawn];
}

interface ValueSlot {
  /** Which value word the cursor is in (0 = the first after the keyword). */
  index: number;
  /** The word under the cursor, or an empty span at the cursor. */
  start: number;
  end: number;
  args: ArgLex[];
}

function valueSlot(line: DocLine, from: number, at: number): ValueSlot {
  const args = tokenizeArgs(line.text, from, line.contentEnd, false, []);
  const index = args.findIndex((arg) => arg.start <= at && at <= arg.end);
  if (index >= 0) return { index, start: args[index].start, end: args[index].end, args };
  return { index: args.filter((arg) => arg.end < at).length, start: at, end: at, args };
}

function wordItems(words: readonly string[], range: Range, detail?: (word: string) => string | undefined): CompletionItemData[] {
  return words.map((word, index) => {
    const item: CompletionItemData = { label: word, kind: 'value', range, sortText: String(index).padStart(3, '0') };
    const text = detail?.(word);
    if (text) item.detail = text;
    return item;
  });
}

const DISTRIBUTION_DETAILS: Record<(typeof KEY_DISTRIBUTIONS)[number], string> = {
  sequential: '0, 1, 2, … wrapping around',
  uniform: 'every key equally likely',
  gaussian: `centred; optional standard deviation as a fraction of the space (default ${DEFAULT_GAUSSIAN_STDDEV.toFixed(4)})`,
  zipf: `a few hot keys; optional exponent (default ${DEFAULT_ZIPF_EXPONENT})`,
};

function valueItems(cursor: Cursor, info: SettingInfo, slot: ValueSlot): CompletionItemData[] {
  const line = cursor.line;
  const range = rangeOf(line.line, slot.start, slot.end);
  switch (info.kind) {
    case 'switch':
    case 'choice':
    case 'threads':
    case 'reconnect':
      return slot.index === 0 ? wordItems(info.values ?? [], range, () => info.syntax) : [];
    case 'ramp':
      return slot.index % 2 === 0 ? wordItems([['clients', 'step', 'every'][slot.index / 2] ?? ''].filter(Boolean), range, () => info.syntax) : [];
    case 'keys':
      return slot.index === 1 ? wordItems(KEY_DISTRIBUTIONS, range, (word) => DISTRIBUTION_DETAILS[word as keyof typeof DISTRIBUTION_DETAILS]) : [];
    case 'sweep':
      if (slot.index !== 0) return [];
      return Object.keys(SWEEP_AXES).map((axis) => {
        const axisInfo = settingInfo(axis)!;
        return {
          label: axis,
          kind: 'value',
          detail: axisInfo.syntax,
          documentation: settingMarkdown(axisInfo),
          range,
        };
      });
    case 'suite':
      return suiteItems(cursor, slot);
    case 'password':
      return slot.index === 0 ? passwordItems(cursor, slot) : [];
    case 'target':
      return slot.index === 0 ? targetItems(cursor, range) : [];
    case 'expect':
      return expectItems(cursor, slot, range);
    case 'find':
      return findItems(slot.index, range);
    default:
      return [];
  }
}

/** `find rate where p99 < 2ms from 5k/s to 500k/s`, word by word. */
function findItems(index: number, range: Range): CompletionItemData[] {
  const metric = (name: string) => EXPECT_METRICS.find((info) => info.name === name)!;
  switch (index) {
    case 0:
      return wordItems(['rate'], range, () => 'the highest open-loop rate that meets the limit');
    case 1:
      return wordItems(['where'], range);
    case 2:
      return FIND_METRICS.map((name, i) => ({
        label: name,
        kind: 'value',
        detail: metric(name).doc,
        documentation: metricMarkdown(metric(name)),
        range,
        sortText: String(i).padStart(3, '0'),
      }));
    case 3:
      return wordItems(['<'], range);
    case 4:
      return wordItems(['2ms', '500us', '10ms'], range, () => 'the latency limit');
    default:
      return index % 2 === 1
        ? wordItems(['from', 'to'], range, (word) => (word === 'from' ? 'the first rate probed (default 1k/s)' : 'the highest rate probed (default 1M/s)'))
        : [];
  }
}

/** `suite set,ge|`: test names not listed yet, for the comma-separated item under the cursor. */
function suiteItems({ line, at }: Cursor, slot: ValueSlot): CompletionItemData[] {
  const text = line.text;
  const itemStart = slot.start + text.slice(slot.start, at).lastIndexOf(',') + 1;
  const comma = text.indexOf(',', at);
  const itemEnd = comma >= 0 && comma < slot.end ? comma : slot.end;
  const listed = new Set<string>();
  for (const match of text.slice(slot.args[0]?.start ?? at, line.contentEnd).matchAll(/[^\s,]+/g)) listed.add(match[0].toLowerCase());
  listed.delete(text.slice(itemStart, itemEnd).toLowerCase());
  const names = [...(listed.size === 0 ? ['default'] : []), ...SUITE_NAMES.filter((name) => !listed.has(name))];
  return names.map((name, index) => {
    const tests = selectSuiteTests([name]);
    return {
      label: name,
      kind: 'suite-test',
      detail: name === 'default' ? 'every redis-benchmark test' : tests.map((test) => test.label).join(', '),
      documentation: tests.map((test) => `${code(test.title)}: ${code(test.command)}`).join('  \n'),
      range: rangeOf(line.line, itemStart, itemEnd),
      sortText: String(index).padStart(3, '0'),
    };
  });
}

function passwordItems({ line, at, options }: Cursor, slot: ValueSlot): CompletionItemData[] {
  const typed = line.text.slice(slot.start, at);
  if (typed.startsWith('env:')) return envItems(options, rangeOf(line.line, slot.start + 4, slot.end), '');
  const range = rangeOf(line.line, slot.start, slot.end);
  return [
    { label: 'env:', kind: 'value', detail: 'password env:NAME — from an environment variable', range, retrigger: true },
    { label: 'secret', kind: 'value', detail: "from the editor's secret storage (the CLI reads RBENCH_PASSWORD)", range },
  ];
}

const LOCAL_URL = 'redis://127.0.0.1:6379';

function targetItems({ options }: Cursor, range: Range): CompletionItemData[] {
  // Names come from the workspace's settings: only one a target line reads as a profile's is inserted.
  const profiles = (options.profiles ?? []).filter(isProfileName).map((name): CompletionItemData => ({
    label: name,
    kind: 'profile',
    detail: 'connection profile',
    range,
    sortText: `0 ${name}`,
  }));
  return [
    ...profiles,
    { label: LOCAL_URL, kind: 'value', detail: 'a local server', range, sortText: '1' },
    { label: `\${env:REDIS_URL:-${LOCAL_URL}}`, kind: 'value', detail: 'REDIS_URL, else a local server', range, sortText: '2' },
  ];
}

/** `expect [COMMAND] METRIC OP VALUE`: the part at the cursor, after what is already written. */
function expectItems(cursor: Cursor, slot: ValueSlot, range: Range): CompletionItemData[] {
  const metric = (word: string | undefined) => EXPECT_METRICS.find((info) => info.name === word);
  const written = slot.args.slice(0, slot.index).map((arg) => arg.value);
  // With a command label first, every later part moves one place to the right.
  const parts = written.length > 0 && !metric(written[0]) ? written.slice(1) : written;
  const labelled = parts !== written;
  if (parts.length === 0) return [...metricItems(range), ...(labelled ? [] : labelItems(cursor, range))];
  const chosen = metric(parts[0]);
  if (!chosen) return [];
  if (parts.length === 1) return COMPARE_OPS.map((op, index) => ({ label: op, kind: 'operator', range, sortText: String(index) }));
  if (parts.length === 2) return [{ label: METRIC_EXAMPLES[chosen.value], kind: 'value', detail: `an example ${chosen.name} value`, range }];
  return [];
}

function metricItems(range: Range): CompletionItemData[] {
  return EXPECT_METRICS.map((info, index) => ({
    label: info.name,
    kind: 'metric',
    detail: info.doc,
    documentation: metricMarkdown(info),
    range,
    sortText: `0 ${String(index).padStart(2, '0')}`,
  }));
}

/** Command labels measured by the scenario (or, at file level, by any scenario): `expect GET p99 < 1ms`. */
function labelItems({ doc, line, options }: Cursor, range: Range): CompletionItemData[] {
  const scenario = scenarioAt(doc, line.line);
  const plans = resolveDocument(doc, { env: { ...options.env } }).scenarios.filter((plan) => !scenario || plan.index === scenario.index);
  const labels = new Set<string>();
  for (const plan of plans) {
    for (const phase of plan.points[0]?.phases ?? []) {
      if (!phase.measured) continue;
      for (const test of phase.tests) for (const { command } of test.commands) labels.add(command.label);
    }
  }
  return [...labels].map((label) => ({ label, kind: 'label', detail: 'a measured command: the check applies to it only', range, sortText: `1 ${label}` }));
}
