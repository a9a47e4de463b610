// Document tree → resolved plan (plan.ts): variables and environment substituted, values read and
// checked, defaults applied, phases formed, sweeps and suites expanded. Every problem becomes a
// diagnostic; the plan is produced even for a file with errors (the runner refuses those).
import type {
  ArgTemplate,
  RateSearchPlan,
  CommandTemplate,
  Expectation,
  KeyPlan,
  LoadPlan,
  PhasePlan,
  PointPlan,
  Range,
  ResolvedFile,
  ScenarioPlan,
  ServerDirective,
  TargetPlan,
  TestPlan,
  TextFix,
  TlsPlan,
  ValueFill,
  ValuePlan,
  WeightedCommand,
} from './plan';
import { buildArgs, copyArg } from './arguments';
import { clusterKeyDiagnostics } from './clusterKeys';
import { isWriteCommand } from './commands';
import { DiagnosticSink, rangeOf, replaceFix } from './diagnostics';
import { ExpandedText, VariableScope, type EnvUse } from './interpolate';
import type { CommandLine, DocLine, PhaseLine, ScenarioDocument, ScenarioNode, SettingLine, VariableLine } from './syntax';
import {
  DEFAULT_GAUSSIAN_STDDEV,
  DEFAULT_REQUESTS,
  DEFAULT_ZIPF_EXPONENT,
  MAX_SWEEP_POINTS,
  settingInfo,
  type SettingInfo,
  type SettingScope,
} from './settings';
import type { SuiteTest } from './suites';
import { readFind } from './find';
import type { MemoryLimits } from './memory';
import { GroupReader, groupTransactionFix, type GroupItem } from './groups';
import { closest } from './suggest';
import { keyDigits } from './units';
import {
  readExpect,
  type ExpectValue,
  readServerDirective,
  readSettingValue,
  readSuite,
  readSweep,
  type SettingValues,
  type SweepAxis,
  type ValueInput,
} from './values';

export interface ResolveOptions {
  /** Environment for `${env:…}`; default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Command-line `--var name=value` values; they override the file's variables. */
  vars?: Record<string, string>;
  /** The scenario file's folder: relative TLS file paths are resolved against it. */
  baseDir?: string;
  /**
   * Environment variables the user lets into the file's text (`--allow-env`, the setting
   * `rbench.allowEnvInCommands`). Any other `${env:…}` is refused wherever it is (src/scenario/interpolate.ts).
   */
  allowEnv?: readonly string[];
  /** The memory a plan may ask for (src/scenario/memory.ts); the defaults when absent. */
  memory?: MemoryLimits;
}

type SettingName = keyof SettingValues;

class Entry<T> {
  constructor(
    readonly value: T,
    /** The line the value is written on; the value's range is computed only for a diagnostic about it. */
    private readonly source: SettingLine,
    /** Environment variables whose values are in the value (`user ${env:X}`): the run's consent lists them. */
    readonly envNames?: readonly string[],
  ) {}

  get line(): number {
    return this.source.line;
  }

  get range(): Range {
    return (this.source.value ?? this.source.keyword).range;
  }
}

/**
 * The settings written in one scope (file, scenario or phase), over the scope around it. Lookups
 * walk the (at most three) scopes instead of copying them for every scenario and phase.
 */
class Layer {
  private entries: Map<SettingName, Entry<unknown>> | undefined;

  constructor(private readonly below?: Layer) {}

  get<K extends SettingName>(name: K): Entry<SettingValues[K]> | undefined {
    const own = this.entries?.get(name);
    if (own !== undefined || this.hides(name)) return own as Entry<SettingValues[K]> | undefined;
    return this.below?.get(name);
  }

  /** Sets a value of this scope (not of the ones below). */
  set(name: SettingName, entry: Entry<unknown>): void {
    (this.entries ??= new Map()).set(name, entry);
  }

  /** The value set in this scope itself. */
  own<K extends SettingName>(name: K): Entry<SettingValues[K]> | undefined {
    return this.entries?.get(name) as Entry<SettingValues[K]> | undefined;
  }

  has(name: SettingName): boolean {
    return this.get(name) !== undefined;
  }

