// `sweep AXIS v1, v2, a..b step s`: the sweep line. Read here into an axis and its values, each with
// the range it is written at; every problem gets a diagnostic on the value at fault. `sweep server …`
// (a throwaway server per point, each with its directives) is read by serverSweep.ts.
import type { Range, ServerDirective } from './plan';
import { readServerSweepValues, SERVER_AXIS } from './serverSweep';
import { MAX_SWEEP_POINTS, SETTING_NAMES, SWEEP_AXES, settingInfo } from './settings';
import { parseCount, parseRate, parseSize } from './units';
import { Reader, splitList, words, type Span, type ValueInput } from './valueReader';
import { groupDigits } from './numberText';

export interface SweepValue {
  /** The swept setting's value; for `sweep server`, the point's number from 1. */
  value: number;
  range: Range;
  /** `sweep server`: the directives of this point's throwaway server. */
  server?: ServerDirective[];
}
export interface SweepAxis {
  name: string;
  values: SweepValue[];
  range: Range;
}

/** `sweep AXIS v1, v2, a..b step s`: the axis and its values (each with its range). */
export function readSweep(input: ValueInput): SweepAxis | undefined {
  const reader = new Reader(input);
  const axisArg = reader.args[0];
  if (!axisArg) return reader.missing();
  const axes = [...Object.keys(SWEEP_AXES), SERVER_AXIS];
  const list = axes.map((axis) => `\`${axis}\``).join(', ');
  if (axisArg.value === SERVER_AXIS) {
    if (reader.args.length < 2)
      return reader.fail(axisArg, '`sweep server` needs points — write `sweep server "appendonly no", "appendonly yes" "appendfsync always"`', 'missing-value');
    const values = readServerSweepValues(reader, input.expanded.text, axisArg.end);
    return values && { name: SERVER_AXIS, values, range: reader.range({ start: axisArg.end, end: input.expanded.text.length }) };
  }
  if (!axes.includes(axisArg.value)) {
    if (SETTING_NAMES.includes(axisArg.value)) return reader.fail(axisArg, `\`${axisArg.value}\` cannot be swept — sweep one of ${list}`);
    reader.choice(axisArg, axes);
    return undefined;
  }
  const axis = axisArg.value;
  const text = input.expanded.text;
  const rest = { start: axisArg.end, end: text.length };
  if (reader.args.length < 2)
    return reader.fail(axisArg, `\`sweep ${axis}\` needs values — write \`sweep ${axis} 1, 2, 4\` or \`sweep ${axis} 1..64 step x2\``, 'missing-value');
  const kind = SWEEP_AXES[axis];
  const info = settingInfo(axis)!;
  const parseValue = (span: Span): number | undefined => {
    const result = kind === 'size' ? parseSize(span.text) : kind === 'rate' ? parseRate(span.text, true) : parseCount(span.text);
    if (!result.ok) return reader.fail(span, `\`sweep ${axis}\`: ${result.message}`);
    if (info.min !== undefined && result.value < info.min) return reader.fail(span, `\`${axis}\` must be at least ${info.min}`, 'out-of-range');
    if (info.max !== undefined && result.value > info.max) return reader.fail(span, `\`${axis}\` must be at most ${groupDigits(info.max)}`, 'out-of-range');
    return result.value;
  };
  const values: SweepValue[] = [];
  for (const item of splitList(text, rest.start, rest.end)) {
    const parts = words(item);
    if (parts.length === 0)
      return reader.fail({ start: Math.max(0, item.start - 1), end: item.start + 1 }, `\`sweep ${axis}\` has an empty value — remove the extra comma`);
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
        if (!parsed.ok || parsed.value < 1)
          return reader.fail(parts[2], `\`step\` takes a whole number above 0 or a factor such as \`x2\` — not \`${stepText}\``);
        step = parsed.value;
      }
    }
    const count = factor ? Math.floor(Math.log(last / first) / Math.log(factor) + 1e-9) + 1 : Math.floor((last - first) / step) + 1;
    if (values.length + count > MAX_SWEEP_POINTS)
      return reader.fail(item, `this sweep has more than ${groupDigits(MAX_SWEEP_POINTS)} values — use a larger step`, 'too-many-points');
    let previous = -1;
    for (let i = 0; i < count; i++) {
      const value = factor ? Math.round(first * factor ** i) : first + i * step;
      if (value !== previous && value <= last) values.push({ value, range });
      previous = value;
    }
  }
  return { name: axis, values, range: reader.range(rest) };
}
