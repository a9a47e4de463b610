// A scenario node → its plan: its head and phases read into sections, layered over the file's settings,
// each phase's tests built, one phase plan per sweep point, expectations checked against what is measured.
import { checkSubscriberGroups, refuseSubscribeOutsideGroups } from './pubsubGroups';
import { testsWithData } from './dataPlan';
import { isWriteCommand } from './commands';
import { missRuleOf, MISS_NONE } from './replyMisses';
import { replaceFix, type DiagnosticSink } from './diagnostics';
import type { VariableScope } from './interpolate';
import type { PointPlan, ScenarioPlan, TestPlan } from './plan';
import { phasePlan, sweepPoints } from './phasePlan';
import { checkGroupConnections, groupPlan, groupTests, readLoads } from './clientGroupPlan';
import { splitLoads } from './clientGroups';
import { buildTests } from './phaseTests';
import { connectOnlyTests, isConnectOnly } from './connectOnly';
import { emptySection, readSection, variableDefinitions, type PhaseSection, type ReadContext, type Section } from './scopeLines';
import type { Layer } from './settingLayer';
import { closest } from './suggest';
import type { DocLine, PhaseLine, ScenarioNode } from './syntax';
import { targetPlan } from './targetPlan';
import { SERVER_AXIS, serverPointLabel } from './serverSweep';

function splitPhases(lines: DocLine[]): { head: DocLine[]; phases: { line: PhaseLine; lines: DocLine[] }[] } {
  if (!lines.some((line) => line.kind === 'phase')) return { head: lines, phases: [] };
  const head: DocLine[] = [];
  const phases: { line: PhaseLine; lines: DocLine[] }[] = [];
  for (const line of lines) {
    if (line.kind === 'phase') phases.push({ line, lines: [] });
    else if (phases.length > 0) phases[phases.length - 1].lines.push(line);
    else head.push(line);
  }
  return { head, phases };
}

export function resolveScenario(node: ScenarioNode, file: Section, fileVars: VariableScope, context: ReadContext): ScenarioPlan {
  const sink = context.sink;
  // A scenario without variables of its own sees the file's: it shares their expansions.
  const own = variableDefinitions(node.lines, sink);
  const vars = own.size === 0 ? fileVars : fileVars.inner(own);
  const { head, phases: phaseLines } = splitPhases(node.lines);
  const headSplit = splitLoads(head);
  const scenario = readSection(headSplit.shared, 'scenario', vars, context);
  const headLoads = readLoads(headSplit, scenario, vars, context);

  const phases: PhaseSection[] = [];
  if (headLoads) phases.push({ name: 'main', measured: true, section: emptySection(), loads: headLoads });
  else if (scenario.items.length > 0 || (phaseLines.length === 0 && isConnectOnly(scenario.layer.over(file.layer))))
    phases.push({ name: 'main', measured: true, section: { ...emptySection(), items: scenario.items } });
  for (const { line, lines } of phaseLines) {
    const name = line.name?.text ?? 'prefill';
    const split = splitLoads(lines);
    const section = readSection(split.shared, 'phase', vars, context);
    const loads = readLoads(split, section, vars, context);
    if (phases.some((phase) => phase.name === name)) {
      sink.error(
        line.name?.range ?? line.keyword.range,
        'duplicate-phase',
        `another phase is already named \`${name}\` in this scenario — give this one a different name`,
      );
    }
    if (section.items.length === 0 && !loads && !isConnectOnly(section.layer.over(scenario.layer.over(file.layer)))) {
      sink.error(line.keyword.range, 'empty-phase', `phase \`${name}\` has no commands — add a command line below it, such as \`GET key\``);
    }
    phases.push({ name, measured: line.measured, line, section, ...(loads ? { loads, section: { ...section, items: [] } } : {}) });
  }
  if (phases.length === 0 || phases.every((phase) => phase.section.items.length === 0 && !phase.loads)) {
    if (phaseLines.length === 0 && !isConnectOnly(scenario.layer.over(file.layer))) {
      sink.error(node.nameRange, 'no-commands', `scenario \`${node.name}\` has no commands — add a command line such as \`GET key\`, or \`suite default\``);
    }
  }

  const base = scenario.layer.over(file.layer);
  const sweeps = scenario.sweeps;
  const keysSwept = sweeps.some((sweep) => sweep.name === 'keys');
  const built = phases.map((phase) => {
    const layer = phase.section.layer.over(base);
    if (phase.loads) {
      const groups = groupTests(phase, phase.loads, layer, keysSwept, sink);
      checkSubscriberGroups(groups, sink);
      return { phase, layer, tests: groups.map((group) => group.test), groups };
    }
    const built = testsWithData(buildTests(phase, layer.has('keys') || keysSwept, sink), layer, sink);
    const tests = isConnectOnly(layer) ? connectOnlyTests(layer, built, sink) : built;
    refuseSubscribeOutsideGroups(tests, sink);
    return { phase, layer, tests, groups: undefined };
  });

  const points = sweepPoints(sweeps, sink).map((point): PointPlan => {
    const plan: PointPlan = {
      label: point.map(({ axis, value }) => (value.server ? serverPointLabel(value.server) : `${axis.name}=${value.value}`)).join(' '),
      // A server point's number is no quantity: the directives are its value (`server`).
      sweep: Object.fromEntries(point.filter(({ value }) => !value.server).map(({ axis, value }) => [axis.name, value.value])),
      phases: built.map(({ phase, layer, tests, groups }) => {
        const plan = phasePlan(phase, layer, point, tests, sink);
        if (groups) {
          plan.groups = groups.map((group) => groupPlan(group, phase, point, sink));
          checkGroupConnections(plan.groups, layer.get('cluster')?.value === true, sink);
        }
        return plan;
      }),
    };
    const server = point.find(({ value }) => value.server)?.value.server;
    if (server) plan.server = server;
    return plan;
  });

  const expects = file.expects.length === 0 ? scenario.expects : [...file.expects, ...scenario.expects];
  if (expects.some(({ expectation }) => expectation.command !== undefined)) checkExpectLabels(expects, built, node.name, sink);
  checkKeysExpectations(expects, sink);
  const writes = built.some(({ tests }) => tests.some((test) => test.commands.some(({ command }) => isWriteCommand(command.name))));

  const plan: ScenarioPlan = {
    name: node.name,
    index: node.index,
    headerRange: node.headerRange,
    range: node.range,
    target: targetPlan(base, sink),
    server: [...file.servers, ...scenario.servers],
    sweepAxes: sweeps.map((sweep) => sweep.name),
    points,
    repeat: base.get('repeat')?.value ?? 1,
    expects: expects.map(({ expectation }) => expectation),
    tags: base.get('tags')?.value ?? [],
    writes,
  };
  const serverSweep = sweeps.find((sweep) => sweep.name === SERVER_AXIS);
  if (serverSweep && (plan.target.url || plan.target.profile))
    sink.error(
      serverSweep.range,
      'server-sweep-target',
      "`sweep server` starts a throwaway redis-server per point, and would reconfigure this scenario's `target` — remove the `target` line, or this sweep",
    );
  const cleanup = base.get('cleanup');
  if (cleanup) plan.cleanup = cleanup.value;
  const percentiles = base.get('percentiles');
  if (percentiles) plan.percentiles = percentiles.value;
  const fromEnv = wireEnv(
    base,
    built.map(({ layer }) => layer),
  );
  if (fromEnv) plan.wireEnv = fromEnv;
  if (scenario.find) {
    const counted = points[0]?.phases.some((phase) => phase.measured && phase.load.durationMs === undefined);
    if (sweeps.length > 0) sink.error(scenario.find.range, 'find-with-sweep', '`find rate` chooses its own rates — remove the `sweep` lines, or this line');
    else if (counted)
      sink.error(
        scenario.find.range,
        'find-needs-duration',
        '`find rate` runs each probe for a fixed time — add `duration 5s` (with a request count, slow probes would take very long)',
      );
    else plan.rateSearch = scenario.find;
  }
  return plan;
}

