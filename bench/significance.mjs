// Calibration of the comparison's significance rule (src/results/statistics.ts): thousands of synthetic A/A
// and A/B pairs of repeats drawn from per-second throughput (test/fuzz/significance.ts: autocorrelated
// seconds, hiccup seconds, slowed repeats), and from seconds recorded on the shared machine
// (test/fixtures/significance/*.json, or --series RUN.rbench-run.json: a run file's first test's full seconds).
// Prints, per model and repeat count, the false-positive rate on A/A pairs (the test alone, and the rule
// with the 5 % noise limit) and the power for a 10 % throughput drop (the rule).
// Usage: node bench/significance.mjs [--pairs 2000] [--repeats 4,5,6] [--seconds 10] [--series FILE] [--seed 1]
// Compiles the TypeScript first (npx tsc -p . --outDir out).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { root } from './lib.mjs';

const { values: options } = parseArgs({
  options: {
    pairs: { type: 'string', default: '2000' },
    repeats: { type: 'string', default: '4,5,6' },
    seconds: { type: 'string', default: '10' },
    series: { type: 'string' },
    seed: { type: 'string', default: '1' },
  },
});
const pairs = Number(options.pairs);
const repeatCounts = options.repeats.split(',').map(Number);
const seconds = Number(options.seconds);
const seed = Number(options.seed);

const built = spawnSync('npx', ['tsc', '-p', '.', '--outDir', 'out'], { cwd: root, encoding: 'utf8' });
if (built.status !== 0) throw new Error(`tsc failed:\n${built.stdout}${built.stderr}`);
const require = createRequire(import.meta.url);
const { TYPICAL_SERIES, calibrate, recordedRepeat, syntheticRepeat } = require(join(root, 'out', 'test', 'fuzz', 'significance.js'));

/** The full seconds' throughput of a run file's first test, or of a fixture ({ ops: [...] }). */
function recordedSeries(file) {
  const data = JSON.parse(readFileSync(file, 'utf8'));
  if (Array.isArray(data.ops)) return data.ops;
  const load = data.points[0].repeats[0][0];
  return load.timeline.filter((second) => second.partialMs === undefined && second.ops > 0).map((second) => second.ops);
}

const cv = (values) => {
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  return Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length) / mean;
};

const models = [0.02, 0.04, 0.08].map((sigma) => ({
  name: `synthetic, seconds spread ${sigma * 100}%, rho ${TYPICAL_SERIES.rho}, hiccups 1/50 s, slowed repeats 1/20`,
  draw: syntheticRepeat({ ...TYPICAL_SERIES, seconds, sigma }),
}));
models.push({
  name: 'synthetic, the same without hiccups or slowed repeats (sigma 4%)',
  draw: syntheticRepeat({ ...TYPICAL_SERIES, seconds, outlierSecond: 0, outlierRepeat: 0 }),
});
const fixtures = join(root, 'test', 'fixtures', 'significance');
const files = options.series ? [options.series] : readdirSync(fixtures).map((name) => join(fixtures, name));
for (const file of files) {
  const series = recordedSeries(file);
  models.push({
    name: `recorded ${file.replace(root + '/', '')} (${series.length} s, seconds spread ${(cv(series) * 100).toFixed(0)}%)`,
    draw: recordedRepeat(series, seconds),
  });
}

const percent = (count, total) => `${((count / total) * 100).toFixed(1)}%`;
console.log(`significance: ${pairs} A/A and ${pairs} A/B pairs (B −10% throughput) per line, repeats of ${seconds} s, seed ${seed}`);
for (const model of models) {
  console.log(`\n${model.name}`);
  for (const repeats of repeatCounts) {
    const started = process.hrtime.bigint();
    const test = calibrate(model.draw, { pairs, repeats, change: 1, noisePercent: 0, seed });
    const rule = calibrate(model.draw, { pairs, repeats, change: 1, noisePercent: 5, seed });
    const power = calibrate(model.draw, { pairs, repeats, change: 0.9, noisePercent: 5, seed: seed + 1 });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const outside = test.outsideInterval + rule.outsideInterval + power.outsideInterval;
    console.log(
      `  repeat ${repeats}: A/A false positives ${percent(test.significant, pairs)} (test alone), ${percent(rule.significant, pairs)} (rule, 5% limit); ` +
        `A/B power ${percent(power.significant, pairs)}; intervals not holding their change: ${outside}; ${(ms / (3 * pairs)).toFixed(2)} ms a pair`,
    );
  }
}
