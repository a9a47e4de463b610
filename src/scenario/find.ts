// `find rate where METRIC < LIMIT [from RATE] [to RATE]`: the search-mode line. Read here into a
// RateSearchPlan; every problem gets a diagnostic on the word at fault.
import type { RateSearchPlan } from './plan';
import { parseDuration, parseRate } from './units';
import { Reader, type ValueInput } from './valueReader';
import { groupDigits } from './numberText';

export const FIND_METRICS = ['mean', 'p50', 'p90', 'p95', 'p99', 'p99.9', 'max'] as const satisfies readonly RateSearchPlan['metric'][];
export const DEFAULT_FIND_FROM = 1_000;
export const DEFAULT_FIND_TO = 1_000_000;
const EXAMPLE = '`find rate where p99 < 2ms`';

export function readFind(input: ValueInput): Omit<RateSearchPlan, 'text' | 'range'> | undefined {
  const reader = new Reader(input);
  const [what, where, metricArg, opArg, limitArg, ...options] = reader.args;
  if (!what) return reader.missing();
  if (what.value !== 'rate') return reader.fail(what, `\`find\` searches for a rate — write ${EXAMPLE}, not \`find ${what.value}\``);
  if (!where || where.value !== 'where')
    return reader.fail(where ?? what, `write \`where\` after \`find rate\`, as in ${EXAMPLE}`, where ? 'invalid-value' : 'missing-value');
  if (!metricArg)
    return reader.fail(where, `name a latency after \`where\`: ${FIND_METRICS.map((m) => `\`${m}\``).join(', ')} — as in ${EXAMPLE}`, 'missing-value');
  const metric = reader.choice(metricArg, FIND_METRICS, { throughput: 'p99', ops: 'p99' });
  if (!metric) return undefined;
  if (!opArg) return reader.fail(metricArg, `write the limit after \`${metric}\`, as in \`find rate where ${metric} < 2ms\``, 'missing-value');
  if (opArg.value !== '<' && opArg.value !== '<=') {
    return reader.fail(
      opArg,
      `\`find rate\` looks for the latency under a limit — write \`${metric} < LIMIT\`, not \`${opArg.value}\` (separate the words with spaces)`,
    );
  }
  if (!limitArg) return reader.fail(opArg, `write the limit after \`${opArg.value}\`, such as \`2ms\``, 'missing-value');
  const limit = parseDuration(limitArg.value);
  if (!limit.ok) return reader.fail(limitArg, `\`find rate where ${metric}\`: ${limit.message}`);
  if (limit.value <= 0) return reader.fail(limitArg, 'the latency limit must be above 0', 'out-of-range');
  const plan = { metric, limitUs: Math.round(limit.value * 1000 * 1000) / 1000, fromRate: DEFAULT_FIND_FROM, toRate: DEFAULT_FIND_TO };
  const seen = new Set<string>();
  for (let i = 0; i < options.length; i += 2) {
    const word = options[i];
    if (word.value !== 'from' && word.value !== 'to')
      return reader.fail(word, `after the limit, write \`from RATE\` and/or \`to RATE\` (such as \`from 5k/s to 200k/s\`) — not \`${word.value}\``);
    if (seen.has(word.value)) return reader.fail(word, `\`${word.value}\` is given twice — keep one`);
    seen.add(word.value);
    const value = options[i + 1];
    if (!value)
      return reader.fail(word, `\`${word.value}\` needs a rate, such as \`${word.value} ${word.value === 'from' ? '5k/s' : '200k/s'}\``, 'missing-value');
    const rate = parseRate(value.value, true);
    if (!rate.ok) return reader.fail(value, `\`${word.value}\`: ${rate.message}`);
    if (rate.value < 1) return reader.fail(value, `\`${word.value}\` must be at least 1/s`, 'out-of-range');
    if (word.value === 'from') plan.fromRate = rate.value;
    else plan.toRate = rate.value;
  }
  if (plan.fromRate >= plan.toRate) {
    const at = options.find((o) => o.value === 'to') ?? options.find((o) => o.value === 'from') ?? limitArg;
    return reader.fail(
      at,
      `the search starts at ${groupDigits(plan.fromRate)}/s and must end above it (\`to\` ${groupDigits(plan.toRate)}/s) — raise \`to\` or lower \`from\``,
      'out-of-range',
    );
  }
  return plan;
}
