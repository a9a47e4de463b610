// Reading the value of each setting line, by the `kind` in the settings table. Every reader reports
// a wrong value at its range with the expected form, and returns undefined for it.
import * as path from 'node:path';
import type { ClientPath, CompareOp, Expectation, KeyDistribution, Range, ServerDirective, ValuePlan } from './plan';
import { DiagnosticSink, replaceFix } from './diagnostics';
import { ownValue } from '../gates/plainData';
import type { ExpandedText } from './interpolate';
import { ENV_NAME, isSpace, tokenizeArgs, type ArgLex, type LexProblem } from './lexer';
import {
  EXPECT_METRICS,
  KEY_DISTRIBUTIONS,
  MANAGED_SERVER_DIRECTIVES,
  MAX_SWEEP_POINTS,
  MAX_VALUE_SIZE,
  SETTING_NAMES,
  SWEEP_AXES,
  settingInfo,
  type SettingInfo,
} from './settings';
import { SUITE_NAMES, selectSuiteTests, type SuiteTest } from './suites';
import { serverDirectiveRefusal } from './serverDirectives';
import { redactUrl } from '../protocol/redisUrl';
import { closest } from './suggest';
import { parseCount, parseDuration, parseInteger, parsePercent, parseRate, parseSize, type UnitResult } from './units';
import { isRedisCommand } from './commands';
import { parseRedisUrl } from '../protocol/redisUrl';

export interface TargetValue {
  url?: string;
  profile?: string;
}
export interface PasswordValue {
  env?: string;
  secret?: boolean;
}
export interface KeysValue {
  space: number;
  distribution?: KeyDistribution;
  parameter?: number;
}
export interface SweepValue {
  value: number;
  range: Range;
}
export interface SweepAxis {
  name: string;
  values: SweepValue[];
  range: Range;
}
export interface ExpectValue extends Omit<Expectation, 'text' | 'range'> {
  commandRange?: Range;
}

