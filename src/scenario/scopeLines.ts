// One scope's lines (the file's, a scenario's head, a phase's) → a Section: its settings as a layer, its
// server lines, expectations, sweeps, `find rate` and the commands, suites and groups it runs.
import { GroupReader, groupTransactionFix, type GroupItem } from './groups';
import { commandItem, COMMAND_USE, type CommandItem } from './commandLines';
import { rangeOf, type DiagnosticSink } from './diagnostics';
import type { EnvUse, ExpandedText, VariableScope } from './interpolate';
import type { Expectation, Range, RateSearchPlan, ServerDirective } from './plan';
import { readFind } from './find';
import { reused, settingValue, type ReadOnce } from './readOnce';
import { settingInfo, type SettingInfo, type SettingScope } from './settings';
import { Entry, Layer, type SettingName } from './settingLayer';
import type { SuiteTest } from './suites';
import type { DocLine, PhaseLine, SettingLine, VariableLine } from './syntax';
import { readExpect } from './expect';
import { readSweep, type SweepAxis } from './sweep';
import type { ValueInput } from './valueReader';
import { readServerDirective, readSuite } from './values';

export type PhaseItem = CommandItem | { kind: 'suite'; tests: SuiteTest[]; range: Range } | GroupItem;

/** What one scope's lines say. */
export interface Section {
  layer: Layer;
  servers: ServerDirective[];
  expects: { expectation: Expectation; commandRange?: Range }[];
  sweeps: SweepAxis[];
  items: PhaseItem[];
  /** `find rate where …` (a scenario's only). */
  find?: RateSearchPlan;
}

export interface PhaseSection {
  name: string;
  measured: boolean;
  /** The phase line; absent for the default `main` phase. */
  line?: PhaseLine;
  section: Section;
  /** `load NAME` groups (src/scenario/clientGroups.ts): `section` then holds the shared settings only. */
  loads?: LoadSection[];
}

/** One client group read: its name, flag, `load` line and its lines' section. */
export interface LoadSection {
  name: string;
  background: boolean;
  line: SettingLine;
  section: Section;
}

/** What reading a file's lines needs: its diagnostics, variables and environment, and what it has read once. */
export interface ReadContext extends ReadOnce {
  env: Record<string, string | undefined>;
  vars: Record<string, string>;
  baseDir?: string;
  /** The names of the machine's server binaries (rbench.serverBinaries, `--server-binary NAME=PATH`): what `server binary NAME` may name. */
  serverBinaries?: readonly string[];
}

/** The `@name = value` lines of a scope; a name defined twice warns. */
export function variableDefinitions(lines: DocLine[], sink: DiagnosticSink): ReadonlyMap<string, VariableLine> {
  let own: Map<string, VariableLine> | undefined;
  for (const line of lines) {
    if (line.kind !== 'variable') continue;
    own ??= new Map();
    const earlier = own.get(line.name.text);
    if (earlier) {
      sink.warning(
        line.name.range,
        'duplicate-variable',
        `\`@${line.name.text}\` is already defined on line ${earlier.line + 1} — the last definition wins; remove one`,
      );
    }
    own.set(line.name.text, line);
  }
  return own ?? NO_VARIABLES;
}

const NO_VARIABLES: ReadonlyMap<string, VariableLine> = new Map();

export function emptySection(): Section {
  return { layer: new Layer(), servers: [], expects: [], sweeps: [], items: [] };
}

const SCOPE_ADVICE: Record<SettingScope, string> = {
  file: 'belongs in a scenario — put it below a `### name` line',
  scenario: 'cannot be set for a whole scenario here',
  phase: 'applies to the whole scenario — move it above the first `phase`, `prefill` or `load` line',
};

export function readSection(lines: DocLine[], scope: SettingScope, vars: VariableScope, context: ReadContext): Section {
  const section = emptySection();
  const groups = new GroupReader(context.sink);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.kind === 'setting' && (line.setting.kind === 'group' || line.setting.kind === 'end') && scope !== 'file') {
      const group = groups.read(line);
      if (group) section.items.push(group);
    } else if (groups.inside && (line.kind === 'setting' || line.kind === 'expect')) {
      groups.refuse(line);
    } else if (line.kind === 'setting' || line.kind === 'expect') {
      const setting = line.kind === 'setting' ? line.setting : undefined;
      const info = setting ?? EXPECT_INFO;
      if (!info.scopes.includes(scope)) {
        context.sink.error(line.keyword.range, 'wrong-scope', `\`${info.name}\` ${SCOPE_ADVICE[scope]}`);
        continue;
      }
      const keyword = line.keyword;
      const expanded = vars.expand(line, keyword.end, line.contentEnd, settingUse(info));
      // Refused (reported at the reference): the rest of the line is not read, so no follow-up errors.
      if (expanded.refusedEnv.length > 0) continue;
      const input: ValueInput = { setting: info, expanded, keyword, baseDir: context.baseDir, sink: context.sink };
      if (line.kind === 'expect') readExpectLine(line, input, section, context);
      else readSettingLine(line, input, section, context);
    } else if (line.kind === 'command' && scope !== 'file') {
      const fix = line.name === 'MULTI' && !groups.inside ? groupTransactionFix(lines, i) : undefined;
      const item = commandItem(line, vars, context, groups.inside, fix);
      if (item && groups.inside) groups.add(item.template, line);
      else if (item) section.items.push(item);
    }
  }
  const unclosed = groups.finish();
  if (unclosed) section.items.push(unclosed);
  return section;
}

