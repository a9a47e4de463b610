// Grammar-aware generators for `.rbench` files (fast-check arbitraries) and the properties every
// file must keep: checking never throws, every diagnostic range lies inside the file, the editor
// features answer at any position, and formatting is idempotent and keeps the plan. Shared by the
// bounded test (test/unit/scenario/fuzz.test.ts) and the long run (bench/fuzz-language.mjs).
import fc from 'fast-check';
import { checkText, SETTINGS, type ResolvedFile } from '../../src/scenario';
import { codeActions, completions, documentSymbols, foldingRanges, formatText, hover } from '../../src/scenario/features';

/** An environment in which generated references resolve; `QUOTE` opens a quote when substituted. */
export const FUZZ_ENV: Record<string, string> = { REDIS_URL: 'redis://127.0.0.1:6390', QUOTE: '"', SPACED: 'a  b', EMPTY: '' };

const COMMANDS = [
  'GET',
  'SET',
  'set',
  'INCR',
  'LPUSH',
  'RPOP',
  'HSET',
  'MSET',
  'ZADD',
  'XADD',
  'EVAL',
  'PING',
  'DEL',
  'SADD',
  'KEYS',
  'CONFIG',
  'FLUSHALL',
  'EXPIRE',
  'HGET',
  'SPOP',
];
const PLACEHOLDERS = ['__key__', '__value__', '__rand_int__', '__data__', '__seq__', '__key_', '__nope__'];
const UNITS = [
  '1',
  '0',
  '-1',
  '10',
  '1k',
  '1M',
  '2.5',
  '1e9',
  '99999999999999999999',
  '5ms',
  '1s',
  '30s',
  '2m',
  '1h',
  '1us',
  '100KB',
  '1MiB',
  '10%',
  '80%',
  '1k/s',
  'x2',
  '..',
  'step',
  ',',
];
const VAR_NAMES = ['a', 'b', 'n', 'pfx', 'q', 'v0', 'v1', 'missing', 'a.b-c'];
const SPECIAL = [
  '"',
  "'",
  '\\',
  '{{',
  '}}',
  '${',
  '}',
  '(',
  ')',
  ')*',
  '*',
  '#',
  '@',
  '=',
  '%',
  ':-',
  '\t',
  ' ',
  '\u00a0',
  '\ufeff',
  'é',
  '☕',
  '\u0000',
  '\r',
];

const word = fc.oneof(
  fc.constantFrom(...UNITS),
  fc.constantFrom(...PLACEHOLDERS),
  fc.stringMatching(/^[a-z][a-z0-9:_]{0,8}$/),
  fc.constantFrom(...VAR_NAMES).map((name) => `{{${name}}}`),
  fc
    .constantFrom('REDIS_URL', 'QUOTE', 'SPACED', 'EMPTY', 'UNSET')
    .chain((name) => fc.constantFrom(`\${env:${name}}`, `\${env:${name}:-d}`, `\${env:${name}:-}`)),
  fc.string({ maxLength: 6 }).map((text) => `"${text.replace(/["\\]/g, '\\$&')}"`),
  fc.string({ maxLength: 6 }).map((text) => `'${text.replace(/'/g, '')}'`),
  fc.tuple(fc.stringMatching(/^[a-z_]{1,4}$/), fc.integer({ min: 0, max: 20 })).map(([text, count]) => `${text}*${count}`),
  fc
    .tuple(fc.array(fc.constantFrom('a', '__key__', '__value__', 'x y'), { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 12 }))
    .map(([items, count]) => `(${items.join(' ')})*${count}`),
);

const words = (max: number) => fc.array(word, { maxLength: max }).map((list) => list.join(' '));

const settingLine = fc.oneof(
  fc.constantFrom(...SETTINGS.map((setting) => setting.example)),
  fc.tuple(fc.constantFrom(...SETTINGS.map((setting) => setting.name)), words(4)).map(([name, rest]) => `${name} ${rest}`),
);

const line: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9 _-]{0,12}$/).map((name) => `### ${name}`) },
  { weight: 4, arbitrary: settingLine },
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.option(fc.constantFrom('10%', '80%', '0%', '150%')), fc.constantFrom(...COMMANDS), words(5))
      .map(([weight, command, rest]) => `${weight ? weight + ' ' : ''}${command} ${rest}`),
  },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...VAR_NAMES), words(3)).map(([name, value]) => `@${name} = ${value}`) },
  { weight: 1, arbitrary: fc.constantFrom('phase read', 'phase write', 'prefill', 'prefill load', 'phase', 'phase a b') },
  { weight: 1, arbitrary: fc.constantFrom('expect p99 < 2ms', 'expect GET p50 <= 1ms', 'expect error-rate < 1%', 'expect ops > 10k/s', 'expect nope') },
  { weight: 1, arbitrary: fc.constantFrom('', '  ', '# comment', 'GET k # trailing', '\t') },
);

