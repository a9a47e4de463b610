// Speed of the `.rbench` language on large files: `checkText` (parse + resolve, what diagnostics
// cost) and `parseDocument` alone (what outline, CodeLens and Test Explorer need), for 1 MB and 10 MB
// of short realistic lines (the shape of test/unit/scenario/hostile.test.ts) and for 1 MB of long
// lines. Each size runs several times in one process after a warm-up; prints the median wall time,
// the median CPU time (user + sys of this process, the collector's threads included) and the share
// of garbage collection. Usage: node bench/language-speed.mjs [--runs 7] [--profile [--plans]]
// (`--profile` writes a V8 CPU profile of the 10 MB diagnostics check (with `--plans`, of checkText) to the current folder, for Chrome DevTools.)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { root, median } from './lib.mjs';

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1] || 7) || 7;
const profile = args.includes('--profile');

const dir = mkdtempSync(join(tmpdir(), 'rbench-language-'));
const bundle = join(dir, 'scenario.js');
const built = spawnSync(join(root, 'node_modules', '.bin', 'esbuild'), [join(root, 'src', 'scenario', 'index.ts'), '--bundle', '--platform=node', '--format=cjs', `--outfile=${bundle}`], { encoding: 'utf8' });
if (built.status !== 0) throw new Error(`esbuild failed:\n${built.stdout}${built.stderr}`);
const { checkText, checkDiagnostics, parseDocument } = createRequire(import.meta.url)(bundle);
rmSync(dir, { recursive: true, force: true });

const shortBlock = (i) => `### scenario ${i}\nclients 50\npipeline 10\nrequests 1M\nkeys 100k uniform\nvalue 3\nSET bench:__key__ __value__\nGET bench:__key__\nexpect p99 < 2ms\n\n`;
const longBlock = (i) => `### scenario ${i}\nrequests 100k\npipeline 10\nSET big:${i} "${'v'.repeat(4000)}" # ${i}\n# ${'c'.repeat(4000)}\nexpect p99 < 2ms\n\n`;
function file(block, bytes) {
  const parts = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    parts.push(block(i));
    size += parts[i].length;
  }
  return parts.join('');
}

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function measure(label, text, work) {
  const wall = [];
  const cpu = [];
  const gc = [];
  for (let run = 0; run < runs; run++) {
    gcMs = 0;
    const cpu0 = cpuMs();
    const t0 = performance.now();
    const result = work(text);
    wall.push(performance.now() - t0);
    cpu.push(cpuMs() - cpu0);
    // The observer reports after the fact: let it run before reading.
    await new Promise((resolve) => setTimeout(resolve, 20));
    gc.push(gcMs);
    if (!result) throw new Error('no result');
  }
  const w = median(wall);
  console.log(
    `${label.padEnd(34)} ${(text.length / 1e6).toFixed(1).padStart(5)} MB  wall median ${w.toFixed(0).padStart(5)} ms (min ${Math.min(...wall).toFixed(0)}, max ${Math.max(...wall).toFixed(0)})  CPU median ${median(cpu).toFixed(0).padStart(5)} ms  GC ${median(gc).toFixed(0)} ms`,
  );
}

const check = (text) => checkText(text, { env: {} });
const oneMb = file(shortBlock, 1024 * 1024);
const tenMb = file(shortBlock, 10 * 1024 * 1024);
const longMb = file(longBlock, 1024 * 1024);
const diagnostics = (text) => checkDiagnostics(text, { env: {} });
for (let i = 0; i < 3; i++) check(file(shortBlock, 500_000)); // warm up the JIT

if (profile) {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  (args.includes('--plans') ? check : diagnostics)(tenMb);
  const { profile: result } = await session.post('Profiler.stop');
  const out = `language-speed-${Date.now()}.cpuprofile`;
  writeFileSync(out, JSON.stringify(result));
  console.log(`CPU profile of the 10 MB check: ${out}`);
}

await measure('checkDiagnostics, short lines', oneMb, diagnostics);
await measure('checkText, short lines', oneMb, check);
await measure('checkText, long lines', longMb, check);
await measure('parseDocument, short lines', oneMb, parseDocument);
await measure('checkDiagnostics, short lines', tenMb, diagnostics);
await measure('checkText, short lines', tenMb, check);
await measure('parseDocument, short lines', tenMb, parseDocument);
