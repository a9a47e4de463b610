// Long fuzz run of the `.rbench` language: generated files (grammar-aware, mutated) checked for the
// properties in test/fuzz/language.ts, plus each file's check time per byte (the worst is printed,
// so a superlinear input shows). Usage: node bench/fuzz-language.mjs [runs=300000] [seed]
// Compiles the TypeScript first (npx tsc -p . --outDir out).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './lib.mjs';

const runs = Number(process.argv[2] ?? 300_000);
const seed = Number(process.argv[3] ?? Date.now() % 1_000_000);
const built = spawnSync('npx', ['tsc', '-p', '.', '--outDir', 'out'], { cwd: root, encoding: 'utf8' });
if (built.status !== 0) throw new Error(`tsc failed:\n${built.stdout}${built.stderr}`);
const require = createRequire(import.meta.url);
const fc = require(join(root, 'node_modules', 'fast-check'));
const { checkLanguageProperties, rbenchFile } = require(join(root, 'out', 'test', 'fuzz', 'language.js'));
const { checkText } = require(join(root, 'out', 'src', 'scenario', 'index.js'));

let largest = { bytes: 0, ms: 0 };
let slowest = { perKb: 0, bytes: 0, text: '' };
let bytes = 0;
const started = performance.now();
const progressEvery = Math.max(1, Math.floor(runs / 10));
let done = 0;
fc.assert(
  fc.property(rbenchFile(60), fc.nat(), (text, probe) => {
    checkLanguageProperties(text, probe);
    const t0 = performance.now();
    checkText(text, { env: {} });
    const ms = performance.now() - t0;
    bytes += text.length;
    if (text.length > largest.bytes) largest = { bytes: text.length, ms };
    if (text.length >= 200 && (ms / text.length) * 1024 > slowest.perKb) slowest = { perKb: (ms / text.length) * 1024, bytes: text.length, text };
    if (++done % progressEvery === 0) console.log(`${done} files, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }),
  { seed, numRuns: runs },
);
const seconds = (performance.now() - started) / 1000;
console.log(`fuzz-language: ${runs} files (seed ${seed}), ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(0)} s: no property broken`);
const again = performance.now(); checkText(slowest.text, { env: {} }); console.log(`slowest again: ${(performance.now() - again).toFixed(2)} ms`, JSON.stringify(slowest.text.slice(0, 400)));
console.log(`largest file ${largest.bytes} bytes checked in ${largest.ms.toFixed(2)} ms; slowest per KB: ${slowest.perKb.toFixed(3)} ms/KB (${slowest.bytes} bytes)`);
