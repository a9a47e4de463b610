// Inputs built to cost (nested or repeated markers, long lines, many lines) and the property that
// checking them, and every editor feature on them, costs time in proportion to their size: text of 8n
// bytes may take about 8 times as long as text of n bytes, never the 64 times of a quadratic step.
// Shared by test/unit/scenario/linearity.test.ts and bench/fuzz-language.mjs-style long runs.
import fc from 'fast-check';
import { checkText } from '../../src/scenario';
import { threadCpuMs } from '../../src/engine/threadCpu';
import { checkWithOutline, completions, documentSymbols, foldingRanges, formatText, hover } from '../../src/scenario/features';

/** A family of inputs: `make(bytes)` is about `bytes` long, the same construct at any size. */
export interface Bomb {
  label: string;
  make(bytes: number): string;
}

/** Opening and closing marks: nested k deep, they are `open`×k then `close`×k. */
const PAIRS: readonly (readonly [string, string])[] = [
  ['{', '}'],
  ['{{', '}}'],
  ['{{ ', ' }}'],
  ['${', '}'],
  ['${env:', '}'],
  ['${env:A:-', '}'],
  ['${env:A', '}'],
  ['(', ')'],
  ['(', ')*2'],
  ['( ', ') '],
  ['[', ']'],
  ['"', '"'],
  ["'", "'"],
  ['"\\', '"'],
  ['{{a', '}'],
  ['{{', '}'],
  ['###', ''],
];

/** Units repeated over and over, on one line or many. */
const UNITS: readonly string[] = [
  '__key__',
  '__key__ ',
  '__value__ ',
  '__nope__ ',
  '{{a}}',
  '{{ a }} ',
  '{{missing}} ',
  '${env:A}',
  '${env:UNSET} ',
  '${x}',
  '\\x4',
  'a*2 ',
  '*',
  '%',
  '#',
  '@',
  '=',
  'a ',
  'é',
  '\t',
  '\u00a0',
  '###\n',
  '### s\nPING\n',
  '### a\nPING\n',
  '@a = 1\n',
  '@a = {{a}}\n',
  'pipline 10\n',
  'SET k v\n',
  '1% PING\n',
  'phase a\nPING\n',
  'expect p99 < 2ms\n',
  'server save ""\n',
  'value 1..100\n',
  'keys 10 uniform\n',
  '1,',
  '{\n',
  '}\n',
  '\r',
  '\n',
];

/** What comes before the bomb: nothing, a command, a scenario, a variable, a setting. */
const PREFIXES: readonly string[] = [
  '',
  'SET k ',
  '### s\nSET k ',
  '### s\nSET k "',
  '@a = ',
  '@a = 1\n### s\nSET k ',
  'clients ',
  '### s\nsweep clients ',
  '### s\nPING\nexpect ',
  '# ',
  '### ',
];

const SEPARATORS: readonly string[] = ['', ' ', '\n', '\r\n'];

function repeatTo(unit: string, bytes: number): string {
  return unit.repeat(Math.max(1, Math.ceil(bytes / Math.max(unit.length, 1))));
}

const nested: fc.Arbitrary<Bomb> = fc
  .tuple(fc.constantFrom(...PREFIXES), fc.constantFrom(...PAIRS), fc.constantFrom(...SEPARATORS))
  .map(([prefix, [open, close], separator]) => ({
    label: `${JSON.stringify(prefix)} + ${JSON.stringify(open + separator)}×k + ${JSON.stringify(close + separator)}×k`,
    make: (bytes: number) => {
      const depth = Math.max(1, Math.ceil(bytes / (open.length + close.length + 2 * separator.length)));
      return prefix + (open + separator).repeat(depth) + (close + separator).repeat(depth);
    },
  }));

const repeated: fc.Arbitrary<Bomb> = fc
  .tuple(fc.constantFrom(...PREFIXES), fc.array(fc.constantFrom(...UNITS), { minLength: 1, maxLength: 3 }))
  .map(([prefix, units]) => ({
    label: `${JSON.stringify(prefix)} + ${JSON.stringify(units.join(''))}×k`,
    make: (bytes: number) => prefix + repeatTo(units.join(''), bytes),
  }));

/** Variables defined through each other k deep, then used. */
const chained: fc.Arbitrary<Bomb> = fc.constantFrom(' ', '').map((space) => ({
  label: `@v(i+1) = {{${space}v(i)${space}}} ×k`,
  make: (bytes: number) => {
    const count = Math.max(1, Math.ceil(bytes / 20));
    const lines = Array.from({ length: count }, (_, i) => `@v${i + 1} = {{${space}v${i}${space}}}`);
    return `@v0 = x\n${lines.join('\n')}\n### s\nSET k {{v${count}}}\n`;
  },
}));

/** Every family of costly input. */
export const bombs: fc.Arbitrary<Bomb> = fc.oneof({ weight: 3, arbitrary: nested }, { weight: 3, arbitrary: repeated }, { weight: 1, arbitrary: chained });

