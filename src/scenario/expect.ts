// `expect [COMMAND] METRIC OP VALUE`: the expectation line. Read here into the metric, the operator and
// the value in the metric's unit; every problem gets a diagnostic on the part at fault.
import type { ChosenPercentileMetric, CompareOp, Expectation, Range } from './plan';
import { EXPECT_METRICS, type ExpectMetricInfo } from './settings';
import { parseCount, parseDuration, parsePercent, parseRate, type UnitResult } from './units';
import { Reader, type Span, type ValueInput } from './valueReader';

export interface ExpectValue extends Omit<Expectation, 'text' | 'range'> {
  commandRange?: Range;
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

/** `99.99` → 99.99: a percentile from 0 to 100 (up to 6 decimals), as `percentiles` and `--percentiles` take it; undefined for anything else. */
export function percentileValue(text: string): number | undefined {
  if (!/^\d{1,3}(?:\.\d{1,6})?$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 0 && value <= 100 ? value : undefined;
}

/** `p99.99` → 99.99: a percentile written `pN`; undefined for anything else. */
export function percentileOfMetric(name: string): number | undefined {
  return name.startsWith('p') ? percentileValue(name.slice(1)) : undefined;
}

/** `50, 99, 99.9`: each percentile once, in the order written; a message naming the first wrong item. */
export function parsePercentileList(text: string): number[] | string {
  const out: number[] = [];
  for (const item of text.split(',').map((part) => part.trim())) {
    const value = percentileValue(item);
    if (value === undefined) return `percentiles are numbers from 0 to 100 separated by commas, such as \`50,99,99.9,99.99\` — not \`${item}\``;
    if (!out.includes(value)) out.push(value);
  }
  return out.length > MAX_PERCENTILES ? `at most ${MAX_PERCENTILES} percentiles, not ${out.length}` : out;
}

export const MAX_PERCENTILES = 20;

/** Any latency percentile beyond the table's fixed ones (`expect p99.99 < 2ms`), read like them as a duration. */
function chosenPercentileInfo(name: string): ExpectMetricInfo | undefined {
  if (percentileOfMetric(name) === undefined) return undefined;
  return { name, metric: name as ChosenPercentileMetric, value: 'duration', doc: `The ${name.slice(1)}th percentile latency, from the histogram.` };
}

export function readExpect(input: ValueInput): ExpectValue | undefined {
  const reader = new Reader(input);
  const whole = reader.whole();
  if (!whole) return undefined;
  const parts = splitExpect(input.expanded.text, whole.start, whole.end);
  if (!parts)
    return reader.fail(
      whole,
      `write \`expect [COMMAND] METRIC OP VALUE\`, such as \`expect p99 < 2ms\` or \`expect GET throughput > 100k/s\` — not \`${whole.text}\``,
    );
  const metricInfo = EXPECT_METRICS.find((info) => info.name === parts.metric.text) ?? chosenPercentileInfo(parts.metric.text);
  if (!metricInfo) {
    reader.choice(
      { kind: 'word', start: parts.metric.start, end: parts.metric.end, value: parts.metric.text, quoted: false },
      EXPECT_METRICS.map((info) => info.name),
    );
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
        value = reader.fail(parts.value, `\`expect ${metricInfo.name}\` takes a percentage such as \`0.1%\` or a fraction from 0 to 1 — not \`${valueText}\``);
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
