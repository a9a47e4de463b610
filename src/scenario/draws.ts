// Placeholders with a number space of their own, beside the phase's `keys`: `__rand(1..1000)__` (whole
// numbers), `__float(0..1000)__` (decimals) and `__range(0..1000,100)__` (two arguments drawn together, the
// second the first plus the width), each with its own distribution. A command may hold any number of them,
// each drawn on its own: a leaderboard's set, member and score spaces are three placeholders. The text is one
// word (no spaces), so the lexer keeps it whole; this file reads it and says what is wrong with it.
import type { ArgPart, DrawDistribution, DrawSpec } from './plan';
import { parseCount } from './units';

export type DrawForm = DrawSpec['form'];

/** One placeholder anywhere in a word: `__rand(…)__`, `__float(…)__`, `__range(…)__` (the parameters without spaces or parentheses). */
export const DRAW_PLACEHOLDER = /__(rand|float|range)\(([^()\s]*)\)__/g;

/** The start of a draw placeholder, to tell one broken by a space (`__range(0..1000, 100)__`) from other text. */
export const DRAW_OPENING = /__(rand|float|range)\(/;

/** Bounds and widths stay within this: whole numbers are then exact, and a float keeps its decimals. */
export const MAX_DRAW_MAGNITUDE = 1e15;

/** Digits after the point a float gets when its bounds show fewer. */
export const DEFAULT_FLOAT_DECIMALS = 3;
const MAX_DECIMALS = 9;

const DISTRIBUTIONS: readonly DrawDistribution[] = ['uniform', 'zipf', 'sequential'];

/** What each form looks like, for completion, hover and messages. */
export const DRAW_FORMS: readonly { form: DrawForm; example: string; doc: string }[] = [
  {
    form: 'rand',
    example: '__rand(1..1000)__',
    doc: 'A whole number in MIN..MAX (both included) with its own distribution: `__rand(1..1000)__`, `__rand(1..10M,zipf)__`, `__rand(1..100,sequential)__`. Each occurrence is drawn on its own.',
  },
  {
    form: 'float',
    example: '__float(0..1000)__',
    doc: 'A decimal number, uniform in MIN..MAX, with as many decimals as the bounds show (at least 3): a sorted-set score.',
  },
  {
    form: 'range',
    example: '__range(0..1000,100)__',
    doc: 'Two arguments drawn together: `a a+WIDTH` with MIN ≤ a and a+WIDTH ≤ MAX (`ZRANGEBYSCORE lb __range(0..1000,100)__`); decimals when a bound or the width has them; an optional distribution for the first.',
  },
];

export type DrawResult = { ok: true; spec: DrawSpec } | { ok: false; message: string };

interface ReadNumber {
  value: number;
  decimals: number;
}

/** `12`, `-5`, `2.5`, `10M`, `1k`: a number as a bound or width is written. */
function readNumber(text: string): ReadNumber | string {
  if (/^-?\d+(\.\d+)?$/.test(text)) return { value: Number(text), decimals: text.includes('.') ? text.length - text.indexOf('.') - 1 : 0 };
  if (/^\d/.test(text)) {
    const count = parseCount(text);
    if (count.ok) return { value: count.value, decimals: 0 };
  }
  return `\`${text}\` is not a number (write 1000, 10M, -5 or 2.5)`;
}

/** Reads `form(inner)`; `text` is the whole placeholder as written. */
export function parseDraw(form: DrawForm, inner: string, text: string): DrawResult {
  const fail = (message: string): DrawResult => ({ ok: false, message: `\`${text}\`: ${message}` });
  const params = inner.split(',');
  const bounds = /^(.*?)\.\.(.*)$/.exec(params[0]);
  const shape = form === 'range' ? `__range(MIN..MAX,WIDTH)__` : `__${form}(MIN..MAX)__`;
  if (!bounds) return fail(`write the range as MIN..MAX, such as ${DRAW_FORMS.find((f) => f.form === form)!.example} (${shape})`);
  const min = readNumber(bounds[1]);
  if (typeof min === 'string') return fail(min);
  const max = readNumber(bounds[2]);
  if (typeof max === 'string') return fail(max);
  let rest = params.slice(1);
  let width: ReadNumber | undefined;
  if (form === 'range') {
    if (rest.length === 0 || rest[0] === '') return fail(`a range needs its width: ${shape}, such as \`__range(0..1000,100)__\``);
    const read = readNumber(rest[0]);
    if (typeof read === 'string') return fail(read);
    width = read;
    rest = rest.slice(1);
  }
  let distribution: DrawDistribution = 'uniform';
  if (rest.length > 0) {
    const name = rest[0].toLowerCase();
    if (!DISTRIBUTIONS.includes(name as DrawDistribution)) return fail(`\`${rest[0]}\` is not a distribution — write uniform, zipf or sequential`);
    distribution = name as DrawDistribution;
    rest = rest.slice(1);
  }
  if (rest.length > 0) return fail(`\`${rest.join(',')}\` is one parameter too many — ${shape}${form === 'float' ? '' : ' and an optional distribution'}`);
  for (const number of [min, max, ...(width ? [width] : [])]) {
    if (Math.abs(number.value) > MAX_DRAW_MAGNITUDE) return fail(`${number.value} is beyond ±1e15 — numbers are kept to 15 digits so that every draw is exact`);
  }
  if (min.value > max.value) return fail(`the minimum ${min.value} is above the maximum ${max.value} — write MIN..MAX with MIN ≤ MAX`);
  const writtenDecimals = Math.max(min.decimals, max.decimals, width?.decimals ?? 0);
  const float = form === 'float' || (form === 'range' && writtenDecimals > 0);
  if (form === 'rand' && writtenDecimals > 0) return fail(`\`__rand\` draws whole numbers — write whole bounds, or \`__float(${params[0]})__\` for decimals`);
  if (writtenDecimals > MAX_DECIMALS) return fail(`at most ${MAX_DECIMALS} digits after the point`);
  if (float && distribution !== 'uniform')
    return fail(`decimal numbers are drawn uniformly — remove \`,${distribution}\`, or draw whole numbers with \`__rand\``);
  if (width) {
    if (width.value < 0) return fail(`the width ${width.value} is negative — the pair is a a+WIDTH with WIDTH ≥ 0`);
    if (width.value > max.value - min.value) {
      return fail(
        `the width ${width.value} is wider than the range ${min.value}..${max.value} — no pair a a+${width.value} fits; widen the range or narrow the width`,
      );
    }
  }
  const spec: DrawSpec = {
    form,
    min: min.value,
    max: max.value,
    distribution,
    decimals: float ? Math.max(writtenDecimals, DEFAULT_FLOAT_DECIMALS) : 0,
    text,
  };
  if (width) spec.width = width.value;
  return { ok: true, spec };
}

/** Every draw placeholder in `word`, where it is and what it reads as. */
export function drawsIn(word: string): { start: number; end: number; form: DrawForm; result: DrawResult }[] {
  if (!word.includes('__')) return [];
  const found: { start: number; end: number; form: DrawForm; result: DrawResult }[] = [];
  for (const match of word.matchAll(DRAW_PLACEHOLDER)) {
    const form = match[1] as DrawForm;
    const start = match.index ?? 0;
    found.push({ start, end: start + match[0].length, form, result: parseDraw(form, match[2], match[0]) });
  }
  return found;
}

/** The whole numbers a whole-number draw can write, or undefined for decimals: an owned key's number field. */
export function drawIntegers(spec: DrawSpec): { min: number; max: number } | undefined {
  if (spec.decimals > 0) return undefined;
  return { min: spec.min, max: spec.max };
}

/** The most characters a draw can write (a minus sign and the decimals included). */
export function drawMaxLength(spec: DrawSpec): number {
  const whole = Math.max(String(Math.trunc(Math.abs(spec.min))).length, String(Math.trunc(Math.abs(spec.max))).length);
  return whole + (spec.min < 0 ? 1 : 0) + (spec.decimals > 0 ? spec.decimals + 1 : 0);
}

/** What a template part is written as in a scenario: its text, a placeholder's name, a draw as written (a range on both its sides). */
export function partText(part: ArgPart): string {
  if (typeof part === 'string') return part;
  if (part.placeholder === 'sha') return `__sha(${part.script ?? ''})__`;
  return part.draw ? part.draw.text : `__${part.placeholder}__`;
}
