// "Where the time went", per test, from a run file's server-side fields (LoadResult.server, .bottleneck,
// .stalls, health.pauses): the verdict's short label and its line, the latency split (client p50/p99
// against the server's time per call), the client's own pauses, load the run did not send. Every field
// is optional: an older run file yields tests with none of them. Pure: bundled into the webview and unit-tested.
import type { Bottleneck, ClientPauses, LoadResult, Stall } from '../engine';
import { formatLatency } from '../results/format';
import type { RunFile } from '../results/runFile';
import { representativeLoad } from '../results/summary';
import { longestStall, stallText, validStalls } from './stalls';
import { testName } from './timeCharts';
import { verdictLabel, verdictShort } from './verdictLabels';
import { groupDigits } from '../scenario/numberText';

export interface VerdictView {
  kind: string;
  /** `server CPU`; `mixed: server CPU + persistence`. */
  label: string;
  why: string;
  /** `mixed`: each part's label and line. */
  parts: { label: string; why: string }[];
}

/** One bar of the split: a client percentile as the server's time per call plus the rest. */
export interface SplitBar {
  label: 'p50' | 'p99';
  totalUs: number;
  /** The server's time per call, at most the total. */
  serverUs: number;
  /** Round trip, queueing and client. */
  restUs: number;
}

export interface LatencySplit {
  /** `server.usecPerCall`: the server's µs per call of the commands the test sent. */
  serverUsPerCall: number;
  bars: SplitBar[];
}

export interface TestExplanation {
  /** `value=100 SET`: as the table and the charts name the test. */
  name: string;
  point: string;
  phase: string;
  test: string;
  verdict?: VerdictView;
  split?: LatencySplit;
  /** `40 % of the tail overlapped client pauses (GC, event loop): p99.9 without them 2.10 ms`, when notable. */
  pauses?: string;
  /** `the server ran 38,000 commands this run did not send`. */
  foreign?: string;
  /** `server CPU 97 % of a core (main thread 95 %)` over the test, where the server told. */
  serverCpu?: string;
  /** The representative load's stalls in words. */
  stalls: string[];
  /** The longest stall in any repeat of the test. */
  longestStall?: Stall;
}

/** A share of the tail at least this overlapping client pauses is worth a line. */
export const NOTABLE_TAIL_SHARE = 0.1;

export function verdictView(verdict: Bottleneck | undefined): VerdictView | undefined {
  if (!verdict) return undefined;
  return {
    kind: verdict.kind,
    label: verdictShort(verdict),
    why: verdict.why,
    parts: (verdict.parts ?? []).map((part) => ({ label: verdictLabel(part.kind), why: part.why })),
  };
}

export function latencySplit(load: Pick<LoadResult, 'total' | 'server'>): LatencySplit | undefined {
  const server = load.server?.usecPerCall;
  if (server === undefined || !Number.isFinite(server) || load.total.requests === 0) return undefined;
  const bar = (label: SplitBar['label'], totalUs: number): SplitBar => {
    const serverUs = Math.min(server, totalUs);
    return { label, totalUs, serverUs, restUs: totalUs - serverUs };
  };
  return { serverUsPerCall: server, bars: [bar('p50', load.total.latency.p50Us), bar('p99', load.total.latency.p99Us)] };
}

export function pausesLine(pauses: ClientPauses | undefined): string | undefined {
  if (!pauses || !(pauses.tailShare >= NOTABLE_TAIL_SHARE)) return undefined;
  const share = `${Math.round(pauses.tailShare * 100)} % of the tail overlapped client pauses (GC, event loop)`;
  return pauses.p999UsWithoutPauses === undefined ? share : `${share}: p99.9 without them ${formatLatency(pauses.p999UsWithoutPauses)}`;
}

export function serverCpuLine(load: Pick<LoadResult, 'server'>): string | undefined {
  const cpu = load.server?.cpuPercent;
  if (cpu === undefined) return undefined;
  const main = load.server?.mainThreadCpuPercent;
  return `server CPU ${Math.round(cpu)} % of a core${main === undefined ? '' : ` (main thread ${Math.round(main)} %)`}`;
}

export function foreignLine(load: Pick<LoadResult, 'server'>): string | undefined {
  const calls = load.server?.foreign?.calls;
  return calls ? `the server ran ${groupDigits(calls)} command${calls === 1 ? '' : 's'} this run did not send` : undefined;
}

/** The load shown for a test at a point (its representative repeat), found by the names a table row carries. */
export function loadOf(run: RunFile, point: string, phase: string, test: string): LoadResult | undefined {
  const at = run.points.find((p) => p.label === point);
  const summary = at?.summary.find((s) => s.phase === phase && s.test === test);
  return at && summary ? representativeLoad(at.repeats, summary) : undefined;
}

export function testExplanations(run: RunFile): TestExplanation[] {
  const phases = new Set(run.points.flatMap((p) => p.summary.map((s) => s.phase))).size;
  const out: TestExplanation[] = [];
  for (const point of run.points) {
    for (const summary of point.summary) {
      const load = representativeLoad(point.repeats, summary);
      if (!load) continue;
      const repeats = point.repeats.flatMap((loads) => loads.filter((l) => l.phase === summary.phase && l.test === summary.test));
      const explanation: TestExplanation = {
        name: testName(point.label, summary.phase, summary.test, phases),
        point: point.label,
        phase: summary.phase,
        test: summary.test,
        stalls: validStalls(load.stalls).map(stallText),
      };
      const longest = longestStall(repeats.flatMap((l) => l.stalls ?? []));
      if (longest) explanation.longestStall = longest;
      const verdict = verdictView(load.bottleneck);
      if (verdict) explanation.verdict = verdict;
      const split = latencySplit(load);
      if (split) explanation.split = split;
      const pauses = pausesLine(load.health?.pauses);
      if (pauses) explanation.pauses = pauses;
      const foreign = foreignLine(load);
      if (foreign) explanation.foreign = foreign;
      const cpu = serverCpuLine(load);
      if (cpu) explanation.serverCpu = cpu;
      out.push(explanation);
    }
  }
  return out;
}

/** Whether a test has anything for the "where the time went" section (a verdict alone is in the header). */
export function hasExplanation(e: TestExplanation): boolean {
  return Boolean(e.split || e.serverCpu || e.pauses || e.foreign || e.stalls.length > 0);
}