  /** This layer's values over `below`: a `requests` here hides an inherited `duration` and the reverse. */
  over(below: Layer): Layer {
    const layer = new Layer(below);
    layer.entries = this.entries;
    return layer;
  }

  private hides(name: SettingName): boolean {
    if (!this.entries) return false;
    return (name === 'duration' && this.entries.has('requests')) || (name === 'requests' && this.entries.has('duration'));
  }
}

type PhaseItem =
  | { kind: 'command'; template: CommandTemplate; weight?: number; range: Range }
  | { kind: 'suite'; tests: SuiteTest[]; range: Range }
  | GroupItem;

/** What one scope's lines say. */
interface Section {
  layer: Layer;
  servers: ServerDirective[];
  expects: { expectation: Expectation; commandRange?: Range }[];
  sweeps: SweepAxis[];
  items: PhaseItem[];
  /** `find rate where …` (a scenario's only). */
  find?: RateSearchPlan;
}

interface PhaseSection {
  name: string;
  measured: boolean;
  /** The phase line; absent for the default `main` phase. */
  line?: PhaseLine;
  section: Section;
}

interface Context {
  sink: DiagnosticSink;
  env: Record<string, string | undefined>;
  vars: Record<string, string>;
  baseDir?: string;
  /** Values of setting lines already read in this file, by setting and text (see `settingValue`). */
  values: Map<string, Map<string, unknown>>;
  /** Arguments and expectations already read in this file, by text (see `reused`). */
  args: Map<string, ArgTemplate[]>;
  expects: Map<string, ExpectValue>;
}

export function resolveDocument(doc: ScenarioDocument, options: ResolveOptions = {}): ResolvedFile {
  const sink = new DiagnosticSink(doc.diagnostics, doc.droppedDiagnostics);
  const scenarios: ScenarioPlan[] = [];
  guarded(sink, () => {
    const resolver = new FileResolver(sink, options);
    resolver.fileLines(doc.fileLines);
    for (const node of doc.scenarios) scenarios.push(resolver.scenario(node));
    resolver.finish();
  });
  return { scenarios, diagnostics: sink.finish() };
}

/** Runs `work`; a bug must not take the editor or the CLI down: it is reported where the user can see it. */
export function guarded(sink: DiagnosticSink, work: () => void): void {
  try {
    work();
  } catch (error) {
    sink.error(rangeOf(0, 0, 0), 'internal-error', `rbench could not check this file (${(error as Error).message}) — please report this`);
  }
}

/** Resolves a file one scope at a time: its file-level lines first, then each scenario as it comes. */
export class FileResolver {
  private readonly context: Context;
  private file: { section: Section; vars: VariableScope; lines: DocLine[] } | undefined;
  private scenarios = 0;

  constructor(
    sink: DiagnosticSink,
    private readonly options: ResolveOptions,
  ) {
    this.context = { sink, env: options.env ?? process.env, vars: options.vars ?? {}, baseDir: options.baseDir, values: new Map(), args: new Map(), expects: new Map() };
  }

  fileLines(lines: DocLine[]): void {
    const { context, options } = this;
    const vars = new VariableScope(variableDefinitions(lines, context.sink), context.vars, context.env, context.sink, new Map(), new Set(options.allowEnv ?? []));
    this.file = { section: readSection(lines, 'file', vars, context), vars, lines };
  }

  scenario(node: ScenarioNode): ScenarioPlan {
    this.scenarios++;
    const plan = resolveScenario(node, this.file!.section, this.file!.vars, this.context);
    // `cluster on`: multi-key commands must keep their keys in one hash slot (src/scenario/clusterKeys.ts).
    if (plan.target.cluster) {
      const texts = new Map(node.lines.map((line) => [line.line, line.text]));
      for (const d of clusterKeyDiagnostics(plan, (line) => texts.get(line))) this.context.sink.error(d.range, d.code, d.message, d.fixes);
    }
    return plan;
  }

  /** After the last scenario. */
  finish(): void {
    if (this.scenarios > 0) return;
    const content = this.file?.lines.find((line) => line.kind !== 'blank' && line.kind !== 'comment');
    if (content) this.context.sink.warning(content.range, 'no-scenario', 'this file has no scenario — add a `### name` line followed by commands, such as `GET key`');
  }
}

