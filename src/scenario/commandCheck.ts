// Each command line checked against a command table: a command the table does not know (a warning against
// the built-in table, which a module's or a newer server's commands are missing from; an error against the
// server's own), and a wrong number of arguments for the command's arity ("GET takes a key").
import { aritySpec, COMMAND_NAMES, isContainer, literalOf } from './commands';
import type { CommandTable } from './commandTable';
import type { DiagnosticSink } from './diagnostics';
import type { CommandTemplate, Range, ScenarioPlan } from './plan';
import { closest } from './suggest';

export const UNKNOWN_COMMAND_CODE = 'unknown-command';
export const ARITY_CODE = 'command-arity';

/** The offline warning's words, which the docs and the editor quote. */
export const NOT_BUILT_IN = 'is not in the built-in table; checked against the server when the run starts';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** What a command takes after its name (and its subcommand): `a key`, `at least 2 arguments`, `a key and at least 1 more argument`. */
function wants(need: number, atLeast: boolean, keyFirst: boolean): string {
  if (need === 0) return atLeast ? 'any number of arguments' : 'no arguments';
  const least = atLeast ? 'at least ' : '';
  if (!keyFirst) return `${atLeast ? 'at least' : 'exactly'} ${plural(need, 'argument')}`;
  if (need === 1) return atLeast ? 'at least one key' : 'a key';
  return `a key and ${least}${plural(need - 1, 'more argument')}`;
}

/**
 * The argument count as sent, with the name (arity counts it: `GET key` is 2). `__fields__` stands for a data
 * row's field/value pairs, at least one pair, so a line with it has at least that many: `open`.
 */
function argvOf(command: CommandTemplate): { argv: number; open: boolean } {
  let argv = 1;
  let open = false;
  for (const arg of command.args) {
    const fields = arg.length === 1 && typeof arg[0] === 'object' && arg[0].placeholder === 'fields';
    argv += fields ? 2 : 1;
    open ||= fields;
  }
  return { argv, open };
}

function fitsArity(arity: number, { argv, open }: { argv: number; open: boolean }): boolean {
  if (arity < 0) return argv >= -arity;
  return open ? argv <= arity : argv === arity;
}

/** Why `command`'s argument count does not fit its arity in `table`, or undefined. */
export function arityProblem(command: CommandTemplate, table: CommandTable): string | undefined {
  const container = isContainer(command.name, table);
  const sub = container ? literalOf(command.args[0]) : undefined;
  const spec = aritySpec(command.name, sub, table);
  if (!spec || (container && !spec.subcommands && sub === undefined)) return undefined;
  const counted = argvOf(command);
  if (fitsArity(spec.arity, counted)) return undefined;
  const argv = counted.argv;
  const isSub = container && spec !== table.spec(command.name);
  const shown = isSub ? `${command.name} ${(sub ?? '').toUpperCase()}` : command.name;
  const before = isSub ? 2 : 1;
  const need = Math.abs(spec.arity) - before;
  const given = argv - before;
  const keyFirst = spec.firstKey === before;
  const gives = given === 0 ? 'none' : plural(given, 'argument');
  return `${shown} takes ${wants(need, spec.arity < 0, keyFirst)}; this line gives ${gives}`;
}

/** The commands of a plan, each place once (sweep points and phases repeat them). */
function* placedCommands(plan: ScenarioPlan): Generator<CommandTemplate & { source: Range }> {
  for (const point of plan.points)
    for (const phase of point.phases)
      for (const test of phase.tests) for (const { command } of test.commands) if (command.source) yield command as CommandTemplate & { source: Range };
}

/** What one check remembers between scenarios: places reported, and the lines that already have an error. */
export class CommandCheckState {
  readonly places = new Set<string | number>();
  readonly errorLines = new Set<number>();
  /** The `{{…}}` expansion budget ran out: later lines lost what their variables held, so their counts say nothing. */
  budgetSpent = false;
  /** Diagnostics of the sink already looked at for errorLines. */
  scanned = 0;
}

/**
 * Reports each command line's unknown command and wrong arity. A line with an error already (a group too
 * deep), or one `unsure` names (a variable refused where it is defined), has lost arguments to it: it is not
 * checked further.
 */
export function reportCommands(
  plan: ScenarioPlan,
  table: CommandTable,
  sink: DiagnosticSink,
  state: CommandCheckState,
  unsure: (line: number) => boolean = () => false,
): void {
  for (; state.scanned < sink.items.length; state.scanned++) {
    const item = sink.items[state.scanned];
    if (item.severity === 'error') for (let line = item.range.start.line; line <= item.range.end.line; line++) state.errorLines.add(line);
    if (item.code === 'expansion-budget') state.budgetSpent = true;
  }
  for (const command of placedCommands(plan)) {
    if (sink.full) return;
    // A suite's tests share their line: the label tells them apart.
    const { line, character } = command.source.start;
    const place = command.label === command.name ? line * 100_000 + character : `${line}:${character}:${command.label}`;
    if (state.places.has(place)) continue;
    state.places.add(place);
    if (state.errorLines.has(line) || unsure(line)) continue;
    const spec = table.spec(command.name);
    if (!spec) {
      reportUnknown(command, table, sink);
      continue;
    }
    if (state.budgetSpent) continue;
    // The common case, a command without subcommands whose count fits, costs no more than this.
    if (!spec.subcommands && fitsArity(spec.arity, argvOf(command))) continue;
    const problem = arityProblem(command, table);
    if (problem) sink.error(command.source, ARITY_CODE, problem);
  }
}

function reportUnknown(command: CommandTemplate & { source: Range }, table: CommandTable, sink: DiagnosticSink): void {
  const range = command.source;
  // A module's command (FT.SEARCH) is no typo of a built-in one.
  const suggestion = command.name.includes('.')
    ? undefined
    : closest(command.name, table.source === 'built-in' ? COMMAND_NAMES : table.names().map((name) => name.toUpperCase()));
  const mean = suggestion ? ` — did you mean \`${suggestion}\`?` : '';
  if (table.source === 'built-in') {
    sink.warning(range, UNKNOWN_COMMAND_CODE, `\`${command.name}\` ${NOT_BUILT_IN}${mean}`);
  } else {
    sink.error(
      range,
      UNKNOWN_COMMAND_CODE,
      `${table.origin} does not know \`${command.name}\`${mean} — load the module that provides it (\`rbench run --module PATH\` for the throwaway server), or run against a server that has it`,
    );
  }
}
