// Reading the value of each setting line, by the `kind` in the settings table. Every reader reports
// a wrong value at its range with the expected form, and returns undefined for it. The readers of the
// larger lines are in their own files: targetValue.ts, sweep.ts, expect.ts and find.ts, all on valueReader.ts.
import * as path from 'node:path';
import type { ClientPath, DataSourcePlan, KeyDistribution, ServerDirective, TtlPlan, ValuePlan } from './plan';
import { readDataLine, readTtl } from './dataValues';
import { MAX_PERCENTILES, percentileValue } from './expect';
import { replaceFix } from './diagnostics';
import { ENV_NAME, type ArgLex } from './lexer';
import { KEY_DISTRIBUTIONS, MANAGED_SERVER_DIRECTIVES, MAX_RAMP_CLIENTS, MAX_VALUE_SIZE } from './settings';
import { groupDigits } from './numberText';
import { SUITE_NAMES, selectSuiteTests, type SuiteTest } from './suites';
import { serverDirectiveRefusal } from './serverDirectives';
import { closest } from './suggest';
import { parseCount, parseDuration, parseInteger, parsePercent, parseRate, parseSize } from './units';
import { readTarget, type TargetValue } from './targetValue';
import { Reader, splitList, words, type Span, type ValueInput } from './valueReader';

export interface PasswordValue {
  env?: string;
  secret?: boolean;
}
export interface RampValue {
  from: number;
  to: number;
  step: number;
  everyMs: number;
}
export interface KeysValue {
  space: number;
  distribution?: KeyDistribution;
  parameter?: number;
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
  /** Requests per connection before it is closed and reopened; 0: off. */
  reconnect: number;
  'idle-connections': number;
  'connect-only': boolean;
  ramp: RampValue;
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
  values: DataSourcePlan;
  fields: DataSourcePlan;
  ttl: TtlPlan;
  cleanup: string;
  percentiles: number[];
  tags: string[];
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
    case 'data':
      return readDataLine(reader);
    case 'ttl':
      return readTtl(reader);
    case 'reconnect':
      return readReconnect(reader);
    case 'ramp':
      return readRamp(reader);
    case 'percentiles':
      return readPercentiles(reader);
    case 'tags':
      return readTags(reader);
    default:
      return undefined;
  }
}

/** `percentiles 50, 99, 99.9`: numbers from 0 to 100, in the order written, each once. */
function readPercentiles(reader: Reader): number[] | undefined {
  const whole = reader.whole();
  if (!whole) return reader.missing();
  const out: number[] = [];
  for (const item of splitList(reader.input.expanded.text, whole.start, whole.end)) {
    const value = percentileValue(item.text);
    if (value === undefined)
      return reader.fail(item, `\`percentiles\` takes numbers from 0 to 100 separated by commas, such as \`50, 99, 99.9, 99.99\` — not \`${item.text}\``);
    if (!out.includes(value)) out.push(value);
  }
  if (out.length > MAX_PERCENTILES) return reader.fail(whole, `\`percentiles\` takes at most ${MAX_PERCENTILES} percentiles, not ${out.length}`);
  return out;
}

const TAG = /^[A-Za-z0-9_.:-]+$/;