/** The `@name = value` lines of a scope; a name defined twice warns. */
function variableDefinitions(lines: DocLine[], sink: DiagnosticSink): ReadonlyMap<string, VariableLine> {
  let own: Map<string, VariableLine> | undefined;
  for (const line of lines) {
    if (line.kind !== 'variable') continue;
    own ??= new Map();
    const earlier = own.get(line.name.text);
    if (earlier) {
      sink.warning(line.name.range, 'duplicate-variable', `\`@${line.name.text}\` is already defined on line ${earlier.line + 1} — the last definition wins; remove one`);
    }
    own.set(line.name.text, line);
  }
  return own ?? NO_VARIABLES;
}

const NO_VARIABLES: ReadonlyMap<string, VariableLine> = new Map();

function emptySection(): Section {
  return { layer: new Layer(), servers: [], expects: [], sweeps: [], items: [] };
}

const SCOPE_ADVICE: Record<SettingScope, string> = {
  file: 'belongs in a scenario — put it below a `### name` line',
  scenario: 'cannot be set for a whole scenario here',
  phase: 'applies to the whole scenario — move it above the first `phase` or `prefill` line',
};

function readSection(lines: DocLine[], scope: SettingScope, vars: VariableScope, context: Context): Section {
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

function readExpectLine(line: DocLine & { kind: 'expect' }, input: ValueInput, section: Section, context: Context): void {
  // An expectation naming a command holds its range: it is not reused.
  const value = reused(context.expects, input.expanded, context.sink, () => readExpect(input), (read) => read.command === undefined);
  if (!value) return;
  // Built field by field (not by spreading): a large file has one per scenario.
  const text = line.text.slice(line.contentStart, line.contentEnd);
  const range = rangeOf(line.line, line.contentStart, line.contentEnd);
  const { metric, op, command } = value;
  const expectation: Expectation = command === undefined ? { metric, op, value: value.value, text, range } : { metric, op, value: value.value, command, text, range };
  section.expects.push({ expectation, commandRange: value.commandRange });
}

function readSettingLine(line: SettingLine, input: ValueInput, section: Section, context: Context): void {
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
      const directive = readServerDirective(input);
      if (directive) section.servers.push(directive);
      return;
    }
  }
  const value = settingValue(input, context);
  if (value === undefined) return;
  const name = setting.name as SettingName;
  const earlier = section.layer.own(name);
  if (earlier) {
    sink.warning(line.keyword.range, 'duplicate-setting', `\`${name}\` is already set on line ${earlier.line + 1} in this scope — the last one wins; remove one`);
  }
  const other = name === 'requests' ? 'duration' : name === 'duration' ? 'requests' : undefined;
  const conflicting = other && section.layer.own(other);
  if (conflicting) {
    sink.error(line.keyword.range, 'requests-and-duration', `\`requests\` and \`duration\` cannot both be set here (\`${other}\` is on line ${conflicting.line + 1}) — keep one`);
    return;
  }
  section.layer.set(name, new Entry(value, line, envNamesIn(input.expanded)));
}

