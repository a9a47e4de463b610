// Parse and resolve in one pass: each scenario is resolved as soon as the parser hands it over, so
// the document tree of a large file never lives as a whole (its garbage collection was most of the cost).
import type { Diagnostic, ResolvedFile, ScenarioPlan } from './plan';
import { DiagnosticSink } from './diagnostics';
import { parseScenarios } from './parser';
import { FileResolver, guarded, type ResolveOptions } from './resolver';

/** Parse and resolve in one step. Never throws. */
export function checkText(text: string, options: ResolveOptions = {}): ResolvedFile {
  const scenarios: ScenarioPlan[] = [];
  const diagnostics = check(text, options, (plan) => scenarios.push(plan));
  return { scenarios, diagnostics };
}

/** The diagnostics of `text` alone (what the editor shows): no plan is kept, which makes a large file cheaper. */
export function checkDiagnostics(text: string, options: ResolveOptions = {}): Diagnostic[] {
  return check(text, options, () => undefined);
}

function check(text: string, options: ResolveOptions, keep: (plan: ScenarioPlan) => void): Diagnostic[] {
  const sink = new DiagnosticSink();
  guarded(sink, () => {
    const resolver = new FileResolver(sink, options);
    parseScenarios(text, sink, {
      fileLines: (lines) => resolver.fileLines(lines),
      scenario: (node) => keep(resolver.scenario(node)),
    });
    resolver.finish();
  });
  return sink.finish();
}
