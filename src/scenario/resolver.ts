// Document tree → resolved plan (plan.ts): variables and environment substituted, values read and
// checked, defaults applied, phases formed, sweeps and suites expanded. Every problem becomes a
// diagnostic; the plan is produced even for a file with errors (the runner refuses those).
// The pieces, in the order they run: scopeLines.ts reads a scope's lines (into settingLayer.ts's layers,
// with commandLines.ts and readOnce.ts), and scenarioPlan.ts builds a scenario's plan from them
// (phaseTests.ts, phasePlan.ts, targetPlan.ts).
import { clusterKeyDiagnostics } from './clusterKeys';
import { commandTableOf, type CommandTableData } from './commandTable';
import { DiagnosticSink, rangeOf } from './diagnostics';
import { VariableScope } from './interpolate';
import type { MemoryLimits } from './memory';
import type { ResolvedFile, ScenarioPlan } from './plan';
import { resolveScenario } from './scenarioPlan';
import { readSection, variableDefinitions, type ReadContext, type Section } from './scopeLines';
import type { DocLine, ScenarioDocument, ScenarioNode } from './syntax';

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
  /** A server's command table (src/scenario/commandTable.ts) to check commands against; the built-in table when absent. */
  commandTable?: CommandTableData;
  /** The names of the machine's server binaries (rbench.serverBinaries, `--server-binary NAME=PATH`): `server binary NAME` must be one. */
  serverBinaries?: readonly string[];
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
  private readonly context: ReadContext;
  private file: { section: Section; vars: VariableScope; lines: DocLine[] } | undefined;
  private scenarios = 0;

  constructor(
    sink: DiagnosticSink,
    private readonly options: ResolveOptions,
  ) {
    this.context = {
      sink,
      env: options.env ?? process.env,
      vars: options.vars ?? {},
      baseDir: options.baseDir,
      ...(options.serverBinaries ? { serverBinaries: options.serverBinaries } : {}),
      values: new Map(),
      args: new Map(),
      expects: new Map(),
    };
  }

  fileLines(lines: DocLine[]): void {
    const { context, options } = this;
    const vars = new VariableScope(
      variableDefinitions(lines, context.sink),
      context.vars,
      context.env,
      context.sink,
      new Map(),
      new Set(options.allowEnv ?? []),
    );
    this.file = { section: readSection(lines, 'file', vars, context), vars, lines };
  }

  scenario(node: ScenarioNode): ScenarioPlan {
    this.scenarios++;
    const plan = resolveScenario(node, this.file!.section, this.file!.vars, this.context);
    // `cluster on`: multi-key commands must keep their keys in one hash slot (src/scenario/clusterKeys.ts).
    if (plan.target.cluster) {
      const texts = new Map(node.lines.map((line) => [line.line, line.text]));
      for (const d of clusterKeyDiagnostics(plan, (line) => texts.get(line), commandTableOf(this.options.commandTable)))
        this.context.sink.error(d.range, d.code, d.message, d.fixes);
    }
    return plan;
  }

  /** After the last scenario. */
  finish(): void {
    if (this.scenarios > 0) return;
    const content = this.file?.lines.find((line) => line.kind !== 'blank' && line.kind !== 'comment');
    if (content)
      this.context.sink.warning(content.range, 'no-scenario', 'this file has no scenario — add a `### name` line followed by commands, such as `GET key`');
  }
}
