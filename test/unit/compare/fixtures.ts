// Run files for comparison tests: real plans from the resolver, made-up measurements.
import type { CommandResult, LoadResult } from '../../../src/engine/types';
import { checkText } from '../../../src/scenario';
import type { RunFile } from '../../../src/results/runFile';
import { summariseRepeats } from '../../../src/results/summary';

/** Measured numbers of one command: throughput, p99 (µs), errors; the other percentiles follow from p99. */
export interface Numbers {
  ops: number;
  p99: number;
  errors?: number;
}

export function commandResult(command: string, { ops, p99, errors = 0 }: Numbers): CommandResult {
  return {
    command,
    requests: 10_000,
    errors,
    errorsByKind: errors ? { OOM: errors } : {},
    errorExamples: errors ? { OOM: 'OOM command not allowed' } : {},
    opsPerSec: ops,
    latency: {
      count: 10_000,
      minUs: 10,
      meanUs: p99 / 2,
      stddevUs: 1,
      p50Us: p99 / 4,
      p90Us: p99 / 2,
      p95Us: p99 / 1.5,
      p99Us: p99,
      p999Us: p99 * 2,
      maxUs: p99 * 4,
    },
    histogram: '',
  };
}

/** A test's load: its total, and for a mix, one result per command. */
export function loadResult(phase: string, test: string, total: Numbers, mix?: Record<string, Numbers>): LoadResult {
  const commands = mix ? Object.entries(mix).map(([name, numbers]) => commandResult(name, numbers)) : [commandResult(test, total)];
  return {
    test,
    phase,
    measured: true,
    client: 'fast',
    status: 'complete',
    startedAt: '2026-11-29T00:00:00.000Z',
    durationMs: 1000,
    total: commandResult('total', total),
    commands,
    timeline: [],
    connections: { opened: 4, reconnects: 0 },
    health: { threads: 1, cpuPercent: 50, eventLoopLagP99Ms: 1, bottleneck: 'server' },
    seed: 1,
  };
}

export interface RunSpec {
  /** The scenario text (resolved by the real resolver). */
  text: string;
  /** Point label → repeats → loads. One point without a sweep: use the key ''. */
  results: Record<string, LoadResult[][]>;
  id?: string;
  status?: RunFile['status'];
  serverVersion?: string;
  client?: RunFile['client'];
  cores?: number;
}

export function makeRun(spec: RunSpec): RunFile {
  const resolved = checkText(spec.text);
  const errors = resolved.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) throw new Error(`fixture scenario does not resolve: ${errors.map((d) => d.message).join('; ')}`);
  const plan = resolved.scenarios[0];
  if (spec.client) plan.target.client = spec.client;
  return {
    version: 1,
    tool: { name: 'rbench', version: '0.1.0' },
    id: spec.id ?? `run-${plan.name}`,
    scenario: { name: plan.name, index: 0, file: 'bench/test.rbench', source: spec.text },
    plan,
    target: {
      display: 'redis://127.0.0.1:6379',
      local: false,
      server: { version: spec.serverVersion ?? '7.2.4', mode: 'standalone', config: { save: '', appendonly: 'no' } },
    },
    client: spec.client ?? 'fast',
    machine: { platform: 'linux', release: '6.1', arch: 'x64', cpuModel: 'Test CPU', cores: spec.cores ?? 8, totalMemoryBytes: 1 << 30, node: 'v20' },
    startedAt: '2026-11-29T10:00:00.000Z',
    finishedAt: '2026-11-29T10:00:05.000Z',
    durationMs: 5000,
    status: spec.status ?? 'complete',
    points: Object.entries(spec.results).map(([label, repeats]) => ({
      label,
      sweep: {},
      repeats,
      summary: summariseRepeats(repeats),
    })),
    server: { samples: [], events: [] },
    thresholds: [],
  };
}

/** A SET/GET scenario at `clients` with one result per test. */
export function setGetRun(options: { clients?: number; pipeline?: number; value?: number; set: Numbers; get?: Numbers } & Partial<RunSpec>): RunFile {
  const text = `### set get\nclients ${options.clients ?? 4}\npipeline ${options.pipeline ?? 1}\nrequests 10000\nvalue ${options.value ?? 16}\nSET k:__key__ __value__\nGET k:__key__\n`;
  const loads = [loadResult('main', 'SET', options.set)];
  if (options.get) loads.push(loadResult('main', 'GET', options.get));
  return makeRun({ ...options, text, results: { '': [loads] } });
}
