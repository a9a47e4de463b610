// `.rbench` text → document tree. Every line is classified (header, setting, variable, command,
// expect, phase, comment, blank, unknown) and every token keeps its exact range, for diagnostics
// and for editor features built on this tree. Syntax problems become diagnostics; nothing throws.
// Here: the document and its scenarios; one line's parse is lineParser.ts's, the tree's types syntax.ts's.
import { DiagnosticSink } from './diagnostics';
import { splitLines } from './lexer';
import { parseLine } from './lineParser';
import type { DocLine, HeaderLine, ScenarioDocument, ScenarioNode } from './syntax';

export function parseDocument(text: string): ScenarioDocument {
  const sink = new DiagnosticSink();
  const lines: DocLine[] = [];
  let fileLines: DocLine[] = [];
  const scenarios: ScenarioNode[] = [];
  parseScenarios(text, sink, {
    line: (line) => lines.push(line),
    fileLines: (found) => (fileLines = found),
    scenario: (node) => scenarios.push(node),
  });
  return { lines, fileLines, scenarios, diagnostics: sink.finish(), droppedDiagnostics: sink.dropped };
}

/** What `parseScenarios` hands over, in file order. */
export interface ScenarioVisitor {
  /** Every line, as it is parsed. */
  line?(line: DocLine): void;
  /** The lines before the first header (all lines of a file without scenarios): once, before any scenario. */
  fileLines(lines: DocLine[]): void;
  /** A scenario, as soon as its last line is parsed. */
  scenario(node: ScenarioNode): void;
}

/**
 * Parses `text` one line at a time and hands each scenario over as soon as it ends. A caller that
 * keeps no nodes lets them die young: on a large file, keeping every line's node alive until the
 * end cost more garbage collection than the parsing itself.
 */
export function parseScenarios(text: string, sink: DiagnosticSink, visitor: ScenarioVisitor): void {
  const grouper = new ScenarioGrouper(sink, visitor);
  // Lines are cut one at a time (no array of all lines); a file with `\r` line breaks is split first.
  if (text.includes('\r')) {
    const lines = splitLines(text);
    for (let index = 0; index < lines.length; index++) grouper.add(parseLine(lines[index], index, sink));
  } else {
    let from = 0;
    for (let index = 0; ; index++) {
      const end = text.indexOf('\n', from);
      grouper.add(parseLine(end < 0 ? text.slice(from) : text.slice(from, end), index, sink));
      if (end < 0) break;
      from = end + 1;
    }
  }
  grouper.finish();
}

/** Groups lines into the file-level lines and scenarios (from a header to the line before the next one). */
class ScenarioGrouper {
  private fileLines: DocLine[] = [];
  private current: { header: HeaderLine; lines: DocLine[] } | undefined;
  private count = 0;
  private last: DocLine | undefined;
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly sink: DiagnosticSink,
    private readonly visitor: ScenarioVisitor,
  ) {}

  add(line: DocLine): void {
    this.visitor.line?.(line);
    if (line.kind !== 'header') {
      (this.current ? this.current.lines : this.fileLines).push(line);
      this.last = line;
      return;
    }
    if (this.current) this.close();
    else this.closeFileLines();
    this.current = { header: line, lines: [] };
    this.last = line;
  }

  finish(): void {
    if (this.current) {
      this.close();
      return;
    }
    const lines = this.fileLines;
    // A file without headers is one implicit scenario when it has something to run.
    const hasCommands = lines.some((line) => line.kind === 'command' || (line.kind === 'setting' && line.setting.kind === 'suite'));
    if (!hasCommands) {
      this.visitor.fileLines(lines);
      return;
    }
    this.visitor.fileLines([]);
    const firstLine = lines[0].range;
    const range = { start: firstLine.start, end: lines[lines.length - 1].range.end };
    this.visitor.scenario({ name: 'scenario 1', index: 0, nameRange: firstLine, headerRange: firstLine, range, lines });
  }

  private closeFileLines(): void {
    for (const line of this.fileLines) {
      if (line.kind === 'command') {
        this.sink.error(
          line.command.range,
          'command-outside-scenario',
          'this command belongs to no scenario — add a `### name` line above it (lines before the first `###` only hold shared settings)',
        );
      }
    }
    this.visitor.fileLines(this.fileLines);
  }

  private close(): void {
    const { header, lines } = this.current!;
    const index = this.count++;
    const name = header.name || `scenario ${index + 1}`;
    const earlier = this.seen.get(name);
    if (earlier !== undefined) {
      this.sink.error(
        header.name ? header.nameRange : header.range,
        'duplicate-scenario',
        `another scenario is already named \`${name}\` (line ${earlier + 1}) — results are stored by name, so give this one a different name`,
      );
    } else {
      this.seen.set(name, header.line);
    }
    const headerRange = header.range;
    const last = this.last!;
    this.current = undefined;
    this.visitor.scenario({
      name,
      index,
      header,
      nameRange: header.name ? header.nameRange : headerRange,
      headerRange,
      range: { start: headerRange.start, end: { line: last.line, character: last.text.length } },
      lines,
    });
  }
}