/** The environment variables a setting's text came from, or undefined (most lines). */
function envNamesIn(expanded: ExpandedText): string[] | undefined {
  if (!expanded.hasSubstitutions) return undefined;
  const names = expanded.pieces().flatMap((piece) => (piece.origin === 'env' || piece.origin === 'user-env') && piece.envName ? [piece.envName] : []);
  return names.length > 0 ? [...new Set(names)] : undefined;
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

/**
 * `readSettingValue`, read once per file for each setting and text: a large file repeats the same
 * lines (`clients 50`) in every scenario. Only values read without a problem, from text written out
 * in the line, and that the plan does not hold as they are (numbers, words, a `keys` value, which
 * the phase plan copies) are kept, so no two scenarios share an object.
 */
function settingValue(input: ValueInput, context: Context): unknown {
  if (!REUSED_KINDS.has(input.setting.kind)) return readSettingValue(input);
  const name = input.setting.name;
  let values = context.values.get(name);
  if (!values) context.values.set(name, (values = new Map()));
  return reused(values, input.expanded, context.sink, () => readSettingValue(input));
}

/**
 * What `read` makes of an expanded text, read once per file for each text: a large file repeats its
 * lines scenario after scenario. Kept only for text written out in the line and read without a
 * problem; `read` must make values whose ranges, if any, are not kept (the caller places them).
 */
function reused<T>(
  cache: Map<string, T>,
  expanded: ExpandedText,
  sink: DiagnosticSink,
  read: () => T | undefined,
  keep: (value: T) => boolean = () => true,
): T | undefined {
  const key = expanded.text;
  // Long texts (payloads) rarely repeat, and hashing them costs more than reading them.
  const reusable = key.length <= REUSED_MAX_CHARS && !expanded.hasSubstitutions;
  if (reusable) {
    const known = cache.get(key);
    if (known !== undefined) return known;
  }
  const reported = sink.reported;
  const value = read();
  if (reusable && value !== undefined && sink.reported === reported && keep(value)) {
    // Bounded: a file of all-different lines gains nothing from it.
    if (cache.size >= REUSED_LIMIT) cache.clear();
    cache.set(key, value);
  }
  return value;
}

const REUSED_LIMIT = 10_000;
const REUSED_MAX_CHARS = 256;

/** Setting kinds whose values are numbers, switches, words, key spaces and value sizes (copied by the phase plan). */
const REUSED_KINDS: ReadonlySet<SettingInfo['kind']> = new Set(['count', 'integer', 'duration', 'rate', 'switch', 'choice', 'threads', 'name', 'pattern', 'keys', 'value']);

/** Command arguments (and `cleanup` patterns, which are sent in SCAN and DEL): the environment rule's strictest wording. */
const COMMAND_USE: EnvUse = { code: 'env-in-command', goTo: 'be sent to the server' };

const settingUses = new Map<string, EnvUse>();

/** How the environment rule words a refusal on a setting line: the rule itself is the same for every line. */
function settingUse(info: SettingInfo): EnvUse {
  let use = settingUses.get(info.name);
  if (!use) {
    use = info.name === 'cleanup' ? COMMAND_USE : { code: 'env-in-setting', goTo: `reach the server, a run file or the target's name through \`${info.name}\`` };
    settingUses.set(info.name, use);
  }
  return use;
}

function commandItem(line: CommandLine, vars: VariableScope, context: Context, inGroup: boolean, fix?: TextFix): Extract<PhaseItem, { kind: 'command' }> | undefined {
  const sink = context.sink;
  const source = rangeOf(line.line, line.contentStart, line.contentEnd);
  // A refused environment value is reported and left out; the command still counts as one: the error alone blocks the run.
  const expanded = vars.expand(line, line.argsStart, line.contentEnd, COMMAND_USE);
  const args = reusedArgs(expanded, sink, context);
  const template: CommandTemplate = { name: line.name, label: line.name, args, source };
  if (line.weight && !(line.weight.percent > 0)) {
    sink.error(line.weight.range, 'invalid-weight', 'a weight must be above 0% — remove the line or give it a share such as `10%`');
    return undefined;
  }
  const transactionReply = TRANSACTION_REPLIES[line.name];
  if (transactionReply && !inGroup) sink.error(line.command.range, 'transaction-lines', transactionMessage(line.name, transactionReply), fix && [fix]);
  return { kind: 'command', template, weight: line.weight?.percent, range: source };
}

/** `buildArgs`, read once per file for each text; the plan gets its own copy (no two scenarios share an object). */
function reusedArgs(expanded: ExpandedText, sink: DiagnosticSink, context: Context): ArgTemplate[] {
  let fresh = false;
  const args = reused(context.args, expanded, sink, () => {
    fresh = true;
    return buildArgs(expanded, sink);
  })!;
  return fresh ? args : args.map(copyArg);
}

/** What the server answers when a transaction command runs as a test of its own. */
const TRANSACTION_REPLIES: Readonly<Record<string, string>> = {
  MULTI: 'ERR MULTI calls can not be nested',
  EXEC: 'ERR EXEC without MULTI',
  DISCARD: 'ERR DISCARD without MULTI',
};

function transactionMessage(name: string, reply: string): string {
  return (
    `\`${name}\` cannot work on a line of its own: each command line is a test of its own, sent over and over, ` +
    `so a MULTI … EXEC transaction never forms and the server answers "${reply}". ` +
    'Put the transaction in a command group, so that it is sent as one request unit: a `group` line, `MULTI`, the commands, `EXEC`, then `end`'
  );
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

function resolveScenario(node: ScenarioNode, file: Section, fileVars: VariableScope, context: Context): ScenarioPlan {
  const sink = context.sink;
  // A scenario without variables of its own sees the file's: it shares their expansions.
  const own = variableDefinitions(node.lines, sink);
  const vars = own.size === 0 ? fileVars : fileVars.inner(own);
  const { head, phases: phaseLines } = splitPhases(node.lines);
  const scenario = readSection(head, 'scenario', vars, context);

  const phases: PhaseSection[] = [];
  if (scenario.items.length > 0) phases.push({ name: 'main', measured: true, section: { ...emptySection(), items: scenario.items } });
  for (const { line, lines } of phaseLines) {
    const name = line.name?.text ?? 'prefill';
    const section = readSection(lines, 'phase', vars, context);
    if (phases.some((phase) => phase.name === name)) {
      sink.error(line.name?.range ?? line.keyword.range, 'duplicate-phase', `another phase is already named \`${name}\` in this scenario — give this one a different name`);
    }
    if (section.items.length === 0) {
      sink.error(line.keyword.range, 'empty-phase', `phase \`${name}\` has no commands — add a command line below it, such as \`GET key\``);
    }
    phases.push({ name, measured: line.measured, line, section });
  }
  if (phases.length === 0 || phases.every((phase) => phase.section.items.length === 0)) {
    if (phaseLines.length === 0) {
      sink.error(node.nameRange, 'no-commands', `scenario \`${node.name}\` has no commands — add a command line such as \`GET key\`, or \`suite default\``);
    }
  }

  const base = scenario.layer.over(file.layer);
  const sweeps = scenario.sweeps;
  const keysSwept = sweeps.some((sweep) => sweep.name === 'keys');
  const built = phases.map((phase) => {
    const layer = phase.section.layer.over(base);
    const tests = buildTests(phase, layer.has('keys') || keysSwept, sink);
    return { phase, layer, tests };
  });

  const points = sweepPoints(sweeps, sink).map(
    (point): PointPlan => ({
      label: point.map(({ axis, value }) => `${axis.name}=${value.value}`).join(' '),
      sweep: Object.fromEntries(point.map(({ axis, value }) => [axis.name, value.value])),
      phases: built.map(({ phase, layer, tests }) => phasePlan(phase, layer, point, tests, sink)),
    }),
  );

  const expects = file.expects.length === 0 ? scenario.expects : [...file.expects, ...scenario.expects];
  if (expects.some(({ expectation }) => expectation.command !== undefined)) checkExpectLabels(expects, built, node.name, sink);
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
    writes,
  };
  const cleanup = base.get('cleanup');
  if (cleanup) plan.cleanup = cleanup.value;
  const fromEnv = wireEnv(base, built.map(({ layer }) => layer));
  if (fromEnv) plan.wireEnv = fromEnv;
  if (scenario.find) {
    const counted = points[0]?.phases.some((phase) => phase.measured && phase.load.durationMs === undefined);
    if (sweeps.length > 0) sink.error(scenario.find.range, 'find-with-sweep', '`find rate` chooses its own rates — remove the `sweep` lines, or this line');
    else if (counted) sink.error(scenario.find.range, 'find-needs-duration', '`find rate` runs each probe for a fixed time — add `duration 5s` (with a request count, slow probes would take very long)');
    else plan.rateSearch = scenario.find;
  }
  return plan;
}

function buildTests(phase: PhaseSection, randomKeys: boolean, sink: DiagnosticSink): TestPlan[] {
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
    const commands = weighted as Extract<PhaseItem, { kind: 'command' }>[];
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
      sink.error(item.range, 'too-many-tests', `this phase passes ${MAX_PHASE_TESTS.toLocaleString('en-US')} tests here (each runs for its own duration) — split it into several scenarios, or use fewer command and \`suite\` lines`);
      break;
    }
    if (item.kind === 'command') add(item.template.label, item.template);
    else if (item.kind === 'group') addGroup(item);
    else for (const test of item.tests) add(test.title, suiteTemplate(test, randomKeys, item.range));
  }
  return tests.slice(); // at its exact size: the plan keeps it
}

