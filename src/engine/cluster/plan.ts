// What the workers need to route a test's requests in a cluster: per label, which argument holds the key
// (from the command table's key specs) and whether the command only reads (replica reads).
import { getKeyIndexes } from '@ioredis/commands';
import { classifyCommand, isReadOnlyCommand } from '../../scenario/commands';
import type { ArgTemplate, TestPlan } from '../../scenario/plan';
import type { ClusterPlan } from '../workerMessages';
import type { ClusterTopology } from '../../redis/clusterTopology';

/** A stand-in for an argument: its literal text, with placeholders as sample text (key specs only look at literals like numkeys). */
function sample(arg: ArgTemplate): string {
  return arg.map((part) => (typeof part === 'string' ? part : part.placeholder === 'rand_int' || part.placeholder === 'draw' ? '1' : 'x')).join('');
}

export function clusterPlan(test: TestPlan, labels: string[], topology: ClusterTopology, replicaReads: boolean): ClusterPlan {
  const keyArguments = labels.map(() => -1);
  const readOnly = labels.map(() => false);
  labels.forEach((label, i) => {
    // A group's first row is its unit (UNIT_LABEL), not a command: it is routed by its commands' keys.
    if (test.group && i === 0) return;
    const command = test.commands.find((c) => c.command.label === label)!.command;
    const args = command.args.map(sample);
    readOnly[i] = isReadOnlyCommand(classifyCommand(command.name, args[0]));
    if (command.inline) return;
    // Set by the runner from the target's own command table (a module's command included).
    if (command.keys) {
      if (command.keys.length > 0) keyArguments[i] = command.keys[0] + 1;
      return;
    }
    try {
      const keys = getKeyIndexes(command.name.toLowerCase(), args);
      // The RESP array holds the name first: argument k of the command is element k + 1.
      if (keys.length > 0) keyArguments[i] = keys[0] + 1;
    } catch {
      // Not in the command table (a module's command): sent to a master chosen per request.
    }
  });
  return { topology, replicaReads, keyArguments, readOnly };
}
