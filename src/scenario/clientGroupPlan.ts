// A scope's `load` groups → their plans: each group read as a phase of its own over the scope's shared
// settings, its one test built, and at each sweep point a ClientGroupPlan (its own load, keys and values).
import { testsWithData } from './dataPlan';
import { rangeOf, type DiagnosticSink } from './diagnostics';
import { groupDigits } from './numberText';
import type { VariableScope } from './interpolate';
import type { ClientGroupKind, ClientGroupPlan, TestPlan } from './plan';
import { phasePlan, type Point } from './phasePlan';
import { buildTests } from './phaseTests';
import { connectOnlyTests, isConnectOnly } from './connectOnly';
import { groupPhase, loadRange, MAX_GROUP_CLIENTS, readLoadLine, reportSharedCommands, type LoadLines, type LoadSection } from './clientGroups';
import { checkConsumerGroup, groupKind } from './consumerGroup';
import { readSection, type PhaseSection, type ReadContext, type Section } from './scopeLines';
import type { Layer } from './settingLayer';
import { groupKindOf } from './pubsubGroups';

/** The groups of a scope split by splitLoads, read; undefined when the scope has no `load` line. */
export function readLoads(split: { loads: LoadLines[] }, shared: Section, vars: VariableScope, context: ReadContext): LoadSection[] | undefined {
  if (split.loads.length === 0) return undefined;
  reportSharedCommands(shared, split.loads[0].line, context.sink);
  const names = new Set<string>();
  return split.loads.map(({ line, lines }) => {
    const { name, background } = readLoadLine(line, names, context.sink);
    names.add(name);
    return { name, background, line, section: readSection(lines, 'phase', vars, context) };
  });
}

/** A group with its settings' layer and its one test (named after the group: results show a row per group). */
export interface GroupTest {
  load: LoadSection;
  layer: Layer;
  test: TestPlan;
}

export function groupTests(phase: PhaseSection, loads: LoadSection[], shared: Layer, keysSwept: boolean, sink: DiagnosticSink): GroupTest[] {
  const groups: GroupTest[] = [];
  for (const load of loads) {
    const layer = load.section.layer.over(shared);
    const built = testsWithData(buildTests(groupPhase(load, phase.measured), layer.has('keys') || keysSwept, sink), layer, sink);
    // A storm group (`connect-only on`): its one test is the `connect` one; its clients count in the groups' connections as any group's.
    const tests = isConnectOnly(layer) ? connectOnlyTests(layer, built, sink) : built;
    if (tests.length === 0) {
      sink.error(
        loadRange(load.line),
        'empty-load',
        `client group \`${load.name}\` has no command — add a command line below its \`load\` line, such as \`GET key\``,
      );
      continue;
    }
    if (tests.length > 1) {
      const second = tests[1].group?.source ?? tests[1].commands[0].command.source ?? loadRange(load.line);
      sink.error(
        second,
        'load-several-tests',
        `client group \`${load.name}\` runs one test beside the other groups, but its lines make ${tests.length} — give its commands weights (\`50% GET …\`), or give this one a \`load\` group of its own`,
      );
    }
    groups.push({ load, layer, test: { ...tests[0], name: load.name } });
  }
  return groups;
}

/** A group's kind, from its command's own description: subscribers (it subscribes), consumers (it waits for data), or requests. */
function kindOfGroup(test: TestPlan): ClientGroupKind {
  const subscribing = groupKindOf(test);
  return subscribing === 'requests' ? groupKind(test) : subscribing;
}

/** One group's plan at one sweep point, in `phase`. */
export function groupPlan(group: GroupTest, phase: PhaseSection, point: Point, sink: DiagnosticSink): ClientGroupPlan {
  const { load, layer, test } = group;
  const plan: ClientGroupPlan = {
    name: load.name,
    kind: kindOfGroup(test),
    background: load.background,
    // Named after its phase: the group's results belong to the phase (their test is the group's name).
    phase: phasePlan({ ...groupPhase(load, phase.measured), name: phase.name }, layer, point, [test], sink),
    source: load.line.range,
  };
  if (plan.kind === 'consumers') checkConsumerGroup(plan.name, plan.phase, plan.source, sink);
  return plan;
}

/**
 * The connections a group opens, at most: one per client; on a cluster, an `SSUBSCRIBE` subscriber subscribes each
 * channel on the master of its slot, a connection per master its channels need — at most one per channel argument.
 */
export function groupConnections(group: ClientGroupPlan, cluster: boolean): number {
  const { clients } = group.phase.load;
  const command = group.phase.tests[0]?.commands[0]?.command;
  const shard = cluster && group.kind === 'subscribers' && command?.name.toUpperCase() === 'SSUBSCRIBE';
  return shard ? clients * Math.max(1, command.args.length) : clients;
}

/** The connections all groups of a phase open together (the budgets cover their sum). */
export function phaseConnections(groups: readonly ClientGroupPlan[], cluster: boolean): number {
  return groups.reduce((sum, group) => sum + groupConnections(group, cluster), 0);
}

/**
 * The groups of a phase run at once: their connections add up. Past the connection budget the checker names the
 * group opening the most, at its `load` line.
 */
export function checkGroupConnections(groups: readonly ClientGroupPlan[], cluster: boolean, sink: DiagnosticSink): void {
  const total = phaseConnections(groups, cluster);
  if (total <= MAX_GROUP_CLIENTS) return;
  const largest = groups.reduce((most, group) => (groupConnections(group, cluster) > groupConnections(most, cluster) ? group : most));
  const clients = largest.phase.load.clients;
  const opens = groupConnections(largest, cluster);
  const what =
    opens === clients
      ? `(${groupDigits(clients)})`
      : `(${groupDigits(clients)}, each subscribing its shard channels on up to ${groupDigits(opens / clients)} masters: ${groupDigits(opens)} connections)`;
  sink.error(
    largest.source ?? rangeOf(0, 0, 0),
    'load-clients-budget',
    `the client groups here open ${groupDigits(total)} connections at once, more than the ${groupDigits(MAX_GROUP_CLIENTS)} a phase may — lower \`clients\` in group \`${largest.name}\` ${what} or in the others`,
  );
}
