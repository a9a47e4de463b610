// An imported tool's figures as a run file: the plan resolved from the scenario its command line stands for,
// one load per test with the figures the tool gave, and every figure it did not give listed in `imported.absent`
// (the schema needs a number there: the placeholder is 0, and readers that know `imported` show a gap).
import type { CommandResult, LatencySummary, LoadResult, TimelineSecond } from '../../engine';
import { parseDocument, resolveDocument, type ScenarioPlan } from '../../scenario';
import type { MachineFacts, RunFile } from '../runFile';
import { runId } from '../runFile';
import { RUN_FILE_FORMAT_VERSION } from '../runFileVersion';
import { summariseRepeats } from '../summary';
import { importError, type ImportedFrom } from './imported';

/** The figures a tool gives for one command (latencies in µs); a latency it does not give is undefined. */
export interface ImportedFigures {
  command: string;
  requests: number;
  errors: number;
  opsPerSec: number;
  latency: Partial<Omit<LatencySummary, 'count' | 'stddevUs'>>;
}

export interface ImportedTest {
  /** The test's name in the plan. */
  test: string;
  total: ImportedFigures;
  commands: ImportedFigures[];
  durationMs: number;
  timeline: TimelineSecond[];
}

export interface ImportedRun {
  /** The scenario the tool's command line stands for (resolved into the plan). */
  scenario: string;
  target: string;
  startedAt: Date;
  tests: (plan: ScenarioPlan) => ImportedTest[];
  imported: Omit<ImportedFrom, 'absentMetrics'>;
}

/** The plan of the scenario text; an ImportError when it does not resolve (a command line this cannot model). */
export function planOf(scenario: string, file: string): ScenarioPlan {
  const resolved = resolveDocument(parseDocument(scenario));
  const error = resolved.diagnostics.find((d) => d.severity === 'error');
  if (error || resolved.scenarios.length !== 1) throw importError(file, undefined, `the command line does not make a plan: ${error?.message ?? 'no scenario'}`);
  return resolved.scenarios[0];
}

const LATENCY_FIELDS = ['minUs', 'meanUs', 'p50Us', 'p90Us', 'p95Us', 'p99Us', 'p999Us', 'maxUs'] as const;
/** The compared metric each latency field is shown as (compare.ts's names). */
const METRIC_OF: Partial<Record<(typeof LATENCY_FIELDS)[number], string>> = { p50Us: 'p50', p90Us: 'p90', p99Us: 'p99', p999Us: 'p99.9', maxUs: 'max' };

function commandResult(figures: ImportedFigures): CommandResult {
  const latency = { count: figures.requests, stddevUs: 0 } as LatencySummary;
  for (const field of LATENCY_FIELDS) latency[field] = figures.latency[field] ?? 0;
  return {
    command: figures.command,
    requests: figures.requests,
    errors: figures.errors,
    errorsByKind: {},
    errorExamples: {},
    opsPerSec: figures.opsPerSec,
    latency,
    histogram: '',
  };
}

/** The machine that ran the tool is not recorded: a placeholder, listed as absent. */
const UNKNOWN_MACHINE: MachineFacts = { platform: 'unknown', release: '', arch: '', cpuModel: 'not recorded', cores: 0, totalMemoryBytes: 0, node: '' };

export function buildRun(source: ImportedRun, file: string): RunFile {
  const plan = planOf(source.scenario, file);
  const tests = source.tests(plan);
  const absentMetrics = new Set<string>();
  const phase = plan.points[0].phases.find((p) => p.measured) ?? plan.points[0].phases[0];
  let clock = source.startedAt.getTime();
  const loads: LoadResult[] = tests.map((test) => {
    for (const field of LATENCY_FIELDS) if (test.total.latency[field] === undefined && METRIC_OF[field]) absentMetrics.add(METRIC_OF[field]!);
    const startedAt = new Date(clock).toISOString();
    clock += test.durationMs;
    return {
      test: test.test,
      phase: phase.name,
      measured: true,
      client: 'fast',
      status: 'complete',
      startedAt,
      durationMs: test.durationMs,
      total: commandResult(test.total),
      commands: test.commands.map(commandResult),
      timeline: test.timeline,
      connections: { opened: phase.load.clients, reconnects: 0 },
      health: { threads: 0, cpuPercent: 0, eventLoopLagP99Ms: 0, bottleneck: 'unknown' },
      seed: 0,
      // No verdict is judged from placeholders: the tool measured the client side only, and its health not at all.
      bottleneck: { kind: 'undetermined', why: `imported from ${source.imported.tool}: only its summary figures are known` },
    };
  });
  const repeats = [loads];
  const finishedAt = new Date(clock);
  const imported: ImportedFrom = {
    ...source.imported,
    absentMetrics: [...absentMetrics],
    absent: {
      ...source.imported.absent,
      machine: `${source.imported.tool} does not record the machine it ran on`,
      'health, connections.reconnects, seed': `${source.imported.tool} does not record the client's CPU, event loop, reconnects or seeds`,
      histogram: `the import keeps ${source.imported.tool}'s percentiles only, no histogram`,
      server: `${source.imported.tool} does not read the server: no version, config or per-test counters`,
    },
  };
  const run: RunFile & { imported: ImportedFrom } = {
    version: RUN_FILE_FORMAT_VERSION,
    tool: { name: 'rbench', version: `import of ${source.imported.tool}` } as RunFile['tool'],
    id: runId(source.startedAt, plan.name),
    scenario: { name: plan.name, index: 0, source: source.scenario },
    plan,
    target: { display: source.target, local: false },
    client: 'fast',
    machine: UNKNOWN_MACHINE,
    startedAt: source.startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - source.startedAt.getTime(),
    status: 'complete',
    points: [{ label: plan.points[0].label, sweep: plan.points[0].sweep, repeats, summary: summariseRepeats(repeats) }],
    server: { samples: [], events: [] },
    thresholds: [],
    imported,
  };
  return run;
}
