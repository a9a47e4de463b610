// Plans from real scenario text (the resolver, not hand-made objects) and small run files for the editor's unit tests.
import assert from 'node:assert/strict';
import type { CommandResult, LoadResult } from '../../../src/engine/types';
import { checkText } from '../../../src/scenario';
import type { ScenarioPlan } from '../../../src/scenario/plan';
import { summariseRepeats } from '../../../src/results/summary';
import { evaluateThresholds } from '../../../src/results/thresholds';
import { machineFacts, RUN_FILE_VERSION, runId, type RunFile, type RunStatus } from '../../../src/results/runFile';

/** The plans of `text`; fails the test when the text has errors. */
export function plansOf(text: string): ScenarioPlan[] {
  const resolved = checkText(text, { env: {} });
  const errors = resolved.diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(
    errors.map((e) => e.message),
    [],
    'the fixture scenario has errors',
  );
  return resolved.scenarios;
}

export function planOf(text: string): ScenarioPlan {
  return plansOf(text)[0];
}

function commandResult(command: string, ops: number, p99Us: number): CommandResult {
  return {
    command,
    requests: 1000,
    errors: 0,
    errorsByKind: {},
    errorExamples: {},
    opsPerSec: ops,
    latency: {
      count: 1000,
      minUs: 10,
      meanUs: p99Us / 2,
      stddevUs: 1,
      p50Us: p99Us / 3,
      p90Us: p99Us / 2,
      p95Us: p99Us / 1.5,
      p99Us,
      p999Us: p99Us * 2,
      maxUs: p99Us * 3,
    },
    histogram: '',
  };
}

export function loadResult(test: string, ops: number, p99Us: number, status: RunStatus = 'complete'): LoadResult {
  return {
    test,
    phase: 'main',
    measured: true,
    client: 'fast',
    status,
    startedAt: '2026-11-29T00:00:00.000Z',
    durationMs: 1000,
    total: commandResult('total', ops, p99Us),
    commands: [commandResult(test, ops, p99Us)],
    timeline: [],
    connections: { opened: 1, reconnects: 0 },
    health: { threads: 1, cpuPercent: 50, eventLoopUtilization: 0.5, eventLoopLagP99Ms: 1, bottleneck: 'server' },
    seed: 1,
  };
}

/** A run of `plan` whose loads measured `loads`, with its thresholds evaluated as the runner does. */
export function runFileOf(
  plan: ScenarioPlan,
  loads: LoadResult[],
  options: { status?: RunStatus; file?: string; finishedAt?: string; error?: string } = {},
): RunFile {
  const points = loads.length ? [{ label: '', sweep: {}, repeats: [loads], summary: summariseRepeats([loads]) }] : [];
  const finishedAt = options.finishedAt ?? '2026-11-29T12:00:00.000Z';
  const run: RunFile = {
    version: RUN_FILE_VERSION,
    tool: { name: 'rbench', version: 'test' },
    id: runId(new Date(finishedAt), plan.name),
    scenario: { name: plan.name, index: plan.index, file: options.file, source: '' },
    plan,
    target: { display: 'redis://127.0.0.1:6379', local: true },
    client: 'fast',
    machine: machineFacts(),
    startedAt: finishedAt,
    finishedAt,
    durationMs: 1000,
    status: options.status ?? 'complete',
    points,
    server: { samples: [], events: [] },
    thresholds: evaluateThresholds(plan.expects, points),
  };
  if (options.error) run.error = options.error;
  return run;
}
