// Numbers with units, as written in `.rbench` files: counts (`1M`), durations (`30s`), sizes (`1KB`),
// rates (`20k/s`) and percentages (`80%`). Each parser returns a value or a message naming the
// expected form, so every caller reports wrong values the same way.
import { editDistance } from './suggest';

export type UnitResult = { ok: true; value: number } | { ok: false; message: string };

const ok = (value: number): UnitResult => ({ ok: true, value });
const fail = (message: string): UnitResult => ({ ok: false, message });

const COUNT_SUFFIX: Record<string, number> = { k: 1e3, K: 1e3, M: 1e6, G: 1e9 };
const COUNT_PATTERN = /^(\d[\d_]*)(?:\.(\d+))?([A-Za-z]*)$/;
export const COUNT_FORM = 'a whole number such as `100`, `100k`, `2.5M` or `1_000_000`';

/** Parses a count: `100`, `1_000_000`, `100k`, `2.5M`, `1G`, and `A/B` (rounded up). */
export function parseCount(text: string): UnitResult {
  const slash = text.indexOf('/');
  if (slash >= 0) {
    const dividend = parseSimpleCount(text.slice(0, slash));
    if (!dividend.ok) return dividend;
    const divisor = parseSimpleCount(text.slice(slash + 1));
    if (!divisor.ok)
      return fail(`\`${text}\` divides by \`${text.slice(slash + 1)}\`, which is not a count — write ${COUNT_FORM}, optionally divided by one: \`1M/100\``);
    if (divisor.value === 0) return fail(`\`${text}\` divides by zero`);
    return ok(Math.ceil(dividend.value / divisor.value));
  }
  return parseSimpleCount(text);
}

function parseSimpleCount(text: string): UnitResult {
  const match = COUNT_PATTERN.exec(text);
  if (!match || match[1].endsWith('_')) return fail(`\`${text}\` is not a count — write ${COUNT_FORM}`);
  const [, whole, fraction, suffix] = match;
  let multiplier = 1;
  if (suffix) {
    if (suffix === 'm')
      return fail(`\`${text}\` is ambiguous — write \`${whole}${fraction ? '.' + fraction : ''}M\` for millions (durations go in \`duration\`)`);
    const known = COUNT_SUFFIX[suffix];
    if (known === undefined) return fail(`\`${text}\` has an unknown suffix \`${suffix}\` — ${UNIT_HINTS.count}: ${COUNT_FORM}`);
    multiplier = known;
  }
  const value = Number(`${whole.replace(/_/g, '')}${fraction ? '.' + fraction : ''}`) * multiplier;
  // Round away float noise (2.3M = 2299999.9999…) before checking for wholeness.
  const rounded = Math.round(value);
  if (Math.abs(value - rounded) > 1e-6) return fail(`\`${text}\` is not a whole number — write ${COUNT_FORM}`);
  if (!Number.isSafeInteger(rounded)) return fail(`\`${text}\` is too large`);
  return ok(rounded);
}

/** A plain whole number without suffixes (`db 2`, `seed 42`, `resp 3`). */
export function parseInteger(text: string): UnitResult {
  if (!/^\d+$/.test(text)) return fail(`\`${text}\` is not a whole number — write digits, such as \`0\` or \`42\``);
  const value = Number(text);
  if (!Number.isSafeInteger(value)) return fail(`\`${text}\` is too large`);
  return ok(value);
}

const DURATION_MS: Record<string, number> = { us: 0.001, µs: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION_PATTERN = /^(\d+(?:\.\d+)?)([a-zµ]*)$/;
export const DURATION_FORM = 'a number with a unit: `500us`, `2ms`, `30s`, `5m` or `1h`';

/** Parses a duration into milliseconds (fractions allowed: `500us` = 0.5). */
export function parseDuration(text: string): UnitResult {
  const match = DURATION_PATTERN.exec(text);
  if (!match) return fail(`\`${text}\` is not a duration — write ${DURATION_FORM}`);
  const [, number, unit] = match;
  if (!unit) return fail(`\`${text}\` needs a unit — write \`${number}s\`, \`${number}ms\` or \`${number}us\``);
  const multiplier = DURATION_MS[unit];
  if (multiplier === undefined) return fail(`\`${text}\` has an unknown unit \`${unit}\` — ${UNIT_HINTS.duration}`);
  return ok(Number(number) * multiplier);
}

// Redis's own convention (redis.conf): `1k` = 1000 bytes, `1kb` = 1024 bytes, case-insensitive.
const SIZE_BYTES: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1e3,
  kb: 1024,
  kib: 1024,
  m: 1e6,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1e9,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};