type Point = { axis: SweepAxis; value: SweepAxis['values'][number] }[];

/** The cross product of the sweeps, the first varying slowest; one empty point without sweeps. */
function sweepPoints(sweeps: SweepAxis[], sink: DiagnosticSink): Point[] {
  const total = sweeps.reduce((product, sweep) => product * sweep.values.length, 1);
  if (total > MAX_SWEEP_POINTS) {
    sink.error(sweeps[0].range, 'too-many-points', `these sweeps make ${total.toLocaleString('en-US')} points, more than ${MAX_SWEEP_POINTS.toLocaleString('en-US')} — sweep fewer values`);
    return [[]];
  }
  let points: Point[] = [[]];
  for (const axis of sweeps) points = points.flatMap((point) => axis.values.map((value) => [...point, { axis, value }]));
  return points;
}

const NOT_SWEPT: ReadonlyMap<string, SweepAxis['values'][number]> = new Map();

function phasePlan(phase: PhaseSection, layer: Layer, point: Point, tests: TestPlan[], sink: DiagnosticSink): PhasePlan {
  const swept = point.length === 0 ? NOT_SWEPT : new Map(point.map(({ axis, value }) => [axis.name, value]));
  const number = <K extends 'clients' | 'pipeline' | 'key-size'>(name: K, fallback: number): number => swept.get(name)?.value ?? layer.get(name)?.value ?? fallback;

  const load: LoadPlan = {
    clients: number('clients', 50),
    threads: swept.get('threads')?.value ?? layer.get('threads')?.value ?? 'auto',
    pipeline: number('pipeline', 1),
    warmupMs: layer.get('warmup')?.value ?? 0,
  };
  const duration = layer.get('duration');
  const sweptRequests = swept.get('requests');
  if (duration && !sweptRequests) load.durationMs = duration.value;
  else load.requests = sweptRequests?.value ?? layer.get('requests')?.value ?? DEFAULT_REQUESTS;
  const rate = swept.get('rate') ?? layer.get('rate');
  if (rate) load.rate = rate.value;
  const stallTimeout = layer.get('stall-timeout');
  if (stallTimeout) load.stallTimeoutMs = stallTimeout.value;

  const keysEntry = layer.get('keys');
  const keysValue = keysEntry?.value;
  const distribution = keysValue?.distribution ?? 'uniform';
  const keys: KeyPlan = {
    space: swept.get('keys')?.value ?? keysValue?.space ?? 1,
    distribution,
    zipfExponent: distribution === 'zipf' ? (keysValue?.parameter ?? DEFAULT_ZIPF_EXPONENT) : DEFAULT_ZIPF_EXPONENT,
    gaussianStddev: distribution === 'gaussian' ? (keysValue?.parameter ?? DEFAULT_GAUSSIAN_STDDEV) : DEFAULT_GAUSSIAN_STDDEV,
    size: number('key-size', 12),
  };
  const seed = layer.get('seed');
  if (seed) keys.seed = seed.value;
  if (keyDigits(keys.space) > keys.size) {
    const at = swept.get('key-size')?.range ?? layer.get('key-size')?.range ?? swept.get('keys')?.range ?? keysEntry?.range ?? rangeOf(0, 0, 0);
    const digits = keyDigits(keys.space);
    sink.error(
      at,
      'key-size-too-small',
      `\`key-size ${keys.size}\` is too small for \`keys ${keys.space}\`: key numbers go up to ${keys.space - 1} (${digits} digits) — use \`key-size ${digits}\` or more`,
    );
  }

  const sweptValue = swept.get('value');
  const written = layer.get('value')?.value;
  const value: ValuePlan = sweptValue ? { kind: 'fixed', size: sweptValue.value } : written ? copyValuePlan(written) : { kind: 'fixed', size: 3 };
  const fill = layer.get('value-fill')?.value;
  const valueFill: ValueFill | undefined =
    fill === undefined ? undefined : fill === 'random' ? { kind: 'random' } : fill === 'redis-benchmark' ? { kind: 'redis-benchmark' } : { kind: 'literal', text: fill };
  return { name: phase.name, measured: phase.measured, load, keys, value, ...(valueFill ? { valueFill } : {}), tests };
}