/** `tags a, b c`: the tags in lower case, each once. */
function readTags(reader: Reader): string[] | undefined {
  const tags: string[] = [];
  for (const arg of reader.args) {
    for (const part of arg.value.split(',')) {
      if (part === '') continue;
      if (!TAG.test(part)) return reader.fail(arg, `\`${part}\` is not a tag: letters, digits and \`_.:-\`, separated by spaces or commas`);
      tags.push(part.toLowerCase());
    }
  }
  if (tags.length === 0) return reader.missing();
  return [...new Set(tags)];
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

/** `reconnect every N` (N requests per connection) or `reconnect off` (0). */
function readReconnect(reader: Reader): number | undefined {
  const [first, count, ...extra] = reader.args;
  const forms = '`reconnect every N` (requests per connection) or `reconnect off`';
  if (!first) return reader.missing();
  if (extra.length > 0) return reader.fail({ start: extra[0].start, end: extra[extra.length - 1].end }, `\`reconnect\` takes ${forms}`, 'extra-value');
  if (first.value === 'off') return count ? reader.fail(count, `\`reconnect off\` takes nothing more — remove \`${count.value}\``, 'extra-value') : 0;
  if (first.value !== 'every') return reader.fail(first, `\`reconnect\` takes ${forms}, not \`${first.value}\``);
  if (!count) return reader.fail(first, `\`reconnect every\` needs a count: ${forms}`, 'missing-value');
  return reader.unit(count, parseCount(count.value));
}

/** `ramp clients A..B step S every DURATION`. */
function readRamp(reader: Reader): RampValue | undefined {
  const form = '`ramp clients A..B step S every DURATION` (such as `ramp clients 10..200 step 10 every 5s`)';
  const [clientsWord, range, stepWord, stepCount, everyWord, interval, ...extra] = reader.args;
  if (!clientsWord) return reader.missing();
  if (extra.length > 0) return reader.fail({ start: extra[0].start, end: extra[extra.length - 1].end }, `\`ramp\` takes ${form}`, 'extra-value');
  const words: [typeof clientsWord | undefined, string][] = [
    [clientsWord, 'clients'],
    [stepWord, 'step'],
    [everyWord, 'every'],
  ];
  for (const [word, wanted] of words) {
    if (!word) return reader.fail({ start: reader.args[0].start, end: reader.args[reader.args.length - 1].end }, `\`ramp\` takes ${form}`, 'missing-value');
    if (word.value !== wanted) return reader.fail(word, `\`ramp\` takes ${form}: \`${wanted}\` here, not \`${word.value}\``);
  }
  if (!range || !stepCount || !interval) return undefined;
  const dots = range.value.indexOf('..');
  if (dots < 0) return reader.fail(range, `the ramp's clients are a range \`A..B\`, such as \`10..200\`, not \`${range.value}\``);
  const count = (text: string) => {
    const parsed = parseCount(text);
    return parsed.ok && parsed.value >= 1 ? parsed.value : undefined;
  };
  const from = count(range.value.slice(0, dots));
  const to = count(range.value.slice(dots + 2));
  if (from === undefined || to === undefined) return reader.fail(range, `the ramp's clients are two counts ≥ 1, \`A..B\`, not \`${range.value}\``);
  if (to <= from) return reader.fail(range, `the ramp \`${range.value}\` must climb: write the smaller count first, with B above A`);
  if (to > MAX_RAMP_CLIENTS) return reader.fail(range, `a ramp reaches at most ${groupDigits(MAX_RAMP_CLIENTS)} clients`, 'out-of-range');
  const step = count(stepCount.value);
  if (step === undefined) return reader.fail(stepCount, `the ramp's step is a count ≥ 1, not \`${stepCount.value}\``);
  const duration = parseDuration(interval.value);
  if (!duration.ok) return reader.fail(interval, `the ramp's interval: ${duration.message}`);
  if (!(duration.value >= 1000 && duration.value % 1000 === 0))
    return reader.fail(interval, `the ramp's steps last whole seconds (\`1s\`, \`5s\`), not \`${interval.value}\``, 'out-of-range');
  return { from, to, step, everyMs: duration.value };
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
  if (extra.length > 0)
    return reader.fail(
      { start: extra[0].start, end: extra[extra.length - 1].end },
      '`keys` takes at most a count, a distribution and its parameter',
      'extra-value',
    );
  if (!parameterArg) return keys;
  if (distribution !== 'zipf' && distribution !== 'gaussian') {
    return reader.fail(parameterArg, `the \`${distribution}\` distribution takes no parameter — remove \`${parameterArg.value}\``, 'extra-value');
  }
  const number = /^\d+(?:\.\d+)?$/.test(parameterArg.value) ? Number(parameterArg.value) : NaN;
  if (distribution === 'zipf' && !(number > 0)) {
    return reader.fail(parameterArg, `the zipf exponent must be a number above 0, such as \`0.99\` — not \`${parameterArg.value}\``);
  }
  if (distribution === 'gaussian' && !(number > 0 && number <= 1)) {
    return reader.fail(
      parameterArg,
      `the gaussian standard deviation is a fraction of the key space, above 0 and at most 1, such as \`0.1\` — not \`${parameterArg.value}\``,
    );
  }
  keys.parameter = number;
  return keys;
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
    if (parts.length === 0)
      return reader.fail(
        item.start === item.end ? { start: Math.max(0, item.start - 1), end: item.start + 1 } : item,
        '`value` has an empty choice — remove the extra comma',
      );
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
      reader.fail(
        span,
        `\`${match[0]}\` is not a redis-benchmark test${suggestion ? ` — did you mean \`${suggestion}\`?` : ` — use \`default\` or names such as ${SUITE_NAMES.slice(2, 6).join(', ')}`}`,
        'unknown-suite-test',
        fixes,
      );
      continue;
    }
    names.push(name);
  }
  return names.length > 0 ? selectSuiteTests(names) : undefined;
}

const DIRECTIVE = /^[A-Za-z][A-Za-z0-9-]*$/;
/** `server binary NAME`: not a redis.conf directive, the machine's binary the throwaway server starts from. */
export const SERVER_BINARY = 'binary';
const BINARY_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/** `server DIRECTIVE ARGS…`: a redis.conf line for the throwaway server. */
export function readServerDirective(input: ValueInput, binaries?: readonly string[]): ServerDirective | undefined {
  const reader = new Reader(input);
  if (reader.args.length === 0) return reader.missing();
  if (reader.args[0].value.toLowerCase() === SERVER_BINARY) return serverBinaryOf(reader, reader.args, binaries ?? []);
  return serverDirectiveOf(reader, reader.args);
}

/**
 * `server binary NAME`: the throwaway server started from the machine's binary of that name. A file names a
 * binary, never a path: the paths are the user's (the machine setting rbench.serverBinaries, `--server-binary NAME=PATH`).
 */
function serverBinaryOf(reader: Reader, words: readonly ArgLex[], binaries: readonly string[]): ServerDirective | undefined {
  const [keyword, ...args] = words;
  if (args.length !== 1) return reader.fail(keyword, '`server binary` takes one name, such as `server binary valkey8`', 'invalid-value');
  const name = args[0].value;
  if (!BINARY_NAME.test(name))
    return reader.fail(
      args[0],
      `\`${name}\` is not a binary's name: a file names a server binary (letters, digits, \`_.-\`), never a path to execute — define it in the machine setting rbench.serverBinaries`,
      'invalid-value',
    );
  if (!binaries.includes(name)) {
    const known = binaries.length > 0 ? ` (defined: ${binaries.join(', ')})` : '';
    return reader.fail(
      args[0],
      `no server binary is named \`${name}\`${known}: define it in the machine setting rbench.serverBinaries ({"${name}": "/path/to/redis-server"}), or give rbench --server-binary ${name}=PATH`,
      'unknown-server-binary',
    );
  }
  return { name: SERVER_BINARY, args: [name] };
}

