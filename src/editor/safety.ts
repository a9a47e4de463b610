// Guards against benchmarking the wrong server: scenarios that write (or delete keys afterwards) ask before
// running against a server on another machine, and read-only profiles refuse them. Plain data, no `vscode`.
import { isLoopback } from '../redis/target';
import { isWriteCommand } from '../scenario/commands';
import type { ScenarioPlan } from '../scenario/plan';

/** The first thing the scenario does that changes data, as written (`SET`, `cleanup bench:*`), or undefined. */
export function firstWrite(plan: ScenarioPlan): string | undefined {
  for (const point of plan.points) {
    for (const phase of point.phases) {
      for (const test of phase.tests) {
        const writer = test.commands.find(({ command }) => isWriteCommand(command.name));
        if (writer) return writer.command.name;
      }
    }
  }
  if (plan.writes) return 'a write command';
  // `cleanup` deletes every key that matches its pattern after the run.
  if (plan.cleanup !== undefined) return `cleanup ${plan.cleanup}`;
  return undefined;
}

/**
 * True when the user must confirm before the run: the scenario writes, the server is not on this machine,
 * and the user has not already said "Run" for this target.
 */
export function needsWriteConfirmation(plan: ScenarioPlan, host: string, alreadyConfirmed: boolean): boolean {
  return !alreadyConfirmed && !isLoopback(host) && firstWrite(plan) !== undefined;
}

/** The workspaceState key that remembers a "Run" answer for a target (its display URL, no password). */
export function confirmationKey(targetDisplay: string): string {
  return `rbench.writeConfirmed.${targetDisplay}`;
}

export function writeConfirmationMessage(plan: ScenarioPlan, targetDisplay: string): string {
  return `"${plan.name}" changes data (${firstWrite(plan)}) on ${targetDisplay}, which is not on this machine. Run it there? RBench asks once per target.`;
}

/** Why a read-only profile refuses this scenario, or undefined when it may run. */
export function readOnlyRefusal(plan: ScenarioPlan, profileName: string | undefined, readOnly: boolean | undefined): string | undefined {
  if (!profileName || !readOnly) return undefined;
  const writer = firstWrite(plan);
  if (!writer) return undefined;
  return `connection profile "${profileName}" is read-only, but "${plan.name}" writes (${writer}): run it against another target, or remove "readOnly" from the profile`;
}
