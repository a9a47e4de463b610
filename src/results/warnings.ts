// Plain-word warnings about a run: things that change how its numbers should be read.
import { ownValue } from '../gates/plainData';
import { describeServerError } from '../redis/errors';
import type { RunFile } from './runFile';
import { otherRunsOverlapped, stallLine } from './bottleneck';
import { searchWarnings } from './rateCurve';
import { rateSearchOutcome } from './rateSearch';
import { groupDigits } from '../scenario/numberText';
import { missWarnings } from './hitsMisses';
import { pubsubLines } from './pubsubLines';

export function runWarnings(run: RunFile): string[] {
  const warnings: string[] = [];
  if (run.target.tlsInsecure) {
    warnings.push(
      "TLS certificate verification was off (`tls-insecure on`): the connection was encrypted, but the server was not authenticated. Use `tls-ca` with the server's CA for anything but a test server.",
    );
  }
  const loads = run.points.flatMap((point) => point.repeats.flat());
  // First: another RBench load on the same server changes every figure of this one.
  if (run.otherRuns?.length)
    warnings.push(`${otherRunsOverlapped(run.otherRuns)}: both loaded the same server, so these figures are not this run's alone; run them one after another.`);

  if (run.cleanupLeft) {
    const { ended, parts } = run.cleanupLeft;
    warnings.push(
      `\`cleanup\` left to the last part to end: ${ended} of ${parts} parts had ended with this one, so their keys stay until the last deletes them.`,
    );
  }

  // Who set the pace is each test's bottleneck verdict (src/results/bottleneck); a stall changes how every figure reads.
  for (const load of loads) {
    for (const stall of load.stalls ?? []) warnings.push(`${load.test}: ${stallLine(stall)}.`);
  }

  const errorsByKind = new Map<string, { count: number; example?: string }>();
  for (const load of loads) {
    for (const [kind, count] of Object.entries(load.total.errorsByKind)) {
      const entry = errorsByKind.get(kind) ?? { count: 0, example: ownValue(load.total.errorExamples, kind) };
      entry.count += count;
      errorsByKind.set(kind, entry);
    }
  }
  for (const [kind, { count, example }] of errorsByKind) {
    const advice = example ? describeServerError(example) : undefined;
    warnings.push(`${groupDigits(count)} ${kind} error${count === 1 ? '' : 's'}${advice ? `: ${advice}` : example ? `: ${example}` : ''}`);
  }

  // Said once per command, unless the scenario says the misses are meant (`expect miss-rate …`).
  if (!run.plan.expects.some((expectation) => expectation.metric === 'miss-rate')) warnings.push(...missWarnings(loads));

  warnings.push(...pubsubLines(loads));

  const late = loads.reduce((sum, load) => sum + (load.openLoop?.lateSends ?? 0), 0);
  if (late > 0) warnings.push(`Open loop: ${groupDigits(late)} sends were late (their latency counts from when they were due).`);

  const saves = run.server.events.filter((event) => event.kind === 'bgsave-start').length;
  const failedSaves = run.server.events.filter((event) => event.kind === 'bgsave-failed').length;
  const rewrites = run.server.events.filter((event) => event.kind === 'aof-rewrite-start').length;
  if (saves > 0) warnings.push(`${saves} background snapshot${saves === 1 ? '' : 's'} (BGSAVE) ran during this run.`);
  if (failedSaves > 0) warnings.push(`${failedSaves} background snapshot${failedSaves === 1 ? '' : 's'} failed: the server may refuse writes (MISCONF).`);
  if (rewrites > 0) warnings.push(`${rewrites} AOF rewrite${rewrites === 1 ? '' : 's'} ran during this run.`);
  if (run.server.error) warnings.push(`Server sampling: ${run.server.error}`);
  const search = rateSearchOutcome(run.plan, run.points);
  if (search) warnings.push(...searchWarnings(search));
  return warnings;
}
