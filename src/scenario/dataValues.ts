// The readers of `values from FILE …`, `fields from FILE …` and `ttl MIN..MAX` lines. A data file is read
// here, when its line is checked (dataFile.ts), so `rbench check` and the editor report a bad file at the
// line that names it, with the data file's own line.
import { readDataSource, type DataSelection } from './dataFile';
import type { DataSourcePlan, TtlPlan } from './plan';
import { parseDuration } from './units';
import type { Reader } from './valueReader';

/** The longest expiry accepted: ten years (Redis takes more, but no benchmark needs it). */
export const MAX_TTL_MS = 10 * 365 * 24 * 3600 * 1000;

export function readDataLine(reader: Reader): DataSourcePlan | undefined {
  const name = reader.name;
  const take = name === 'fields' ? 'fields' : 'values';
  const form = take === 'fields' ? '`fields from FILE [in order]`' : '`values from FILE [column NAME | field NAME] [in order]`';
  const [from, file, ...rest] = reader.args;
  if (!from) return reader.missing();
  if (from.value !== 'from') return reader.fail(from, `write ${form}, such as \`${reader.input.setting.example}\``);
  if (!file) return reader.fail(from, `\`${name} from\` needs a file — write ${form}`, 'missing-value');
  const selection: DataSelection = { file: file.value, take, order: 'key' };
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i];
    if ((word.value === 'column' || word.value === 'field') && take === 'values') {
      const picked = rest[i + 1];
      if (!picked) return reader.fail(word, `\`${word.value}\` needs a name — write \`${word.value} NAME\``, 'missing-value');
      if (selection.column !== undefined || selection.field !== undefined)
        return reader.fail(word, 'take one column or one field — a value comes from one place', 'extra-value');
      if (word.value === 'column') selection.column = picked.value;
      else selection.field = picked.value;
      i++;
    } else if (word.value === 'in' && rest[i + 1]?.value === 'order') {
      selection.order = 'sequence';
      i++;
    } else {
      const end = rest[rest.length - 1];
      return reader.fail({ start: word.start, end: end.end }, `\`${name}\` takes ${form} — not \`${word.value}\``, 'extra-value');
    }
  }
  const format = file.value.toLowerCase();
  if (selection.column !== undefined && !format.endsWith('.csv')) return reader.fail(file, '`column` is for a `.csv` file — for JSON Lines write `field NAME`');
  if (selection.field !== undefined && !/\.(jsonl|ndjson)$/.test(format))
    return reader.fail(file, '`field` is for a `.jsonl` (JSON Lines) file — for a CSV write `column NAME`');
  const read = readDataSource(selection, reader.input.baseDir);
  if (!read.ok) return reader.fail(file, read.message, read.code);
  return read.source;
}

export function readTtl(reader: Reader): TtlPlan | undefined {
  const arg = reader.one();
  if (!arg) return undefined;
  const dots = arg.value.indexOf('..');
  const texts = dots >= 0 ? [arg.value.slice(0, dots), arg.value.slice(dots + 2)] : [arg.value, arg.value];
  const values: number[] = [];
  for (const text of texts) {
    const parsed = parseDuration(text);
    if (!parsed.ok) return reader.fail(arg, `\`ttl\`: ${parsed.message}`);
    if (parsed.value < 1) return reader.fail(arg, '`ttl` must be at least 1ms (Redis refuses an expiry of 0)', 'out-of-range');
    if (parsed.value > MAX_TTL_MS) return reader.fail(arg, '`ttl` must be at most 10 years', 'out-of-range');
    if (!Number.isInteger(parsed.value)) return reader.fail(arg, '`ttl` takes whole milliseconds (Redis has no finer expiry)', 'invalid-value');
    values.push(parsed.value);
  }
  const [min, max] = values;
  if (min > max) return reader.fail(arg, `the range \`${arg.value}\` runs backwards — write the shorter expiry first: \`${texts[1]}..${texts[0]}\``);
  return min % 1000 === 0 && max % 1000 === 0 ? { min: min / 1000, max: max / 1000, unit: 's' } : { min, max, unit: 'ms' };
}
