// Long run of the linearity property (test/fuzz/linearity.ts): generated costly inputs (nested and
// repeated markers, long and many lines, variable chains) checked, and given to every editor feature, at
// n and 8n bytes; prints the worst growth. Usage: node bench/fuzz-linearity.mjs [runs=200] [bytes=131072] [seed]
// Compiles the TypeScript first (npx tsc -p . --outDir out).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './lib.mjs';

const runs = Number(process.argv[2] ?? 200);
const bytes = Number(process.argv[3] ?? 128 * 1024);
const seed = Number(process.argv[4] ?? Date.now() % 1_000_000);
const built = spawnSync('npx', ['tsc', '-p', '.', '--outDir', 'out'], { cwd: root, encoding: 'utf8' });
if (built.status !== 0) throw new Error(`tsc failed:\n${built.stdout}${built.stderr}`);
const require = createRequire(import.meta.url);
const fc = require(join(root, 'node_modules', 'fast-check'));
const { bombs, growth, OPERATIONS } = require(join(root, 'out', 'test', 'fuzz', 'linearity.js'));

const worst = [];
for (const bomb of fc.sample(bombs, { seed, numRuns: runs })) {
  for (const operation of OPERATIONS) {
    const measured = growth(operation.run, bomb, bytes);
    worst.push({ ratio: measured.ratio, line: `${operation.name} on ${bomb.label}: ${measured.small.toFixed(1)} → ${measured.big.toFixed(1)} ms CPU (×${measured.ratio.toFixed(1)})` });
  }
}
worst.sort((a, b) => b.ratio - a.ratio);
console.log(`fuzz-linearity: ${runs} inputs (seed ${seed}) at ${bytes} and ${8 * bytes} bytes; the worst growths:`);
for (const { line } of worst.slice(0, 10)) console.log(`  ${line}`);
