// Runs measured in parts one after another (a `sweep server`'s servers, the interleaved repeats of a run on
// several targets) become one run file: the parts' INFO samples, persistence events and gaps keep their time
// since the first part's start, the worst status wins, the first error is the run's, thresholds are judged
// again on the joined points. What the points are is the caller's (serverSweep.ts, multiTarget.ts).
import type { ScenarioPlan } from '../scenario/plan';
import type { PointResult, RunFile, RunStatus } from '../results/runFile';
import { evaluateThresholds } from '../results/thresholds';
import { thresholdPoints } from '../results/rateSearch';

const STATUS_WEIGHT: Record<RunStatus, number> = { complete: 0, 'complete-with-errors': 1, cancelled: 2, failed: 3 };

/** True when a part's status ends the parts after it (nothing more should run). */
export function endsParts(status: RunStatus): boolean {
  return status === 'failed' || status === 'cancelled';
}

/** The parts as one run of `plan` with these points (the first part's identity, machine and target). */
export function joinParts(plan: ScenarioPlan, parts: readonly RunFile[], points: PointResult[]): RunFile {
  const first = parts[0];
  const last = parts[parts.length - 1];
  const origin = Date.parse(first.startedAt);
  const server: RunFile['server'] = { samples: [], events: [] };
  if (first.server.before) server.before = first.server.before;
  if (last.server.after) server.after = last.server.after;
  let status: RunStatus = 'complete';
  let error: string | undefined;
  let cleanedUpKeys: number | undefined;
  // Each part counted the keys after its own prefill (a point's server, a target).
  const keysAfterPrefill = parts.flatMap((part) => part.keysAfterPrefill ?? []);
  for (const part of parts) {
    const shift = Date.parse(part.startedAt) - origin;
    for (const sample of part.server.samples) server.samples.push({ ...sample, t: sample.t + shift });
    for (const event of part.server.events) server.events.push({ ...event, t: event.t + shift });
    for (const gap of part.server.gaps ?? [])
      (server.gaps ??= []).push({ ...gap, fromT: gap.fromT + shift, ...(gap.toT === undefined ? {} : { toT: gap.toT + shift }) });
    if (part.server.error && !server.error) server.error = part.server.error;
    if (STATUS_WEIGHT[part.status] > STATUS_WEIGHT[status]) status = part.status;
    error ??= part.error;
    if (part.cleanedUpKeys !== undefined) cleanedUpKeys = (cleanedUpKeys ?? 0) + part.cleanedUpKeys;
  }
  const run: RunFile = {
    ...first,
    plan,
    finishedAt: last.finishedAt,
    durationMs: Date.parse(last.finishedAt) - origin,
    status,
    points,
    server,
    thresholds: evaluateThresholds(plan.expects, thresholdPoints(plan, points), keysAfterPrefill),
  };
  if (keysAfterPrefill.length > 0) run.keysAfterPrefill = keysAfterPrefill;
  else delete run.keysAfterPrefill;
  if (error) run.error = error;
  else delete run.error;
  if (cleanedUpKeys !== undefined) run.cleanedUpKeys = cleanedUpKeys;
  else delete run.cleanedUpKeys;
  return run;
}
