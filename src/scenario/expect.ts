// `expect [COMMAND] METRIC OP VALUE`: the expectation line. Read here into the metric, the operator and
// the value in the metric's unit; every problem gets a diagnostic on the part at fault.
import type { CompareOp, Expectation, Range } from './plan';
import { EXPECT_METRICS } from './settings';
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
  const metricInfo = EXPECT_METRICS.find((info) => info.name === parts.metric.text);
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
