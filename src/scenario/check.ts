// Parse and resolve in one pass: each scenario is resolved as soon as the parser hands it over, so
// the document tree of a large file never lives as a whole (its garbage collection was most of the cost).
import type { Diagnostic, ResolvedFile, ScenarioPlan } from './plan';
import { CommandCheckState, reportCommands } from './commandCheck';
import { commandTableOf } from './commandTable';
import { DiagnosticSink } from './diagnostics';
import { reportMemory } from './memory';
import { parseScenarios, type ScenarioVisitor } from './parser';
import type { DocLine } from './syntax';
import { FileResolver, guarded, type ResolveOptions } from './resolver';

/** Parse and resolve in one step. Never throws. */
export function checkText(text: string, options: ResolveOptions = {}): ResolvedFile {
  const scenarios: ScenarioPlan[] = [];
  const diagnostics = checkStream(text, options, {}, (plan) => scenarios.push(plan));
  return { scenarios, diagnostics };
}

/** The diagnostics of `text` alone (what the editor shows): no plan is kept, which makes a large file cheaper. */
export function checkDiagnostics(text: string, options: ResolveOptions = {}): Diagnostic[] {
  return checkStream(text, options);
}

/**
 * The diagnostics of `text`; `also` sees the lines and scenarios as the check goes (an outline is
 * built that way), `keep` each scenario's plan. Never throws.
 */
export function checkStream(text: string, options: ResolveOptions, also: Partial<ScenarioVisitor> = {}, keep?: (plan: ScenarioPlan) => void): Diagnostic[] {
  const sink = new DiagnosticSink();
  guarded(sink, () => {
    const resolver = new FileResolver(sink, options);
    const table = commandTableOf(options.commandTable);
    const commandState = new CommandCheckState();
    let fileLines: DocLine[] = [];
    parseScenarios(text, sink, {
      line: also.line?.bind(also),
      fileLines: (lines) => {
        also.fileLines?.(lines);
        resolver.fileLines(lines);
        fileLines = lines;
      },
      scenario: (node) => {
        also.scenario?.(node);
        const problemsBefore = sink.reported;
        const plan = resolver.scenario(node);
        // A problem while resolving may have cost a line that uses variables its arguments.
        const interpolated =
          sink.reported > problemsBefore ? new Set(node.lines.filter((doc) => doc.interpolations.length > 0).map((doc) => doc.line)) : undefined;
        const unsure = (line: number) => interpolated?.has(line) === true;
        reportMemory(plan, node.lines, fileLines, options.memory, sink);
        reportCommands(plan, table, sink, commandState, unsure);
        keep?.(plan);
      },
    });
    resolver.finish();
  });
  return sink.finish();
}