const EXPECT_INFO: SettingInfo = settingInfo('expect')!;

function readExpectLine(line: DocLine & { kind: 'expect' }, input: ValueInput, section: Section, context: ReadContext): void {
  // An expectation naming a command holds its range: it is not reused.
  const value = reused(
    context.expects,
    input.expanded,
    context.sink,
    () => readExpect(input),
    (read) => read.command === undefined,
  );
  if (!value) return;
  // Built field by field (not by spreading): a large file has one per scenario.
  const text = line.text.slice(line.contentStart, line.contentEnd);
  const range = rangeOf(line.line, line.contentStart, line.contentEnd);
  const { metric, op, command } = value;
  const expectation: Expectation =
    command === undefined ? { metric, op, value: value.value, text, range } : { metric, op, value: value.value, command, text, range };
  section.expects.push({ expectation, commandRange: value.commandRange });
}

function readSettingLine(line: SettingLine, input: ValueInput, section: Section, context: ReadContext): void {
  const { setting } = line;
  const sink = context.sink;
  switch (setting.kind) {
    case 'sweep': {
      const axis = readSweep(input);
      if (!axis) return;
      const earlier = section.sweeps.find((sweep) => sweep.name === axis.name);
      if (earlier) {
        sink.error(axis.range, 'duplicate-sweep', `\`${axis.name}\` is already swept on line ${earlier.range.start.line + 1} — put all its values on one line`);
        return;
      }
      section.sweeps.push(axis);
      return;
    }
    case 'find': {
      const search = readFind(input);
      if (!search) return;
      const range = rangeOf(line.line, line.contentStart, line.contentEnd);
      if (section.find) {
        sink.error(range, 'duplicate-setting', `\`find rate\` is already on line ${section.find.range.start.line + 1} — keep one`);
        return;
      }
      section.find = { ...search, text: line.text.slice(line.contentStart, line.contentEnd), range };
      return;
    }
    case 'suite': {
      const tests = readSuite(input);
      if (tests) section.items.push({ kind: 'suite', tests, range: rangeOf(line.line, line.contentStart, line.contentEnd) });
      return;
    }
    case 'server': {
      const directive = readServerDirective(input, context.serverBinaries ?? []);
      if (directive) section.servers.push(directive);
      return;
    }
  }
  const value = settingValue(input, context);
  if (value === undefined) return;
  const name = setting.name as SettingName;
  const earlier = section.layer.own(name);
  if (earlier) {
    sink.warning(
      line.keyword.range,
      'duplicate-setting',
      `\`${name}\` is already set on line ${earlier.line + 1} in this scope — the last one wins; remove one`,
    );
  }
  const other = name === 'requests' ? 'duration' : name === 'duration' ? 'requests' : undefined;
  const conflicting = other && section.layer.own(other);
  if (conflicting) {
    sink.error(
      line.keyword.range,
      'requests-and-duration',
      `\`requests\` and \`duration\` cannot both be set here (\`${other}\` is on line ${conflicting.line + 1}) — keep one`,
    );
    return;
  }
  section.layer.set(name, new Entry(value, line, envNamesIn(input.expanded)));
}

/** The environment variables a setting's text came from, or undefined (most lines). */
function envNamesIn(expanded: ExpandedText): string[] | undefined {
  if (!expanded.hasSubstitutions) return undefined;
  const names = expanded.pieces().flatMap((piece) => ((piece.origin === 'env' || piece.origin === 'user-env') && piece.envName ? [piece.envName] : []));
  return names.length > 0 ? [...new Set(names)] : undefined;
}

const settingUses = new Map<string, EnvUse>();

/** How the environment rule words a refusal on a setting line: the rule itself is the same for every line. */
function settingUse(info: SettingInfo): EnvUse {
  let use = settingUses.get(info.name);
  if (!use) {
    use =
      info.name === 'cleanup' ? COMMAND_USE : { code: 'env-in-setting', goTo: `reach the server, a run file or the target's name through \`${info.name}\`` };
    settingUses.set(info.name, use);
  }
  return use;
}