/** `expect keys` counts the database (after the prefill phases, or before the first phase): no figure of a command. */
function checkKeysExpectations(expects: Section['expects'], sink: DiagnosticSink): void {
  for (const { expectation } of expects) {
    if (expectation.metric === 'keys' && expectation.command)
      sink.error(expectation.range, 'keys-expect-command', "`expect keys` counts the keys in the database, not a command's: write `expect keys = N`");
  }
}

function checkExpectLabels(expects: Section['expects'], built: { phase: PhaseSection; tests: TestPlan[] }[], scenarioName: string, sink: DiagnosticSink): void {
  const labels = new Set<string>();
  // Labels of reads: the rows that count misses (replyMisses.ts, from the command table's flags and key specs).
  const reads = new Set<string>();
  for (const { phase, tests } of built) {
    if (!phase.measured) continue;
    for (const test of tests) {
      for (const { command } of test.commands) {
        labels.add(command.label);
        if (missRuleOf(command) !== MISS_NONE) reads.add(command.label);
      }
      if (test.group) labels.add(test.name.toUpperCase()); // a group's units
    }
    for (const load of phase.loads ?? []) labels.add(load.name.toUpperCase()); // a client group's total
  }
  for (const { expectation, commandRange } of expects) {
    if (!expectation.command || labels.has(expectation.command) || !commandRange) continue;
    const suggestion = sink.full ? undefined : closest(expectation.command, labels);
    const known = labels.size > 0 ? ` (measured here: ${[...labels].join(', ')})` : '';
    sink.error(
      commandRange,
      'unknown-expect-command',
      `scenario \`${scenarioName}\` measures no command \`${expectation.command}\`${suggestion ? ` — did you mean \`${suggestion}\`?` : known}`,
      suggestion ? [replaceFix(commandRange, suggestion)] : undefined,
    );
  }
  for (const { expectation, commandRange } of expects) {
    if (expectation.metric !== 'miss-rate' || !expectation.command || !labels.has(expectation.command) || reads.has(expectation.command)) continue;
    sink.warning(
      commandRange ?? expectation.range,
      'miss-rate-not-read',
      `\`${expectation.command}\` is no read (the command table does not flag it readonly, or it names no key): it counts no hits or misses, so this expectation judges nothing — name a read such as GET, HGETALL or MGET, or remove the line`,
    );
  }
}

/** Settings whose values reach the server or its DNS (the host, AUTH, SELECT, SNI, the client certificate, every value). */
const WIRE_SETTINGS = ['target', 'user', 'sentinel-user', 'db', 'tls-servername', 'tls-ca', 'tls-cert', 'tls-key'] as const;

/** `user ${env:X}`, `value-fill ${env:Y}`…: which environment values the connection and the traffic carry, by setting. */
function wireEnv(base: Layer, phases: readonly Layer[]): ScenarioPlan['wireEnv'] {
  const found = new Map<string, Set<string>>();
  const add = (setting: string, names: readonly string[] | undefined) => {
    for (const name of names ?? []) {
      let set = found.get(setting);
      if (!set) found.set(setting, (set = new Set()));
      set.add(name);
    }
  };
  for (const setting of WIRE_SETTINGS) add(setting, base.get(setting)?.envNames);
  for (const layer of phases) add('value-fill', layer.get('value-fill')?.envNames);
  if (found.size === 0) return undefined;
  return [...found].map(([setting, names]) => ({ setting, names: [...names].sort() }));
}
