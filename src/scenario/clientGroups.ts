// Client groups: `load NAME [background]` lines split a scope (a scenario head or a phase) into groups of
// clients that run at the same time. The lines above the first `load` line are the scope's shared settings;
// each group's lines are read as a phase of its own over them, and build exactly one test.
import { rangeOf, type DiagnosticSink } from './diagnostics';
import type { Range } from './plan';
import type { LoadSection, PhaseSection, Section } from './scopeLines';

export type { LoadSection };
import type { DocLine, SettingLine } from './syntax';

export const LOAD_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]*$/;
/** Connections all groups of one phase may open together: the `clients` setting's own maximum. */
export const MAX_GROUP_CLIENTS = 100_000;

/** A `load` line and the lines up to the next one. */
export interface LoadLines {
  line: SettingLine;
  lines: DocLine[];
}

export function isLoadLine(line: DocLine): line is SettingLine {
  return line.kind === 'setting' && line.setting.kind === 'load';
}

/** A scope's lines: the shared ones above the first `load` line, and each group's. */
export function splitLoads(lines: DocLine[]): { shared: DocLine[]; loads: LoadLines[] } {
  if (!lines.some(isLoadLine)) return { shared: lines, loads: [] };
  const shared: DocLine[] = [];
  const loads: LoadLines[] = [];
  for (const line of lines) {
    if (isLoadLine(line)) loads.push({ line, lines: [] });
    else if (loads.length > 0) loads[loads.length - 1].lines.push(line);
    else shared.push(line);
  }
  return { shared, loads };
}

/** The name and the `background` flag of a `load` line; problems reported at their words. */
export function readLoadLine(line: SettingLine, taken: ReadonlySet<string>, sink: DiagnosticSink): { name: string; background: boolean } {
  const [name, flag, extra] = line.args;
  let background = false;
  if (!name) sink.error(line.keyword.range, 'missing-load-name', 'a client group needs a name — write `load NAME`, such as `load readers`');
  else if (!LOAD_NAME.test(name.value))
    sink.error(name.range, 'invalid-load-name', `\`${name.value}\` is not a group name — use letters, digits, \`_\`, \`-\`, \`.\` and \`:\``);
  else if (taken.has(name.value))
    sink.error(name.range, 'duplicate-load', `another client group is already named \`${name.value}\` here — give this one a different name`);
  if (flag) {
    if (flag.value === 'background') background = true;
    else
      sink.error(
        flag.range,
        'invalid-load-flag',
        `\`${flag.value}\` is not a group flag — write \`load ${name?.value ?? 'NAME'} background\`, or nothing after the name`,
      );
  }
  if (extra) sink.error(rangeOf(line.line, extra.start, line.contentEnd), 'invalid-load-flag', 'a `load` line takes a name and `background` — remove the rest');
  return { name: name?.value ?? `load${line.line + 1}`, background };
}

/** A group as a phase section of its own (the tests builder names a mix after it). */
export function groupPhase(load: LoadSection, measured: boolean): PhaseSection {
  return { name: load.name, measured, section: load.section };
}

/** Commands written above the first `load` line belong to no group: an error at each. */
export function reportSharedCommands(shared: Section, first: SettingLine, sink: DiagnosticSink): void {
  for (const item of shared.items)
    sink.error(
      item.range,
      'command-outside-load',
      `this command belongs to no client group: the scope's groups start at the \`load\` line on line ${first.line + 1} — move it below a \`load\` line`,
    );
}

/** The range to name a group at: its `load` line's name, else its keyword. */
export function loadRange(line: SettingLine): Range {
  return (line.args[0] ?? line.keyword).range;
}
