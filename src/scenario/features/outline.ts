// The outline of a `.rbench` file from one pass of the parser: the scenarios (for CodeLens, the Test
// Explorer and the run commands), the document symbols and the folding ranges. Built scenario by
// scenario as the parser hands them over, so it can ride along with the diagnostics check (in the
// editor's worker thread for large files) instead of parsing again on the extension host's thread.
import { checkStream } from '../check';
import { DiagnosticSink } from '../diagnostics';
import { groupBlocks } from '../groups';
import { parseScenarios, type ScenarioVisitor } from '../parser';
import type { DocLine, ScenarioNode } from '../syntax';
import type { Diagnostic, Range } from '../plan';
import type { ResolveOptions } from '../resolver';
import { blockRange, phaseBlocks } from './locate';
import { scenarioSymbol, variableSymbols } from './symbolTree';
import type { FoldingRangeData, SymbolData } from './types';

export interface ScenarioOutline {
  name: string;
  index: number;
  headerRange: Range;
  /** From the header to the end of the line before the next header. */
  range: Range;
}

export interface DocumentOutline {
  scenarios: ScenarioOutline[];
  symbols: SymbolData[];
  folding: FoldingRangeData[];
}

/** Collects the outline from the parser's visits. */
export class OutlineBuilder implements ScenarioVisitor {
  private readonly scenarios: ScenarioOutline[] = [];
  private readonly symbols: SymbolData[] = [];
  private readonly folding: FoldingRangeData[] = [];
  /** Where the current run of full-line comments started. */
  private commentsFrom: number | undefined;
  private lastLine = -1;

  line(line: DocLine): void {
    this.lastLine = line.line;
    if (line.kind === 'comment') this.commentsFrom ??= line.line;
    else if (this.commentsFrom !== undefined) {
      this.fold(this.commentsFrom, line.line - 1, 'comment');
      this.commentsFrom = undefined;
    }
  }

  fileLines(lines: DocLine[]): void {
    this.symbols.push(...variableSymbols(lines));
  }

  scenario(node: ScenarioNode): void {
    this.scenarios.push({ name: node.name, index: node.index, headerRange: node.headerRange, range: node.range });
    this.symbols.push(scenarioSymbol(node));
    if (node.header) this.foldBlock(blockRange(node.header.range, node.lines));
    for (const { line, lines } of phaseBlocks(node)) this.foldBlock(blockRange(line.range, lines));
    for (const group of groupBlocks(node.lines)) this.fold(group.line.line, group.end.line);
  }

  finish(): DocumentOutline {
    if (this.commentsFrom !== undefined) this.fold(this.commentsFrom, this.lastLine, 'comment');
    this.commentsFrom = undefined;
    const folding = this.folding.sort((a, b) => a.start - b.start || b.end - a.end);
    return { scenarios: this.scenarios, symbols: this.symbols, folding };
  }

  private foldBlock(range: Range): void {
    this.fold(range.start.line, range.end.line);
  }

  private fold(start: number, end: number, kind?: FoldingRangeData['kind']): void {
    if (end > start) this.folding.push(kind ? { start, end, kind } : { start, end });
  }
}

/** The outline alone (its syntax problems are not needed). */
export function documentOutline(text: string): DocumentOutline {
  const builder = new OutlineBuilder();
  parseScenarios(text, new DiagnosticSink(), builder);
  return builder.finish();
}

export interface CheckedDocument {
  diagnostics: Diagnostic[];
  outline: DocumentOutline;
}

/** Diagnostics and outline from one pass over the text: what the editor needs after each edit. */
export function checkWithOutline(text: string, options: ResolveOptions = {}): CheckedDocument {
  const builder = new OutlineBuilder();
  const diagnostics = checkStream(text, options, builder);
  return { diagnostics, outline: builder.finish() };
}
