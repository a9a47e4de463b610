// `--verify`: runs the written scenario (its first, open-loop scenario) on a throwaway server through the
// same pipeline as `rbench run` (RunSession: check, throwaway server, load, run file), captures that server
// while the measured phase runs, and compares the two captures (./fidelity.ts).
import { RunSession, type SessionPorts } from '../runner/session';
import { captureTarget } from './captureTarget';
import { captureWorkload, UNPERTURBED_MS } from './capture';
import { compareCaptures, type Fidelity } from './fidelity';
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
        monitor: 'on',
        durationMs: windowMs,
        // The reproduction's keyspace is the prefill's: only its traffic is compared.
        keyspaceLimits: { maxKeys: 0, maxMs: 0 },
        signal: options.signal,
      }).catch((error: Error) => error.message);
    },
  };
  let started: string | undefined;
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
  const reproduced = { capture, workload: buildWorkload(capture) };
  return { fidelity: compareCaptures(captured, reproduced), reproduced, runPath: outcome.path };
}