/** A line with random edits: characters of the language inserted, text deleted or doubled. */
const mutated = fc.tuple(line, fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.constantFrom(...SPECIAL)), { maxLength: 3 })).map(([text, edits]) => {
  let out = text;
  for (const [at, kind, insert] of edits) {
    const position = out.length === 0 ? 0 : at % (out.length + 1);
    if (kind === 0) out = out.slice(0, position) + insert + out.slice(position);
    else if (kind === 1) out = out.slice(0, position) + out.slice(position + 1 + (at % 5));
    else if (kind === 2) out = out.slice(0, position) + out.slice(position, position + 4).repeat(2) + out.slice(position + 4);
    else out = out.toUpperCase();
  }
  return out;
});

/** A whole file: lines of the language, some mutated, joined with one kind of line break. */
export function rbenchFile(maxLines = 40): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.array(fc.oneof({ weight: 3, arbitrary: line }, { weight: 1, arbitrary: mutated }), { maxLength: maxLines }),
      fc.constantFrom('\n', '\r\n', '\r'),
      fc.boolean(),
    )
    .map(([lines, eol, final]) => lines.join(eol) + (final ? eol : ''));
}

/** What a file means: plans and kinds of problems, without ranges or an expectation's spacing. */
export function meaning(resolved: ResolvedFile): unknown {
  const plans = JSON.parse(
    JSON.stringify(resolved.scenarios, (key, value) => {
      if (key === 'range' || key === 'headerRange' || key === 'source') return undefined;
      if (key === 'text' && typeof value === 'string') return value.replace(/\s+/g, ' ');
      return value;
    }),
  );
  const problems = resolved.diagnostics.map((diagnostic) => `${diagnostic.severity} ${diagnostic.code}`).sort();
  return { plans, problems };
}

function fail(message: string): never {
  throw new Error(message);
}

/** Every diagnostic has a forward range inside the text, a code and a message; none is an internal error. */
export function assertDiagnosticsPositioned(resolved: ResolvedFile, text: string): void {
  const lines = text.split(/\r\n|\r|\n/);
  for (const diagnostic of resolved.diagnostics) {
    const { start, end } = diagnostic.range;
    const where = `${diagnostic.code} at ${start.line}:${start.character}-${end.line}:${end.character}: ${diagnostic.message}`;
    if (diagnostic.code === 'internal-error') fail(`checking threw: ${diagnostic.message}`);
    if (!(start.line >= 0 && start.line < lines.length && end.line >= start.line && end.line < lines.length)) fail(`line outside the file: ${where}`);
    if (!(start.character >= 0 && start.character <= lines[start.line].length)) fail(`start outside its line: ${where}`);
    if (!(end.character >= 0 && end.character <= lines[end.line].length)) fail(`end outside its line: ${where}`);
    if (!(end.line > start.line || end.character >= start.character)) fail(`range runs backwards: ${where}`);
    if (!diagnostic.message || !diagnostic.code) fail(`empty message or code: ${where}`);
  }
}

/** Checking, the editor features and formatting hold their properties on `text`. */
export function checkLanguageProperties(text: string, probe = 0): void {
  const resolved = checkText(text, { env: FUZZ_ENV });
  assertDiagnosticsPositioned(resolved, text);
  const lines = text.split(/\r\n|\r|\n/);
  const lineIndex = probe % lines.length;
  const position = { line: lineIndex, character: probe % (lines[lineIndex].length + 1) };
  completions(text, position, { env: FUZZ_ENV });
  hover(text, position, { env: FUZZ_ENV });
  documentSymbols(text);
  foldingRanges(text);
  for (const diagnostic of resolved.diagnostics.slice(0, 5)) codeActions(text, diagnostic.range, { env: FUZZ_ENV });
  const formatted = formatText(text);
  if (formatText(formatted) !== formatted) fail(`formatting is not idempotent:\n${formatted}`);
  const before = JSON.stringify(meaning(resolved));
  const after = JSON.stringify(meaning(checkText(formatted, { env: FUZZ_ENV })));
  if (before !== after) fail(`formatting changed the meaning:\n--- before\n${before}\n--- after\n${after}`);
}
