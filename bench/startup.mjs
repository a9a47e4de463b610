#!/usr/bin/env node
// RBench's fixed cost per run: client CPU (user + sys, /usr/bin/time) of `rbench --version` and of a
// 100-request `rbench run`, against bare `node -e 0` and a 100-request redis-benchmark, alternating
// A B C D … on the same throwaway server. Whatever a run costs on top of its requests shows here; at
// deep pipelines (SET P100: ~0.25 µs of client CPU per request) it decides the ratio of
// bench/vs-redis-benchmark.mjs.
//
//   node bench/startup.mjs [--rounds 10] [--before OLD/dist/cli.js] [--keys 100000]
//
// --before adds the same two rbench rows for another build (a checkout of an older commit), in the same rounds.
// --keys N first writes about N keys `key:…` (redis-benchmark -r N), as a vs-redis-benchmark server holds: a run
// on a user's server counts the keys it left that match its own pattern, a cost that grows with them.
import { parseArgs } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, ensureBuilt, median, spawnTimed, startServer } from './lib.mjs';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '10' }, before: { type: 'string' }, keys: { type: 'string', default: '0' } } });
const rounds = Number(values.rounds);

ensureBuilt();
const server = await startServer();
const dir = mkdtempSync(join(tmpdir(), 'rbench-bench-startup-'));
const scenario = join(dir, 'tiny.rbench');
writeFileSync(
  scenario,
  '### tiny\nclients 50\npipeline 100\nrequests 100\nkeys 100000 uniform\nvalue 3\nvalue-fill redis-benchmark\nSET key:__rand_int__ __value__\n',
);
const url = `redis://127.0.0.1:${server.port}`;
const keys = Number(values.keys);
if (keys > 0) {
  const fill = spawnTimed('redis-benchmark', ['-p', String(server.port), '-t', 'set', '-n', String(keys * 3), '-r', String(keys), '-P', '50', '-q']);
  if (fill.status !== 0) throw new Error(`filling the server failed: ${fill.stderr}`);
}

const subjects = [
  { name: 'node -e 0', command: process.execPath, args: ['-e', '0'] },
  { name: 'rbench --version', command: process.execPath, args: [cli, '--version'] },
  { name: 'rbench run (100 requests)', command: process.execPath, args: [cli, 'run', scenario, '--url', url, '--yes', '--out', join(dir, 'runs'), '--quiet'] },
  {
    name: 'redis-benchmark -n 100',
    command: 'redis-benchmark',
    args: ['-p', String(server.port), '-t', 'set', '-n', '100', '-c', '50', '-P', '100', '-r', '100000', '-q'],
  },
];
if (values.before) {
  subjects.push(
    { name: 'before: rbench --version', command: process.execPath, args: [values.before, '--version'] },
    {
      name: 'before: rbench run (100)',
      command: process.execPath,
      args: [values.before, 'run', scenario, '--url', url, '--yes', '--out', join(dir, 'runs'), '--quiet'],
    },
  );
}

try {
  const cpu = subjects.map(() => []);
  for (let round = 0; round < rounds; round++) {
    subjects.forEach((subject, i) => {
      const result = spawnTimed(subject.command, subject.args);
      if (result.status !== 0) throw new Error(`${subject.name} failed (${result.status}): ${result.stderr}`);
      cpu[i].push(result.cpuMs);
    });
  }
  console.log(
    `client CPU (user + sys), median of ${rounds} rounds, 10 ms clock ticks${keys > 0 ? `, the server holding ~${keys} keys key:…` : ''}; machine shared: compare rows, not runs\n`,
  );
  subjects.forEach((subject, i) =>
    console.log(`${subject.name.padEnd(28)} ${median(cpu[i]).toFixed(0).padStart(5)} ms   [${cpu[i].map((v) => v.toFixed(0)).join(' ')}]`),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
  await server.stop();
}