/** The typed value of each setting stored in a scope. */
export interface SettingValues {
  target: TargetValue;
  user: string;
  password: PasswordValue;
  'sentinel-user': string;
  'sentinel-password': PasswordValue;
  db: number;
  tls: boolean;
  'tls-ca': string;
  'tls-cert': string;
  'tls-key': string;
  'tls-servername': string;
  'tls-insecure': boolean;
  cluster: boolean;
  'replica-reads': boolean;
  resp: 2 | 3;
  client: ClientPath;
  'connect-timeout': number;
  clients: number;
  threads: number | 'auto';
  pipeline: number;
  requests: number;
  duration: number;
  warmup: number;
  'stall-timeout': number;
  rate: number;
  repeat: number;
  keys: KeysValue;
  'key-size': number;
  seed: number;
  value: ValuePlan;
  'value-fill': string;
  cleanup: string;
}

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
interface Span {
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
    this.input.sink.error(this.input.keyword.range, 'missing-value', `\`${setting.name}\` needs a value — write \`${setting.syntax}\`, such as \`${setting.example}\``);
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
    if (max !== undefined && value > max) return this.fail(span, `\`${this.name}\` must be at most ${max.toLocaleString('en-US')}${unit}`, 'out-of-range');
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

const SWITCH_ALIASES: Record<string, 'on' | 'off'> = { true: 'on', yes: 'on', '1': 'on', enabled: 'on', false: 'off', no: 'off', '0': 'off', disabled: 'off' };

/** Reads a plain setting's value (not sweep/suite/server/expect/phase lines). */
export function readSettingValue(input: ValueInput): unknown {
  const reader = new Reader(input);
  switch (input.setting.kind) {
    case 'count':
    case 'integer':
    case 'duration':
    case 'rate': {
      const arg = reader.one();
      if (!arg) return undefined;
      const parse = { count: parseCount, integer: parseInteger, duration: parseDuration, rate: (text: string) => parseRate(text) }[input.setting.kind];
      return reader.unit(arg, parse(arg.value));
    }
    case 'switch': {
      const arg = reader.one();
      return arg && reader.choice(arg, ['on', 'off'] as const, SWITCH_ALIASES) !== undefined ? arg.value === 'on' : undefined;
    }
    case 'choice': {
      const arg = reader.one();
      const value = arg && reader.choice(arg, input.setting.values ?? []);
      if (value === undefined) return undefined;
      return input.setting.name === 'resp' ? Number(value) : value;
    }
    case 'threads': {
      const arg = reader.one();
      if (!arg) return undefined;
      if (arg.value === 'auto') return 'auto';
      const count = parseCount(arg.value);
      if (!count.ok) return reader.fail(arg, `\`threads\` takes a count or \`auto\`: ${count.message}`);
      return reader.bounds(arg, count.value);
    }
    case 'name':
    case 'pattern':
      return reader.one()?.value;
    case 'path': {
      const arg = reader.one();
      if (!arg) return undefined;
      return input.baseDir ? path.resolve(input.baseDir, arg.value) : arg.value;
    }
    case 'password':
      return readPassword(reader);
    case 'target':
      return readTarget(reader);
    case 'keys':
      return readKeys(reader);
    case 'value':
      return readValueSizes(reader);
    default:
      return undefined;
  }
}

function readPassword(reader: Reader): PasswordValue | undefined {
  // `password` and `sentinel-password` read alike; the message names the one written.
  const name = reader.input.setting.name;
  const forms = `write \`${name} env:NAME\` (an environment variable) or \`${name} secret\` (the editor's secret storage; the CLI reads RBENCH_PASSWORD) — never the password itself`;
  const arg = reader.args[0];
  if (!arg) return reader.missing();
  if (reader.args.length > 1) return reader.fail({ start: arg.start, end: reader.args[reader.args.length - 1].end }, `\`${name}\` takes one value: ${forms}`);
  if (arg.value === 'secret') return { secret: true };
  if (arg.value.startsWith('env:')) {
    const name = arg.value.slice(4);
    if (ENV_NAME.test(name)) return { env: name };
    return reader.fail(arg, `\`${name}\` is not an environment variable name — ${forms}`);
  }
  return reader.fail(arg, `\`${name}\`: ${forms}`, 'literal-password');
}

const PROFILE_NAME = /^[A-Za-z][A-Za-z0-9_.-]*$/;

/** The runner's own parse, said at the line; a password written in the file is refused as for redis:// URLs. */
function readSentinelTarget(reader: Reader, arg: Reader['args'][number]): TargetValue | undefined {
  const parsed = parseRedisUrl(arg.value);
  if (typeof parsed === 'string') return reader.fail(arg, parsed.replace(/^the target "[^"]*"/, `\`${redactUrl(arg.value)}\``), 'invalid-target');
  if (parsed.password !== undefined && reader.input.expanded.originsIn(arg.start, arg.end).has('file')) {
    return reader.fail(arg, 'a password written in the file ends up in git — remove it from the URL and use `password env:NAME` or `password secret`', 'literal-password');
  }
  return { url: arg.value };
}

function readTarget(reader: Reader): TargetValue | undefined {
  const arg = reader.one();
  if (!arg) return undefined;
  const value = arg.value;
  const schemeEnd = value.indexOf('://');
  if (schemeEnd < 0) {
    if (PROFILE_NAME.test(value)) return { profile: value };
    const fixes = /^[\w.-]+(:\d+)?(\/\d+)?$/.test(value) ? [replaceFix(reader.range(arg), `redis://${value}`)] : undefined;
    return reader.fail(arg, `\`${value}\` is neither a URL nor a profile name — write \`redis://${value}\` (or \`rediss://\` for TLS), or a profile name from the editor settings`, 'invalid-target', fixes);
  }
  const scheme = value.slice(0, schemeEnd).toLowerCase();
  if (scheme === 'redis-sentinel' || scheme === 'rediss-sentinel') return readSentinelTarget(reader, arg);
  if (scheme === 'unix') {
    // The same checks the runner makes (absolute path, only ?db=N, length), said at the line.
    const parsed = parseRedisUrl(value);
    return typeof parsed === 'string' ? reader.fail(arg, parsed.replace(/^the target "[^"]*"/, `\`${value}\``), 'invalid-target') : { url: value };
  }
  if (scheme !== 'redis' && scheme !== 'rediss') {
    return reader.fail(
      arg,
      `\`${scheme}://\` is not supported — write a \`redis://\` or \`rediss://\` URL, \`unix:///path/redis.sock\` for a unix socket, or \`redis-sentinel://host:26379/name\` for a Sentinel-managed primary`,
      'invalid-target',
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return reader.fail(arg, `\`${redactUrl(value)}\` is not a valid URL — write \`${scheme}://host:port/db\`, such as \`redis://127.0.0.1:6379\``, 'invalid-target');
  }
  if (!url.hostname) return reader.fail(arg, `\`${redactUrl(value)}\` has no host — write \`${scheme}://host:port\``, 'invalid-target');
  if (url.search || url.hash) return reader.fail(arg, 'URL options (`?…`, `#…`) are not read — use the settings `db`, `tls` and `user` instead', 'invalid-target');
  if (url.pathname !== '' && url.pathname !== '/' && !/^\/\d+$/.test(url.pathname)) {
    return reader.fail(arg, `\`${url.pathname}\` is not a database number — end the URL with \`/N\`, such as \`/0\`, or use \`db N\``, 'invalid-target');
  }
  if (url.password) {
    // Locate the password to learn where its characters came from (the file, or the environment).
    const authorityStart = schemeEnd + 3;
    const slash = value.indexOf('/', authorityStart);
    const userInfoEnd = value.lastIndexOf('@', (slash < 0 ? value.length : slash) - 1);
    const colon = value.indexOf(':', authorityStart);
    const from = arg.quoted ? arg.start : arg.start + colon + 1;
    const to = arg.quoted ? arg.end : arg.start + userInfoEnd;
    if (reader.input.expanded.originsIn(from, to).has('file')) {
      const withoutPassword = value.slice(0, colon) + value.slice(userInfoEnd);
      const fixes = reader.input.expanded.isSubstituted(arg.start, arg.end)
        ? undefined
        : [replaceFix(reader.range(arg), withoutPassword, 'Remove the password from the URL')];
      return reader.fail(
        arg,
        'a password written in the file ends up in git — remove it from the URL and use `password env:NAME` or `password secret` (the editor\'s secret storage)',
        'literal-password',
        fixes,
      );
    }
  }
  return { url: value };
}

function readKeys(reader: Reader): KeysValue | undefined {
  const [spaceArg, distributionArg, parameterArg, ...extra] = reader.args;
  if (!spaceArg) return reader.missing();
  const space = reader.unit(spaceArg, parseCount(spaceArg.value));
  if (space === undefined) return undefined;
  const keys: KeysValue = { space };
  if (!distributionArg) return keys;
  const distribution = reader.choice(distributionArg, KEY_DISTRIBUTIONS);
  if (!distribution) return undefined;
  keys.distribution = distribution;
  if (extra.length > 0) return reader.fail({ start: extra[0].start, end: extra[extra.length - 1].end }, '`keys` takes at most a count, a distribution and its parameter', 'extra-value');
  if (!parameterArg) return keys;
  if (distribution !== 'zipf' && distribution !== 'gaussian') {
    return reader.fail(parameterArg, `the \`${distribution}\` distribution takes no parameter — remove \`${parameterArg.value}\``, 'extra-value');
  }
  const number = /^\d+(?:\.\d+)?$/.test(parameterArg.value) ? Number(parameterArg.value) : NaN;
  if (distribution === 'zipf' && !(number > 0)) {
    return reader.fail(parameterArg, `the zipf exponent must be a number above 0, such as \`0.99\` — not \`${parameterArg.value}\``);
  }
  if (distribution === 'gaussian' && !(number > 0 && number <= 1)) {
    return reader.fail(parameterArg, `the gaussian standard deviation is a fraction of the key space, above 0 and at most 1, such as \`0.1\` — not \`${parameterArg.value}\``);
  }
  keys.parameter = number;
  return keys;
}

/** Splits `text` on commas into trimmed items with offsets. */
export function splitList(text: string, from: number, to: number): Span[] {
  const items: Span[] = [];
  let itemStart = from;
  for (let i = from; i <= to; i++) {
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

function words(span: Span): Span[] {
  const result: Span[] = [];
  const pattern = /\S+/g;
  for (const match of span.text.matchAll(pattern)) {
    const start = span.start + (match.index ?? 0);
    result.push({ text: match[0], start, end: start + match[0].length });
  }
  return result;
}

function readValueSizes(reader: Reader): ValuePlan | undefined {
  const whole = reader.whole();
  if (!whole) return undefined;
  const size = (span: Span): number | undefined => {
    const result = parseSize(span.text);
    if (!result.ok) return reader.fail(span, `\`value\`: ${result.message}`);
    if (result.value > MAX_VALUE_SIZE) return reader.fail(span, '`value` must be at most 512MB (the largest Redis string)', 'out-of-range');
    return result.value;
  };
  const items = splitList(reader.input.expanded.text, whole.start, whole.end);
  if (items.length === 1 && items[0].text.includes('..')) {
    const item = items[0];
    const dots = item.text.indexOf('..');
    const minSpan = { text: item.text.slice(0, dots), start: item.start, end: item.start + dots };
    const maxSpan = { text: item.text.slice(dots + 2), start: item.start + dots + 2, end: item.end };
    const min = size(minSpan);
    const max = size(maxSpan);
    if (min === undefined || max === undefined) return undefined;
    if (min > max) return reader.fail(item, `the range \`${item.text}\` runs backwards — write the smaller size first: \`${maxSpan.text}..${minSpan.text}\``);
    return min === max ? { kind: 'fixed', size: min } : { kind: 'range', min, max };
  }
  const choices: { size: number; weight: number; weighted: boolean; span: Span }[] = [];
  for (const item of items) {
    const parts = words(item);
    if (parts.length === 0) return reader.fail(item.start === item.end ? { start: Math.max(0, item.start - 1), end: item.start + 1 } : item, '`value` has an empty choice — remove the extra comma');
    if (parts.length > 2 || (parts.length === 2 && !parts[1].text.endsWith('%'))) {
      return reader.fail(item, `\`value\` choices are \`SIZE\` or \`SIZE W%\`, separated by commas: \`64 80%, 1KB 20%\` — not \`${item.text}\``);
    }
    const bytes = size(parts[0]);
    if (bytes === undefined) return undefined;
    let weight = 1;
    if (parts.length === 2) {
      const percent = parsePercent(parts[1].text);
      if (!percent.ok) return reader.fail(parts[1], `\`value\`: ${percent.message}`);
      weight = percent.value;
    }
    choices.push({ size: bytes, weight, weighted: parts.length === 2, span: item });
  }
  if (choices.length === 1 && !choices[0].weighted) return { kind: 'fixed', size: choices[0].size };
  const mixed = choices.find((choice) => choice.weighted !== choices[0].weighted);
  if (mixed) return reader.fail(mixed.span, 'give every `value` choice a weight, or none (equal weights)');
  const total = choices.reduce((sum, choice) => sum + choice.weight, 0);
  if (total <= 0) return reader.fail(whole, '`value` weights must add up to more than 0%');
  return { kind: 'weighted', choices: choices.map((choice) => ({ size: choice.size, weight: choice.weight / total })) };
}

/** `sweep AXIS v1, v2, a..b step s`: the axis and its values (each with its range). */
export function readSweep(input: ValueInput): SweepAxis | undefined {
  const reader = new Reader(input);
  const axisArg = reader.args[0];
  if (!axisArg) return reader.missing();
  const axes = Object.keys(SWEEP_AXES);
  const list = axes.map((axis) => `\`${axis}\``).join(', ');
  if (!axes.includes(axisArg.value)) {
    if (SETTING_NAMES.includes(axisArg.value)) return reader.fail(axisArg, `\`${axisArg.value}\` cannot be swept — sweep one of ${list}`);
    reader.choice(axisArg, axes);
    return undefined;
  }
  const axis = axisArg.value;
  const text = input.expanded.text;
  const rest = { start: axisArg.end, end: text.length };
  if (reader.args.length < 2) return reader.fail(axisArg, `\`sweep ${axis}\` needs values — write \`sweep ${axis} 1, 2, 4\` or \`sweep ${axis} 1..64 step x2\``, 'missing-value');
  const kind = SWEEP_AXES[axis];
  const info = settingInfo(axis)!;
  const parseValue = (span: Span): number | undefined => {
    const result = kind === 'size' ? parseSize(span.text) : kind === 'rate' ? parseRate(span.text, true) : parseCount(span.text);
    if (!result.ok) return reader.fail(span, `\`sweep ${axis}\`: ${result.message}`);
    if (info.min !== undefined && result.value < info.min) return reader.fail(span, `\`${axis}\` must be at least ${info.min}`, 'out-of-range');
    if (info.max !== undefined && result.value > info.max) return reader.fail(span, `\`${axis}\` must be at most ${info.max.toLocaleString('en-US')}`, 'out-of-range');
    return result.value;
  };
  const values: SweepValue[] = [];
  for (const item of splitList(text, rest.start, rest.end)) {
    const parts = words(item);
    if (parts.length === 0) return reader.fail({ start: Math.max(0, item.start - 1), end: item.start + 1 }, `\`sweep ${axis}\` has an empty value — remove the extra comma`);
    const range = reader.range(item);
    const dots = parts[0].text.indexOf('..');
    if (dots < 0) {
      if (parts.length > 1) return reader.fail(item, `separate sweep values with commas: \`${parts.map((part) => part.text).join(', ')}\``);
      const value = parseValue(parts[0]);
      if (value === undefined) return undefined;
      values.push({ value, range });
      continue;
    }
    const first = parseValue({ text: parts[0].text.slice(0, dots), start: parts[0].start, end: parts[0].start + dots });
    const last = parseValue({ text: parts[0].text.slice(dots + 2), start: parts[0].start + dots + 2, end: parts[0].end });
    if (first === undefined || last === undefined) return undefined;
    if (first > last) return reader.fail(parts[0], `the range \`${parts[0].text}\` runs backwards — write the smaller value first`);
    let step = 1;
    let factor: number | undefined;
    if (parts.length > 1) {
      if (parts[1].text !== 'step' || parts.length !== 3) {
        return reader.fail({ start: parts[1].start, end: item.end }, `write a range as \`a..b\`, \`a..b step N\` or \`a..b step x2\` — not \`${item.text}\``);
      }
      const stepText = parts[2].text;
      if (/^[x*]/.test(stepText)) {
        factor = Number(stepText.slice(1));
        if (!(factor > 1)) return reader.fail(parts[2], `a geometric step is a factor above 1, such as \`x2\` — not \`${stepText}\``);
        if (first === 0) return reader.fail(parts[0], 'a geometric range cannot start at 0 — start at 1 or more');
      } else {
        const parsed = kind === 'size' ? parseSize(stepText) : kind === 'rate' ? parseRate(stepText, true) : parseCount(stepText);
        if (!parsed.ok || parsed.value < 1) return reader.fail(parts[2], `\`step\` takes a whole number above 0 or a factor such as \`x2\` — not \`${stepText}\``);
        step = parsed.value;
      }
    }
    const count = factor ? Math.floor(Math.log(last / first) / Math.log(factor) + 1e-9) + 1 : Math.floor((last - first) / step) + 1;
    if (values.length + count > MAX_SWEEP_POINTS) return reader.fail(item, `this sweep has more than ${MAX_SWEEP_POINTS.toLocaleString('en-US')} values — use a larger step`, 'too-many-points');
    let previous = -1;
    for (let i = 0; i < count; i++) {
      const value = factor ? Math.round(first * factor ** i) : first + i * step;
      if (value !== previous && value <= last) values.push({ value, range });
      previous = value;
    }
  }
  return { name: axis, values, range: reader.range(rest) };
}

/** `suite default` or `suite set,get`: the selected tests in redis-benchmark's order. */
export function readSuite(input: ValueInput): SuiteTest[] | undefined {
  const reader = new Reader(input);
  const whole = reader.whole();
  if (!whole) return undefined;
  const names: string[] = [];
  const pattern = /[^\s,]+/g;
  for (const match of whole.text.matchAll(pattern)) {
    const name = match[0].toLowerCase();
    const start = whole.start + (match.index ?? 0);
    if (name !== 'default' && !SUITE_NAMES.includes(name)) {
      const span = { start, end: start + match[0].length };
      const suggestion = input.sink.full ? undefined : closest(name, ['default', ...SUITE_NAMES]);
      const fixes = suggestion && !input.expanded.isSubstituted(span.start, span.end) ? [replaceFix(reader.range(span), suggestion)] : undefined;
      reader.fail(span, `\`${match[0]}\` is not a redis-benchmark test${suggestion ? ` — did you mean \`${suggestion}\`?` : ` — use \`default\` or names such as ${SUITE_NAMES.slice(2, 6).join(', ')}`}`, 'unknown-suite-test', fixes);
      continue;
    }
    names.push(name);
  }
  return names.length > 0 ? selectSuiteTests(names) : undefined;
}

const DIRECTIVE = /^[A-Za-z][A-Za-z0-9-]*$/;

/** `server DIRECTIVE ARGS…`: a redis.conf line for the throwaway server. */
export function readServerDirective(input: ValueInput): ServerDirective | undefined {
  const reader = new Reader(input);
  const [name, ...args] = reader.args;
  if (!name) return reader.missing();
  if (!DIRECTIVE.test(name.value)) return reader.fail(name, `\`${name.value}\` is not a redis.conf directive — write \`server DIRECTIVE ARGS…\`, such as \`server save 60 10000\``);
  const directive = name.value.toLowerCase();
  const refusal = serverDirectiveRefusal(directive);
  if (refusal) return reader.fail(name, refusal, MANAGED_SERVER_DIRECTIVES.includes(directive) ? 'managed-directive' : 'unsafe-directive');
  if (directive === 'unixsocket' && !(args.length === 1 && /^(on|off|yes|no)$/i.test(args[0].value))) {
    const where = args.length > 0 ? { start: args[0].start, end: args[args.length - 1].end } : name;
    return reader.fail(where, '`server unixsocket` takes `on` or `off`: the throwaway server\'s socket lives in its own temp dir, and with `on` every connection goes through it', 'invalid-value');
  }
  if (args.length === 0) return reader.fail(name, `\`server ${directive}\` needs a value, such as \`server ${directive} ${directive === 'save' ? '60 10000' : 'yes'}\``, 'missing-value');
  return { name: directive, args: args.map((arg) => arg.value) };
}

export interface ExpectParts {
  command?: Span;
  metric: Span;
  op: Span;
  value: Span;
}

const EXPECT_SHAPE = /^(?:(\S+)\s+)?([^\s<>=!]+)\s*(<=|>=|!=|==|<|>|=)\s*(\S+)$/d;

/** Splits `[COMMAND] METRIC OP VALUE`; spaces around the operator are optional. */
export function splitExpect(text: string, from: number, to: number): ExpectParts | undefined {
  // Expectations are short; refusing long text keeps the pattern match linear on hostile input.
  if (to - from > 200) return undefined;
  const match = EXPECT_SHAPE.exec(text.slice(from, to));
  if (!match?.indices) return undefined;
  const span = (group: number): Span => {
    const [start, end] = match.indices![group];
    return { text: match[group], start: from + start, end: from + end };
  };
  const parts: ExpectParts = { metric: span(2), op: span(3), value: span(4) };
  if (match[1] !== undefined) parts.command = span(1);
  return parts;
}

export function readExpect(input: ValueInput): ExpectValue | undefined {
  const reader = new Reader(input);
  const whole = reader.whole();
  if (!whole) return undefined;
  const parts = splitExpect(input.expanded.text, whole.start, whole.end);
  if (!parts) return reader.fail(whole, `write \`expect [COMMAND] METRIC OP VALUE\`, such as \`expect p99 < 2ms\` or \`expect GET throughput > 100k/s\` — not \`${whole.text}\``);
  const metricInfo = EXPECT_METRICS.find((info) => info.name === parts.metric.text);
  if (!metricInfo) {
    reader.choice({ kind: 'word', start: parts.metric.start, end: parts.metric.end, value: parts.metric.text, quoted: false }, EXPECT_METRICS.map((info) => info.name));
    return undefined;
  }
  const op = (parts.op.text === '==' ? '=' : parts.op.text) as CompareOp;
  const valueText = parts.value.text;
  let value: number | undefined;
  const problem = (result: UnitResult) => (result.ok ? result.value : reader.fail(parts.value, `\`expect ${metricInfo.name}\`: ${result.message}`));
  switch (metricInfo.value) {
    case 'rate':
      value = problem(parseRate(valueText, true));
      break;
    case 'duration':
      value = problem(parseDuration(valueText));
      if (value !== undefined) value = Math.round(value * 1000 * 1000) / 1000; // ms → µs
      break;
    case 'count':
      value = problem(parseCount(valueText));
      break;
    case 'fraction':
      if (valueText.endsWith('%')) {
        value = problem(parsePercent(valueText));
        if (value !== undefined) value /= 100;
      } else if (/^(?:0(?:\.\d+)?|1(?:\.0+)?)$/.test(valueText)) {
        value = Number(valueText);
      } else {
        value = reader.fail(parts.value, `\`expect error-rate\` takes a percentage such as \`0.1%\` or a fraction from 0 to 1 — not \`${valueText}\``);
      }
      break;
  }
  if (value === undefined) return undefined;
  const expectation: ExpectValue = { metric: metricInfo.metric, op, value };
  if (parts.command) {
    expectation.command = parts.command.text.toUpperCase();
    expectation.commandRange = reader.range(parts.command);
  }
  return expectation;
}
