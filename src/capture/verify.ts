// `--verify`: runs the written scenario (its first, open-loop scenario) on a throwaway server through the
// same pipeline as `rbench run` (RunSession: check, throwaway server, load, run file), reads that server's
// counters while the first measured phase runs (never MONITOR: it would slow the replay), and compares the
// two (./fidelity.ts). It also holds the replay
// to the source's counters, which MONITOR did not bias: each command's calls per second (the source's INFO
// commandstats before MONITOR started; the replay's per-load commandstats in its run file) and each key pattern's
// distinct keys (the source's SCAN sample; a SCAN MATCH of the throwaway server once the replay is done). A
// difference past 5% is a mismatch, and the CLI exits non-zero.
import { RunSession, type SessionPorts } from '../runner/session';
import { captureTarget } from './captureTarget';
import { captureWorkload, UNPERTURBED_MS } from './capture';
import { compareCaptures, compareCounters, type CounterComparison, type CounterReading, type Fidelity } from './fidelity';
import { KEY_PLACEHOLDER } from './keyShape';
import { countLeftKeys } from '../runner/leftKeys';
import type { RunFile } from '../results/runFile';
import { DEFAULT_CAPTURE, type CaptureResult } from './types';
import { buildWorkload, type Workload } from './workload';

export interface VerifyOptions {
  /** The scenario file as written, and how to show it. */
  text: string;
  display: string;
  runsFolder: string;
  runsFolderRoot?: string;
  env: Record<string, string | undefined>;
  log: (line: string) => void;
  signal?: AbortSignal;
}

export interface VerifyOutcome {
  fidelity?: Fidelity;
  /** The replay against the source's counters: rate per command, distinct keys per pattern. */
  counters?: CounterComparison;
  reproduced?: { capture: CaptureResult; workload: Workload };
  /** The run file of the reproduction, when it was saved. */
  runPath?: string;
  error?: string;
}

export async function verifyCapture(captured: { capture: CaptureResult; workload: Workload }, options: VerifyOptions): Promise<VerifyOutcome> {
  let reproduction: Promise<CaptureResult | string> | undefined;
  // The reproduction's capture first reads the counters for UNPERTURBED_MS before its MONITOR: both within the load.
  const windowMs = Math.max(500, captured.capture.windowMs * 0.8 - UNPERTURBED_MS);
  const ports: SessionPorts = {
    // The throwaway server asks nothing; any other target never reaches here.
    confirm: async () => false,
    secret: async () => undefined,
    log: options.log,
    started: (_run, target) => {
      started = target.display;
    },
    progress: (_run, event) => {
      if (event.kind !== 'load-start' || !event.at.measured || reproduction || !started) return;
      const target = captureTarget({ target: started, supplier: 'user', via: 'the throwaway server of --verify', env: options.env });
      if (typeof target === 'string') {
        reproduction = Promise.resolve(target);
        return;
      }
      reproduction = captureWorkload(target.connection, target.display, {
        ...DEFAULT_CAPTURE,
        keepNames: captured.capture.keepNames,
        // Never MONITOR the replay: it cost the replay 23% of its rate (27.2k/s against the source's 35.1k/s), the
        // very bias the comparison with the source's counters must not carry. Its counters only, once a second.
        monitor: 'off',
        durationMs: windowMs,
        // The reproduction's keyspace is the prefill's: only its traffic is compared.
        keyspaceLimits: { maxKeys: 0, maxMs: 0 },
        signal: options.signal,
      }).catch((error: Error) => error.message);
    },
  };
  let started: string | undefined;
  let keysAfter: Map<string, number> | string | undefined;
  const patterns = captured.workload.groups.flatMap((group) => (group.pattern?.includes(KEY_PLACEHOLDER) ? [group.pattern] : []));
  ports.finishing = async (_run, target) => {
    const counted = captureTarget({ target: target.display, supplier: 'user', via: 'the throwaway server of --verify', env: options.env });
    if (typeof counted === 'string') {
      keysAfter = counted;
      return;
    }
    try {
      const globs = patterns.map(patternGlob);
      const counts = await countLeftKeys(counted.connection, globs);
      keysAfter = new Map(counts.map((c, i) => [patterns[globs.indexOf(c.pattern)] ?? patterns[i], c.count]));
    } catch (error) {
      keysAfter = (error as Error).message;
    }
  };
  const session = new RunSession({ env: options.env, trusted: true, runsFolder: options.runsFolder, runsFolderRoot: options.runsFolderRoot }, ports);
  const file = { display: options.display, text: options.text };
  const resolved = await session.check(file);
  if ('kind' in resolved) return { error: resolved.message };
  const [plan] = resolved.scenarios;
  if (!plan) return { error: `${options.display}: no scenario to verify` };
  const prepared = await session.prepare(file, resolved, { ...plan, target: { ...plan.target, url: undefined, profile: undefined } });
  if ('kind' in prepared) return { error: prepared.message };
  if (!prepared.choice.local) return { error: 'the verify run must use a throwaway server' };
  const outcome = await session.execute(prepared, options.signal);
  if (outcome.kind === 'not-run') return { error: outcome.message };
  const capture = await reproduction;
  if (capture === undefined) return { error: 'the reproduction never reached its measured phase', runPath: outcome.path };
  if (typeof capture === 'string') return { error: `could not capture the reproduction: ${capture}`, runPath: outcome.path };
  if (typeof keysAfter === 'string') return { error: `could not count the replay's keys: ${keysAfter}`, runPath: outcome.path };
  const replay: CounterReading = { rates: replayRates(outcome.run), keys: keysAfter ?? new Map() };
  const reproduced = { capture, workload: buildWorkload(capture) };
  return {
    fidelity: compareCaptures(captured, reproduced, replay.rates),
    counters: compareCounters(sourceCounters(captured), replay),
    reproduced,
    runPath: outcome.path,
  };
}

