// A run in progress as the results panel follows it: the state rebuilt from RunProgress events, and the
// run so far as a run file. Pure (no `vscode`, no Node modules): bundled into the webview and unit-tested.
import type { LoadResult, LoadTick, TimelineSecond } from '../engine';
import type { PersistenceEvent, RunFile } from '../results/runFile';
import { summariseRepeats } from '../results/summary';
import { rateOfProbeLabel } from '../results/rateSearch';
import type { ServerFacts, ServerSample } from '../redis/types';
import type { LoadPosition, RunProgress } from '../runner/runScenario';
import type { ScenarioPlan } from '../scenario/plan';

/** Which panel a run belongs to: one panel per scenario of a file. */
export interface PanelKey {
  file?: string;
  scenario: string;
}

export function panelKeyId(key: PanelKey): string {
  return `${key.file ?? ''}\u0000${key.scenario}`;
}

/** One load of a live run: its position, the seconds seen so far and, once it ended, its result. */
export interface LiveLoad {
  at: LoadPosition;
  /** Milliseconds after the run started when the load started (its warm-up included). */
  startMs: number;
  timeline: TimelineSecond[];
  tick?: LoadTick;
  result?: LoadResult;
}

export interface LiveRunState {
  plan: ScenarioPlan;
  file?: string;
  /** ISO time the run started: server sample times count from here. */
  startedAt: string;
  target?: { display: string; local: boolean; server?: ServerFacts };
  loads: LiveLoad[];
  samples: ServerSample[];
  events: PersistenceEvent[];
  /** Milliseconds since the start of the last event applied. */
  elapsedMs: number;
}

/** A progress event stamped with when it happened (ms after the run started), so every copy of the state agrees. */
export interface StampedProgress {
  atMs: number;
  event: RunProgress;
}

export function newLiveRun(plan: ScenarioPlan, startedAt: string, options: { file?: string; target?: LiveRunState['target'] } = {}): LiveRunState {
  return { plan, file: options.file, startedAt, target: options.target, loads: [], samples: [], events: [], elapsedMs: 0 };
}

function sameLoad(a: LoadPosition, b: LoadPosition): boolean {
  return a.index === b.index && a.point === b.point && a.phase === b.phase && a.test === b.test && a.repeat === b.repeat;
}

/** Applies one progress event to a live run (mutates and returns it). Unknown or out-of-order events are ignored. */
export function applyProgress(state: LiveRunState, stamped: StampedProgress): LiveRunState {
  const { atMs, event } = stamped;
  state.elapsedMs = Math.max(state.elapsedMs, atMs);
  switch (event.kind) {
    case 'load-start':
      if (!state.loads.some((load) => sameLoad(load.at, event.at))) state.loads.push({ at: event.at, startMs: atMs, timeline: [] });
      break;
    case 'tick': {
      let load = state.loads.find((l) => sameLoad(l.at, event.at));
      if (!load) state.loads.push((load = { at: event.at, startMs: Math.max(0, atMs - event.tick.elapsedMs), timeline: [] }));
      if (load.result) break;
      load.tick = event.tick;
      const second = event.tick.lastSecond;
      if (second) {
        const last = load.timeline[load.timeline.length - 1];
        if (last && last.t === second.t) load.timeline[load.timeline.length - 1] = second;
        else if (!last || second.t > last.t) load.timeline.push(second);
      }
      break;
    }
    case 'load-end': {
      let load = state.loads.find((l) => sameLoad(l.at, event.at));
      if (!load) state.loads.push((load = { at: event.at, startMs: Math.max(0, atMs - event.result.durationMs), timeline: [] }));
      load.result = event.result;
      load.timeline = event.result.timeline;
      break;
    }
    case 'server-sample':
      if (state.samples.length === 0 || event.sample.t > state.samples[state.samples.length - 1].t) state.samples.push(event.sample);
      break;
  }
  return state;
}

/** The load running now (started, not ended), if any. */
export function currentLoad(state: LiveRunState): LiveLoad | undefined {
  const last = state.loads[state.loads.length - 1];
  return last && !last.result ? last : undefined;
}

/**
 * The run so far as a run file: measured loads that ended, grouped by point and repeat and summarised as
 * the runner does at the end. Status stays `complete` (nothing went wrong yet); thresholds are not known yet.
 */
export function liveRunFile(state: LiveRunState): RunFile {
  // A rate search's points are its probes and confirmations, known only as they start (results/rateSearch probePoint).
  const pointPlans = state.plan.rateSearch
    ? [...new Set(state.loads.map((load) => load.at.point))].map((label) => ({ label, sweep: { rate: rateOfProbeLabel(label) } }))
    : state.plan.points;
  const points = pointPlans.flatMap((pointPlan) => {
    const repeats: LoadResult[][] = [];
    for (const load of state.loads) {
      if (!load.result || !load.at.measured || load.at.point !== pointPlan.label) continue;
      (repeats[load.at.repeat] ??= []).push(load.result);
    }
    const filled = repeats.filter((loads) => loads && loads.length > 0);
    return filled.length > 0 ? [{ label: pointPlan.label, sweep: pointPlan.sweep, repeats: filled, summary: summariseRepeats(filled) }] : [];
  });
  const started = Date.parse(state.startedAt);
  return {
    version: 1,
    tool: { name: 'rbench', version: '' },
    id: '',
    scenario: { name: state.plan.name, index: state.plan.index, file: state.file, source: '' },
    plan: state.plan,
    target: state.target ?? { display: '', local: false },
    client: state.plan.target.client,
    machine: { platform: '', release: '', arch: '', cpuModel: '', cores: 0, totalMemoryBytes: 0, node: '' },
    startedAt: state.startedAt,
    finishedAt: new Date(started + state.elapsedMs).toISOString(),
    durationMs: state.elapsedMs,
    status: 'complete',
    points,
    server: { samples: state.samples, events: state.events },
    thresholds: [],
  };
}