/** A value plan of the phase's own: `value` lines are read once per file for each text. */
function copyValuePlan(value: ValuePlan): ValuePlan {
  return value.kind === 'weighted' ? { kind: 'weighted', choices: value.choices.map((choice) => ({ ...choice })) } : { ...value };
}

function checkExpectLabels(
  expects: Section['expects'],
  built: { phase: PhaseSection; tests: TestPlan[] }[],
  scenarioName: string,
  sink: DiagnosticSink,
): void {
  const labels = new Set<string>();
  for (const { phase, tests } of built) {
    if (!phase.measured) continue;
    for (const test of tests) {
      for (const { command } of test.commands) labels.add(command.label);
      if (test.group) labels.add(test.name.toUpperCase()); // a group's units
    }
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
}

function targetPlan(layer: Layer, sink: DiagnosticSink): TargetPlan {
  const target: TargetPlan = {
    cluster: layer.get('cluster')?.value ?? false,
    resp: layer.get('resp')?.value ?? 2,
    client: layer.get('client')?.value ?? 'fast',
    connectTimeoutMs: layer.get('connect-timeout')?.value ?? 5000,
  };
  const where = layer.get('target')?.value;
  if (where?.url) target.url = where.url;
  if (where?.profile) target.profile = where.profile;
  const user = layer.get('user');
  if (user) target.user = user.value;
  const password = layer.get('password')?.value;
  if (password?.env) target.passwordEnv = password.env;
  if (password?.secret) target.passwordSecret = true;
  const sentinelUser = layer.get('sentinel-user');
  if (sentinelUser) target.sentinelUser = sentinelUser.value;
  const sentinelPassword = layer.get('sentinel-password')?.value;
  if (sentinelPassword?.env) target.sentinelPasswordEnv = sentinelPassword.env;
  if (sentinelPassword?.secret) target.sentinelPasswordSecret = true;
  const db = layer.get('db');
  if (db) target.db = db.value;
  if (layer.get('replica-reads')?.value) target.replicaReads = true;

  const tlsSwitch = layer.get('tls');
  const files = { ca: layer.get('tls-ca'), cert: layer.get('tls-cert'), key: layer.get('tls-key') };
  const servername = layer.get('tls-servername');
  const insecure = layer.get('tls-insecure');
  const rediss = /^rediss(-sentinel)?:\/\//i.test(target.url ?? '');
  if (tlsSwitch?.value === false && rediss) {
    sink.error(tlsSwitch.range, 'tls-conflict', '`tls off` contradicts the `rediss://` target — use a `redis://` URL, or remove `tls off`');
  }
  const anyTlsSetting = Boolean(tlsSwitch || files.ca || files.cert || files.key || servername || insecure);
  if (anyTlsSetting) {
    const tls: TlsPlan = { enabled: tlsSwitch?.value ?? true };
    if (files.ca) tls.ca = files.ca.value;
    if (files.cert) tls.cert = files.cert.value;
    if (files.key) tls.key = files.key.value;
    if (servername) tls.servername = servername.value;
    if (insecure) tls.insecure = insecure.value;
    if (!tls.enabled) {
      for (const [name, entry] of Object.entries({ 'tls-ca': files.ca, 'tls-cert': files.cert, 'tls-key': files.key, 'tls-servername': servername, 'tls-insecure': insecure })) {
        if (entry) sink.warning(entry.range, 'tls-off', `\`${name}\` has no effect with \`tls off\` — remove it, or turn TLS on`);
      }
    }
    if (Boolean(files.cert) !== Boolean(files.key)) {
      const present = (files.cert ?? files.key)!;
      sink.error(present.range, 'tls-client-pair', 'a client certificate needs both `tls-cert` and `tls-key` — add the other one');
    }
    target.tls = tls;
  }
  return target;
}