/** The fixed cases the issue names (as a line and across lines), checked at a set size. */
export const NAMED_BOMBS: readonly Bomb[] = [
  { label: "'{'×k + '}'×k", make: (bytes) => '{'.repeat(bytes / 2) + '}'.repeat(bytes / 2) },
  { label: "'{\\n'×k + '}\\n'×k", make: (bytes) => '{\n'.repeat(bytes / 4) + '}\n'.repeat(bytes / 4) },
  { label: "'{{'×k + '}}'×k in a command", make: (bytes) => `### s\nSET k ${'{{'.repeat(bytes / 4)}${'}}'.repeat(bytes / 4)}` },
  { label: "'${env:'×k + '}'×k", make: (bytes) => `SET k ${'${env:'.repeat(bytes / 7)}${'}'.repeat(bytes / 7)}` },
];

/**
 * CPU milliseconds of the calling thread: the code under test's, not the process's. Another process's load does
 * not count, nor do this process's other threads: in a long test run V8's helper threads collect the heap of every
 * test before (seen: a 1 MB check "took" 1,009 ms of the process's CPU in a full run, 420–540 of its own thread's).
 */
export function cpuMs(): number {
  const own = threadCpuMs();
  if (own !== undefined) return own;
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The least CPU time of `runs` calls: a loaded machine adds time, never removes it. */
export function leastCpuMs(work: () => void, runs = 3): number {
  let least = Infinity;
  for (let run = 0; run < runs; run++) {
    const started = cpuMs();
    work();
    least = Math.min(least, cpuMs() - started);
  }
  return least;
}

/** A check that threw inside (reported as `internal-error`, a stack overflow for one) fails the property too. */
function checkWhole(text: string): void {
  const internal = checkText(text, { env: { A: 'a' } }).diagnostics.find((diagnostic) => diagnostic.code === 'internal-error');
  if (internal) throw new Error(internal.message);
}

export interface Operation {
  name: string;
  /** How many requests `run` makes (completion and hover ask at several places). */
  calls: number;
  run(text: string): void;
}

/** What is measured on a text: checking, and each editor feature. */
export const OPERATIONS: readonly Operation[] = [
  { name: 'check', calls: 1, run: checkWhole },
  { name: 'diagnostics and outline', calls: 1, run: (text) => checkWithOutline(text, { env: { A: 'a' } }) },
  { name: 'completion', calls: 4, run: (text) => probes(text).forEach((position) => completions(text, position, { env: { A: 'a' } })) },
  { name: 'hover', calls: 4, run: (text) => probes(text).forEach((position) => hover(text, position, { env: { A: 'a' } })) },
  { name: 'symbols', calls: 1, run: (text) => documentSymbols(text) },
  { name: 'folding', calls: 1, run: (text) => foldingRanges(text) },
  { name: 'formatting', calls: 1, run: (text) => formatText(text) },
];

/**
 * CPU milliseconds per request of the named operation on NAMED_BOMBS[bomb] at `bytes`: the lesser of two runs
 * after a warm-up on a small text. Meant for a process of its own (test/helpers/freshProcess.ts).
 */
export function namedBombCpuMs(bomb: number, bytes: number, name: string): number {
  const operation = OPERATIONS.find((candidate) => candidate.name === name);
  if (!operation) throw new Error(`no operation named ${name}`);
  const text = NAMED_BOMBS[bomb].make(bytes);
  operation.run('### s\nSET k {{ }} ${x}\n');
  return leastCpuMs(() => operation.run(text), 2) / operation.calls;
}

/** Positions where a feature is asked: the start, the middle and the end of the longest line, and the last line. */
function probes(text: string): { line: number; character: number }[] {
  const lines = text.split(/\r\n|\r|\n/);
  let longest = 0;
  for (let index = 1; index < lines.length; index++) if (lines[index].length > lines[longest].length) longest = index;
  const last = lines.length - 1;
  return [
    { line: longest, character: 0 },
    { line: longest, character: Math.floor(lines[longest].length / 2) },
    { line: longest, character: lines[longest].length },
    { line: last, character: lines[last].length },
  ];
}

/** Below this the small text's time is noise: the ratio is taken over at least this much. */
export const FLOOR_MS = 5;

export interface Growth {
  small: number;
  big: number;
  ratio: number;
}

/** How the CPU time of `run` grows from a text of `bytes` to one of 8 × `bytes`. */
export function growth(run: (text: string) => void, bomb: Bomb, bytes: number): Growth {
  const small = bomb.make(bytes);
  const big = bomb.make(8 * bytes);
  run(small); // warm up the JIT
  const smallMs = leastCpuMs(() => run(small));
  const bigMs = leastCpuMs(() => run(big));
  return { small: smallMs, big: bigMs, ratio: bigMs / Math.max(smallMs, FLOOR_MS) };
}

/**
 * Fails when `run` on 8 × `bytes` costs more than `limit` times its cost on `bytes`. A ratio over the
 * limit is measured again before failing: one slow run on a shared machine is not a finding.
 */
export function assertLinear(name: string, run: (text: string) => void, bomb: Bomb, bytes: number, limit: number): void {
  // A timing ratio: late in a long test process a collection of the whole heap can land in one measurement,
  // so the best of three attempts is the figure (quadratic growth fails all three by far).
  let measured = growth(run, bomb, bytes);
  for (let attempt = 1; attempt < 3 && measured.ratio > limit; attempt++) measured = growth(run, bomb, bytes);
  if (measured.ratio > limit) {
    throw new Error(
      `${name} on ${bomb.label}: ${bytes} bytes took ${measured.small.toFixed(1)} ms CPU, ${8 * bytes} bytes ${measured.big.toFixed(1)} ms (×${measured.ratio.toFixed(1)}, more than ×${limit})`,
    );
  }
}