/** One directive line's words (`save 60 10000`), checked for the throwaway server: `server` lines and each `sweep server` point. */
export function serverDirectiveOf(reader: Reader, words: readonly ArgLex[]): ServerDirective | undefined {
  const [name, ...args] = words;
  if (!DIRECTIVE.test(name.value))
    return reader.fail(name, `\`${name.value}\` is not a redis.conf directive — write \`server DIRECTIVE ARGS…\`, such as \`server save 60 10000\``);
  const directive = name.value.toLowerCase();
  const refusal = serverDirectiveRefusal(directive);
  if (refusal) return reader.fail(name, refusal, MANAGED_SERVER_DIRECTIVES.includes(directive) ? 'managed-directive' : 'unsafe-directive');
  if (directive === 'unixsocket' && !(args.length === 1 && /^(on|off|yes|no)$/i.test(args[0].value))) {
    const where = args.length > 0 ? { start: args[0].start, end: args[args.length - 1].end } : name;
    return reader.fail(
      where,
      "`server unixsocket` takes `on` or `off`: the throwaway server's socket lives in its own temp dir, and with `on` every connection goes through it",
      'invalid-value',
    );
  }
  if (args.length === 0)
    return reader.fail(
      name,
      `\`server ${directive}\` needs a value, such as \`server ${directive} ${directive === 'save' ? '60 10000' : 'yes'}\``,
      'missing-value',
    );
  return { name: directive, args: args.map((arg) => arg.value) };
}
