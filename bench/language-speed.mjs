// Speed of the `.rbench` language on large files: `checkText` (parse + resolve, what diagnostics
// cost) and `parseDocument` alone (what outline, CodeLens and Test Explorer need), for 1 MB and 10 MB
// of short realistic lines (the shape of test/unit/scenario/hostile.test.ts) and for 1 MB of long
// lines. Each case runs several times in a fresh process after a warm-up; prints the median wall time,
// the median CPU time (user + sys of this process, the collector's threads included) and the share
// of garbage collection. Usage: node bench/language-speed.mjs [--runs 7] [--against REF] [--gc] [--profile [--plans]]
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

// Each case runs in a process of its own (a fresh heap, as the editor's worker has): the parent
// bundles the language once and starts them.
const caseIndex = args.includes('--case') ? Number(args[args.indexOf('--case') + 1]) : -1;
let bundle = process.env.RBENCH_LANGUAGE_BUNDLE;
let dir;
if (!bundle) {
  dir = mkdtempSync(join(tmpdir(), 'rbench-language-'));
  bundle = join(dir, 'scenario.js');
  const built = spawnSync(join(root, 'node_modules', '.bin', 'esbuild'), [join(root, 'src', 'scenario', 'index.ts'), '--bundle', '--platform=node', '--target=node20', '--format=cjs', `--outfile=${bundle}`], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`esbuild failed:\n${built.stdout}${built.stderr}`);
}
// `--against REF`: the same cases with the language of git revision REF too, alternating (A B A B),
// so that a loaded machine weighs on both alike. (Before checkDiagnostics existed, checkText stands in.)
const against = args.includes('--against') ? args[args.indexOf('--against') + 1] : undefined;
let otherBundle;
if (against && caseIndex < 0) {
  const source = join(dir, 'against');
  const archive = spawnSync('sh', ['-c', `mkdir -p "${source}" && git -C "${root}" archive "${against}" src | tar -x -C "${source}"`], { encoding: 'utf8' });
  if (archive.status !== 0) throw new Error(`git archive ${against} failed:\n${archive.stderr}`);
  otherBundle = join(dir, 'against.js');
  const built = spawnSync(join(root, 'node_modules', '.bin', 'esbuild'), [join(source, 'src', 'scenario', 'index.ts'), '--bundle', '--platform=node', '--target=node20', '--format=cjs', `--outfile=${otherBundle}`], { encoding: 'utf8', env: { ...process.env, NODE_PATH: join(root, 'node_modules') } });
  if (built.status !== 0) throw new Error(`esbuild of ${against} failed:\n${built.stdout}${built.stderr}`);
}
const language = createRequire(import.meta.url)(bundle);
const { checkText, parseDocument } = language;
const checkDiagnostics = language.checkDiagnostics ?? ((text, options) => checkText(text, options).diagnostics);

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

// `--gc`: also the time spent in garbage collection (observing it slows the collector down a little).
let gcMs = 0;
if (args.includes('--gc')) {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  }).observe({ entryTypes: ['gc'] });
}

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
    `${label.padEnd(34)} ${(text.length / 1e6).toFixed(1).padStart(5)} MB  wall median ${w.toFixed(0).padStart(5)} ms (min ${Math.min(...wall).toFixed(0)}, max ${Math.max(...wall).toFixed(0)})  CPU median ${median(cpu).toFixed(0).padStart(5)} ms${args.includes('--gc') ? `  GC ${median(gc).toFixed(0)} ms` : ''}`,
  );
}

const check = (text) => checkText(text, { env: {} });
const diagnostics = (text) => checkDiagnostics(text, { env: {} });
const shortFile = (bytes) => () => file(shortBlock, bytes);
const CASES = [
  ['checkDiagnostics, short lines', shortFile(1024 * 1024), diagnostics],
  ['checkText, short lines', shortFile(1024 * 1024), check],
  ['checkText, long lines', () => file(longBlock, 1024 * 1024), check],
  ['parseDocument, short lines', shortFile(1024 * 1024), parseDocument],
  ['checkDiagnostics, short lines', shortFile(10 * 1024 * 1024), diagnostics],
  ['checkText, short lines', shortFile(10 * 1024 * 1024), check],
  ['parseDocument, short lines', shortFile(10 * 1024 * 1024), parseDocument],
];

if (caseIndex >= 0) {
  const [label, text, work] = CASES[caseIndex];
  const input = text();
  for (let i = 0; i < 3; i++) work(file(shortBlock, 500_000)); // warm up the JIT
  await measure(label, input, work);
} else if (profile) {
  for (let i = 0; i < 3; i++) check(file(shortBlock, 500_000));
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  (args.includes('--plans') ? check : diagnostics)(file(shortBlock, 10 * 1024 * 1024));
  const { profile: result } = await session.post('Profiler.stop');
  const out = `language-speed-${Date.now()}.cpuprofile`;
  writeFileSync(out, JSON.stringify(result));
  console.log(`CPU profile of the 10 MB check: ${out}`);
} else {
  const run = (i, which, prefix) => {
    const child = spawnSync(process.execPath, [process.argv[1], '--case', String(i), ...args], { encoding: 'utf8', env: { ...process.env, RBENCH_LANGUAGE_BUNDLE: which } });
    process.stdout.write(prefix + child.stdout + child.stderr);
  };
  for (let i = 0; i < CASES.length; i++) {
    if (!otherBundle) {
      run(i, bundle, '');
      continue;
    }
    for (let pair = 0; pair < 2; pair++) {
      run(i, otherBundle, `${against.slice(0, 10).padEnd(10)} `);
      run(i, bundle, `${'this'.padEnd(10)} `);
    }
  }
}
if (dir) rmSync(dir, { recursive: true, force: true });