const SIZE_PATTERN = /^(\d[\d_]*(?:\.\d+)?)([A-Za-z]*)$/;
export const SIZE_FORM = 'a size in bytes such as `100`, `748`, `1KB` (1024) or `1k` (1000)';

/** Parses a size into bytes. */
export function parseSize(text: string): UnitResult {
  const match = SIZE_PATTERN.exec(text);
  if (!match || match[1].endsWith('_')) return fail(`\`${text}\` is not a size — write ${SIZE_FORM}`);
  const multiplier = SIZE_BYTES[match[2].toLowerCase()];
  if (multiplier === undefined) return fail(`\`${text}\` has an unknown unit \`${match[2]}\` — ${UNIT_HINTS.size}`);
  const value = Number(match[1].replace(/_/g, '')) * multiplier;
  const rounded = Math.round(value);
  if (Math.abs(value - rounded) > 1e-6) return fail(`\`${text}\` is not a whole number of bytes`);
  if (!Number.isSafeInteger(rounded)) return fail(`\`${text}\` is too large`);
  return ok(rounded);
}

export const RATE_FORM = 'requests per second such as `20k/s` or `500/s`';

/** Parses a rate `20k/s` into requests per second. With `bareCountAllowed`, `20k` is accepted too. */
export function parseRate(text: string, bareCountAllowed = false): UnitResult {
  if (text.endsWith('/s')) {
    const count = parseSimpleCount(text.slice(0, -2));
    if (!count.ok) return fail(`\`${text}\` is not a rate — write ${RATE_FORM}`);
    return count;
  }
  const count = parseSimpleCount(text);
  if (count.ok && bareCountAllowed) return count;
  if (count.ok) return fail(`\`${text}\` needs \`/s\` — write \`${text}/s\``);
  return fail(`\`${text}\` is not a rate — write ${RATE_FORM}`);
}

/** Parses `80%` or `0.1%` into the number before the `%` (80, 0.1). */
export function parsePercent(text: string): UnitResult {
  const match = /^(\d+(?:\.\d+)?)%$/.exec(text);
  if (!match) return fail(`\`${text}\` is not a percentage — write a number followed by \`%\`, such as \`80%\``);
  return ok(Number(match[1]));
}

export type UnitFamily = 'count' | 'duration' | 'size';

/** The end of an "unknown unit" message, per family: how a quick fix knows which units to offer. */
const UNIT_HINTS: Record<UnitFamily, string> = {
  count: 'counts take `k`, `M` or `G`',
  duration: `write ${DURATION_FORM}`,
  size: 'sizes take `B`, `KB`, `MB`, `GB` (1024-based) or `k`, `m`, `g` (1000-based)',
};

/** The units of each family, likeliest first (a tie between two near units goes to the earlier). */
const UNIT_NAMES: Record<UnitFamily, readonly string[]> = {
  count: ['k', 'M', 'G'],
  duration: ['ms', 's', 'us', 'm', 'h'],
  size: ['KB', 'MB', 'GB', 'B', 'k', 'm', 'g'],
};

/** The family whose unit a parse message says is unknown, or undefined for other messages. */
export function unknownUnitFamily(message: string): UnitFamily | undefined {
  if (!/has an unknown (?:unit|suffix)/.test(message)) return undefined;
  return (Object.keys(UNIT_HINTS) as UnitFamily[]).find((family) => message.includes(UNIT_HINTS[family]));
}

/** `10QB` → `10KB`, `10MB`, `10GB`: the value with the nearest known units (one edit away), up to three. */
export function unitSuggestions(text: string, family: UnitFamily): string[] {
  const match = /^(\d[\d_]*(?:\.\d+)?)([A-Za-zµ]+)$/.exec(text);
  if (!match) return [];
  const [, number, unit] = match;
  // Sizes ignore case (as redis.conf does); counts and durations do not (`m` is minutes, `M` millions).
  const fold = (u: string) => (family === 'size' ? u.toLowerCase() : u);
  const distances = UNIT_NAMES[family].map((name) => ({ name, distance: editDistance(fold(unit), fold(name), 2) }));
  const best = Math.min(...distances.map((d) => d.distance));
  if (best > 1) return [];
  return distances
    .filter((d) => d.distance === best)
    .slice(0, 3)
    .map((d) => `${number}${d.name}`);
}

/** The number of decimal digits of the largest key number in a space of `space` keys. */
export function keyDigits(space: number): number {
  return String(Math.max(0, space - 1)).length;
}
