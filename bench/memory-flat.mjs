#!/usr/bin/env node
// Memory must stay flat however many requests a run makes: compares the peak RSS (VmHWM) of
// `rbench run` for 1M and 20M requests of SET at pipeline 100, on the same throwaway server.
//
//   node bench/memory-flat.mjs [--small 1M] [--large 20M]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cli, ensureBuilt, peakRss, startServer } from './lib.mjs';

const { values } = parseArgs({ options: { small: { type: 'string', default: '1M' }, large: { type: 'string', default: '20M' } } });


async function measure(requests, url) {
  const dir = mkdtempSync(join(tmpdir(), 'rbench-mem-'));
  const file = join(dir, 'mem.rbench');
  writeFileSync(file, `### memory ${requests}\nclients 50\npipeline 100\nrequests ${requests}\nkeys 100k uniform\nSET key:__key__ __value__\n`);
  const child = spawn(process.execPath, [cli, 'run', file, '--url', url, '--yes', '--out', join(dir, 'runs'), '--quiet'], { stdio: 'inherit' });
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, peakRss(child.pid))), 100);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  clearInterval(timer);
  rmSync(dir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`rbench run exited with ${code}`);
  return peak;
}

ensureBuilt();
const server = await startServer();
try {
  const url = `redis://127.0.0.1:${server.port}`;
  const small = await measure(values.small, url);
  server.flush();
  const large = await measure(values.large, url);
  const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MiB`;
  console.log(`peak RSS: ${values.small} requests ${mb(small)}, ${values.large} requests ${mb(large)}, ratio ${(large / small).toFixed(2)}× (target ≤ 1.20×)`);
} finally {
  await server.stop();
}
