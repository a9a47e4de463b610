// Parse and resolve in one pass: each scenario is resolved as soon as the parser hands it over, so
// the document tree of a large file never lives as a whole (its garbage collection was most of the cost).
import type { Diagnostic, ResolvedFile, ScenarioPlan } from './plan';
import { reportCommands } from './commandCheck';
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
    const commandPlaces = new Set<string>();
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
        const plan = resolver.scenario(node);
        reportMemory(plan, node.lines, fileLines, options.memory, sink);
        reportCommands(plan, table, sink, commandPlaces);
        keep?.(plan);
      },
    });
    resolver.finish();
  });
  return sink.finish();
}
