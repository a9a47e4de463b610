// A phase's items (commands, suites, groups) → its tests: a weighted mix, or one test per command line,
// suite test and group, named as results name them.
import { buildArgs, copyArg } from './arguments';
import { DiagnosticSink } from './diagnostics';
import type { GroupItem } from './groups';
import { ExpandedText } from './interpolate';
import type { ArgTemplate, CommandTemplate, Range, TestPlan, WeightedCommand } from './plan';
import type { CommandItem } from './commandLines';
import type { PhaseSection } from './scopeLines';
import type { SuiteTest } from './suites';
import { groupDigits } from './numberText';

export function buildTests(phase: PhaseSection, randomKeys: boolean, sink: DiagnosticSink): TestPlan[] {
  const items = phase.section.items;
  const weighted = items.filter((item) => item.kind === 'command' && item.weight !== undefined);
  if (weighted.length > 0) {
    const unweighted = items.find((item) => item.kind !== 'command' || item.weight === undefined);
    if (unweighted) {
      sink.error(
        unweighted.range,
        'mixed-weights',
        'weighted (`80% GET …`) and unweighted commands cannot share a phase — give every command a weight, or move these into their own `phase`',
      );
    }
    const commands = weighted as CommandItem[];
    const total = commands.reduce((sum, item) => sum + item.weight!, 0);
    const mix: WeightedCommand[] = commands.map((item) => ({ weight: item.weight! / total, command: item.template }));
    return [{ name: phase.name === 'main' ? 'mix' : phase.name, commands: mix }];
  }
  const tests: TestPlan[] = [];
  const used = new Map<string, number>();
  const add = (name: string, command: CommandTemplate) => {
    const seen = (used.get(name) ?? 0) + 1;
    used.set(name, seen);
    tests.push({ name: seen === 1 ? name : `${name} #${seen}`, commands: [{ weight: 1, command }] });
  };
  const addGroup = (group: GroupItem) => {
    const seen = (used.get(group.name) ?? 0) + 1;
    used.set(group.name, seen);
    const commands = group.commands.map((command) => ({ weight: 1, command }));
    tests.push({ name: seen === 1 ? group.name : `${group.name} #${seen}`, commands, group: { transaction: group.transaction, source: group.range } });
  };
  for (const item of items) {
    // A plan of a million tests (lines of `suite default`) would take the checker's time and memory, and never finish running.
    if (tests.length >= MAX_PHASE_TESTS) {
      sink.error(
        item.range,
        'too-many-tests',
        `this phase passes ${groupDigits(MAX_PHASE_TESTS)} tests here (each runs for its own duration) — split it into several scenarios, or use fewer command and \`suite\` lines`,
      );
      break;
    }
    if (item.kind === 'command') add(item.template.label, item.template);
    else if (item.kind === 'group') addGroup(item);
    else for (const test of item.tests) add(test.title, suiteTemplate(test, randomKeys, item.range));
  }
  return tests.slice(); // at its exact size: the plan keeps it
}

/** Tests one phase may have: each runs for its own duration, so more is a mistake (or a file built to cost). */
export const MAX_PHASE_TESTS = 50_000;

/** The arguments of each suite command, read once: a file of `suite default` lines has twenty tests a line. */
const SUITE_ARGS = new Map<string, ArgTemplate[]>();

/** A suite test as a command template, written where the `suite` line is. */
function suiteTemplate(test: SuiteTest, randomKeys: boolean, source: Range): CommandTemplate {
  const text = (randomKeys && test.randomKeysCommand) || test.command;
  const space = text.indexOf(' ');
  const name = space < 0 ? text : text.slice(0, space);
  let read = SUITE_ARGS.get(text);
  // The suites' own commands are well formed: reading them reports nothing.
  if (!read) SUITE_ARGS.set(text, (read = space < 0 ? [] : buildArgs(ExpandedText.literal(text.slice(space + 1)), new DiagnosticSink())));
  const args = read.map(copyArg);
  const template: CommandTemplate = { name, label: test.label, args, source };
  if (test.inline) template.inline = true;
  return template;
}