/** A written key pattern as a SCAN MATCH glob: `__key__` any digits, glob characters of its own escaped. */
export function patternGlob(pattern: string): string {
  return pattern
    .split(KEY_PLACEHOLDER)
    .map((part) => part.replace(/[*?[\]\\]/g, (c) => `\\${c}`))
    .join('*');
}

/** The command name as the capture's counters write it: `GET`, `CONFIG GET` (commandstats: `get`, `config|get`). */
const commandName = (name: string) => name.toUpperCase().replace('|', ' ');

/**
 * The source's figures, outside MONITOR: each replayed command's calls per second over the counters read before
 * MONITOR started (the window's without them), and each key group's distinct keys from the SCAN sample
 * (DBSIZE × the pattern's part of the sample). A keyspace scaled down to fit is not compared by keys.
 */
export function sourceCounters(captured: { capture: CaptureResult; workload: Workload }): CounterReading {
  const { capture, workload } = captured;
  const rates = new Map<string, number>();
  const counted = [capture.unperturbed, capture.counters].find((c) => c && [...c.calls.values()].some((n) => n > 0));
  const replayed = new Set(workload.lines.map((line) => line.command));
  if (counted) for (const name of replayed) rates.set(name, ((counted.calls.get(name) ?? 0) * 1000) / Math.max(1, counted.windowMs));
  const keys = new Map<string, number>();
  const keyspace = capture.keyspace;
  if (keyspace && !keyspace.refused && keyspace.scanned > 0 && !workload.scaledPrefill) {
    for (const group of workload.groups) {
      if (!group.pattern?.includes(KEY_PLACEHOLDER)) continue;
      const sample = keyspace.patterns.get(group.pattern);
      if (!sample) continue;
      keys.set(group.pattern, keyspace.dbsize !== undefined ? (keyspace.dbsize * sample.keys) / keyspace.scanned : sample.keys);
    }
  }
  return { rates, keys };
}

/**
 * The replay's calls per second by command: each measured load's commandstats delta over the load's throughput
 * window (the counters' own window also holds the connecting and the reads around the load: 0.2 s of a 3 s
 * phase), added up over the loads (the key groups run one after another).
 */
export function replayRates(run: RunFile): Map<string, number> {
  const rates = new Map<string, number>();
  const loads = run.points[0]?.repeats[0] ?? [];
  // The groups of a phase (a job queue's producers and consumers) share one reading of the counters: it counts
  // once, over the senders' window (the consumers' also holds the drain after the producers ended).
  const counted = new Set<string>();
  for (const load of loads) {
    if (load.group && counted.has(load.phase)) continue;
    const senders = load.group ? loads.filter((other) => other.phase === load.phase && other.group && !other.consumer) : [load];
    const windowMs = Math.max(0, ...senders.map((other) => other.windowMs ?? other.durationMs));
    if (!load.measured || !load.server || windowMs <= 0) continue;
    if (load.group) counted.add(load.phase);
    for (const [name, counters] of Object.entries(load.server.commands)) {
      const command = commandName(name);
      rates.set(command, (rates.get(command) ?? 0) + (counters.calls * 1000) / windowMs);
    }
  }
  return rates;
}
