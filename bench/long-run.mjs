#!/usr/bin/env node
// A long run through `rbench run` on its throwaway redis-server, at the seed's list scale: N LPUSH then
// N RPOP on one list (2N requests; default N = 50M, 100M requests). Prints the client's peak RSS, the
// run time, ops/s per phase and the run file's size (which must stay bounded: docs/run-file.md).
//
//   node bench/long-run.mjs [--requests 100M] [--clients 50] [--pipeline 100]
// Takes minutes; run it on a quiet machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cli, ensureBuilt, peakRss } from './lib.mjs';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '100M' }, clients: { type: 'string', default: '50' }, pipeline: { type: 'string', default: '100' } } });
const units = { k: 1e3, K: 1e3, M: 1e6, G: 1e9 };
const total = Number(values.requests.replace(/[kKMG]$/, '')) * (units[values.requests.slice(-1)] ?? 1);
const perPhase = Math.floor(total / 2);


ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), 'rbench-long-'));
try {
  const file = join(dir, 'long.rbench');
  writeFileSync(
    file,
    `### long run: LPUSH then RPOP\nclients ${values.clients}\npipeline ${values.pipeline}\nvalue 16\nkeys 1\n\nphase push\nrequests ${perPhase}\nLPUSH rbench:long __value__\n\nphase pop\nrequests ${perPhase}\nRPOP rbench:long\n`,
  );
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'run', file, '--out', join(dir, 'runs')], { stdio: ['ignore', 'inherit', 'inherit'] });
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, peakRss(child.pid))), 200);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  clearInterval(timer);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`rbench run exited with ${code}`);
  const [name] = readdirSync(join(dir, 'runs')).filter((n) => n.endsWith('.rbench-run.json'));
  const path = join(dir, 'runs', name);
  const run = JSON.parse(readFileSync(path, 'utf8'));
  const phases = run.points[0].summary.map((s) => `${s.phase} ${Math.round(s.opsPerSec.median).toLocaleString('en-US')} ops/s`).join(', ');
  const requests = run.points[0].repeats[0].reduce((sum, load) => sum + load.total.requests, 0);
  console.log(
    `long run: ${requests.toLocaleString('en-US')} requests in ${seconds.toFixed(0)} s wall (${phases}); client peak RSS ${(peak / 1048576).toFixed(0)} MiB; run file ${(statSync(path).size / 1024).toFixed(0)} KiB; status ${run.status}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
