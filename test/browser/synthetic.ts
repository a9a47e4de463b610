// A one-hour, 20-command run for the first-paint timing, synthesised from a real run file (the
// fixtures are real CLI runs): the real mix load's seconds repeated to 3,600, its real command
// histograms reused for 20 commands, and the real server samples repeated once a second.
import type { CommandResult } from '../../src/engine/types';
import type { RunFile } from '../../src/results/runFile';
import { summariseRepeats } from '../../src/results/summary';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../unit/scenario/helpers';

const NAMES = [
  'GET',
  'SET',
  'INCR',
  'HGET',
  'HSET',
  'LPUSH',
  'RPOP',
  'SADD',
  'SPOP',
  'ZADD',
  'ZRANGE',
  'MGET',
  'MSET',
  'DEL',
  'EXISTS',
  'EXPIRE',
  'TTL',
  'APPEND',
  'GETSET',
  'INCRBY',
];

export function oneHourRun(real: RunFile, seconds = 3600, commands = 20): RunFile {
  const run = structuredClone(real) as RunFile;
  const point = run.points[0];
  const mix = point.repeats.flat().find((load) => load.commands.length > 1);
  if (!mix) throw new Error('the fixture needs a mix load');
  const realSeconds = mix.timeline.filter((s) => s.partialMs === undefined);
  mix.timeline = Array.from({ length: seconds }, (_, t) => ({ ...realSeconds[t % realSeconds.length], t }));
  mix.durationMs = seconds * 1000;
  const scale = (seconds * 1000) / real.points[0].repeats.flat().find((l) => l.commands.length > 1)!.durationMs;
  mix.commands = Array.from({ length: commands }, (_, i): CommandResult => {
    const source = mix.commands[i % mix.commands.length];
    return { ...source, command: NAMES[i % NAMES.length], requests: Math.round((source.requests * scale) / (commands / mix.commands.length)) };
  });
  mix.total = { ...mix.total, requests: mix.commands.reduce((sum, c) => sum + c.requests, 0) };
  point.repeats = [[mix]];
  point.summary = summariseRepeats(point.repeats);
  run.points = [point];
  // The run's steady part: its first and last samples show clients connecting and leaving.
  const samples = real.server.samples.slice(1, -1);
  run.server.samples = Array.from({ length: seconds }, (_, i) => ({ ...samples[i % samples.length], t: i * 1000 }));
  run.server.events = [];
  run.durationMs = seconds * 1000;
  run.finishedAt = new Date(Date.parse(run.startedAt) + run.durationMs).toISOString();
  mix.startedAt = run.startedAt;
  return run;
}

/** The `finished` fixture's two loads made client groups `readers` and `writers` (background) of one phase, started together. */
export function groupsRun(): RunFile {
  const run = JSON.parse(readFileSync(join(repoRoot(), 'test', 'browser', 'fixtures', 'finished.rbench-run.json'), 'utf8')) as RunFile;
  const loads = run.points[0].repeats[0];
  const names = [
    ['readers', false],
    ['writers', true],
  ] as const;
  loads.forEach((load, i) => {
    load.test = names[i][0];
    load.phase = 'main';
    load.startedAt = loads[0].startedAt;
    load.group = { name: names[i][0], background: names[i][1] };
  });
  return run;
}
