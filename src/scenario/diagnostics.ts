// Collecting diagnostics: ranges, de-duplication, a cap for hostile input, and CLI formatting.
import type { Diagnostic, Range, Severity, TextFix } from './plan';

/** Past this many problems the rest are counted, not listed: nobody reads the 1001st error. */
export const DIAGNOSTIC_LIMIT = 1000;
export const TOO_MANY_PROBLEMS = 'too-many-problems';

/**
 * Problems remembered to drop repeats. Past the cap the rest are only counted; once this many are
 * remembered, they are counted without a look back (a hostile file's million problems must not cost
 * a key each), so the count of a file that bad may include some repeats.
 */
export const REMEMBERED_PROBLEMS = 10 * DIAGNOSTIC_LIMIT;

export function rangeOf(line: number, start: number, end: number): Range {
  return { start: { line, character: start }, end: { line, character: end } };
}

export function replaceFix(range: Range, newText: string, title = `Change to \`${newText}\``): TextFix {
  return { title, range, newText };
}

/** The final note of a capped list: how many of the problems not shown are errors, so a summary counts them all. */
export interface TooManyProblemsNote extends Diagnostic {
  /** Problems not listed, and the errors among them. */
  hidden: number;
  hiddenErrors: number;
}

/** Errors among `diagnostics`, those past the cap included (counted in the final note). */
export function errorCount(diagnostics: readonly Diagnostic[]): number {
  let errors = 0;
  for (const diagnostic of diagnostics) {
    if (diagnostic.severity === 'error') errors++;
    else if (diagnostic.code === TOO_MANY_PROBLEMS) errors += (diagnostic as Partial<TooManyProblemsNote>).hiddenErrors ?? 0;
  }
  return errors;
}

/** Problems past the cap, not listed: those a final note counts. */
export function hiddenCount(diagnostics: readonly Diagnostic[]): number {
  const note = diagnostics[diagnostics.length - 1] as Partial<TooManyProblemsNote> | undefined;
  return note?.code === TOO_MANY_PROBLEMS ? (note.hidden ?? 0) : 0;
}

export class DiagnosticSink {
  readonly items: Diagnostic[] = [];
  private readonly seen = new Set<string>();
  dropped = 0;
  /** Of the dropped problems, the errors. */
  droppedErrors = 0;
  /** Every problem reported, repeats and dropped ones included: a caller can tell whether a step reported any. */
  reported = 0;

  constructor(initial: readonly Diagnostic[] = [], dropped = 0) {
    for (const diagnostic of initial) if (diagnostic.code !== TOO_MANY_PROBLEMS) this.push(diagnostic);
    this.dropped += dropped;
    this.droppedErrors += errorCount(initial.filter((diagnostic) => diagnostic.code === TOO_MANY_PROBLEMS));
  }

  /** True once the cap is reached: callers may skip costly work such as did-you-mean searches. */
  get full(): boolean {
    return this.items.length >= DIAGNOSTIC_LIMIT;
  }

  add(range: Range, severity: Severity, code: string, message: string, fixes?: TextFix[]): void {
    this.reported++;
    const diagnostic: Diagnostic = { range, severity, code, message };
    if (fixes && fixes.length > 0) diagnostic.fixes = fixes;
    this.push(diagnostic);
  }

  /** Problems known to be new (none repeats an earlier one) that arrive once the cap is reached: the lexer's, errors all. */
  countDropped(count: number): void {
    this.reported += count;
    this.dropped += count;
    this.droppedErrors += count;
  }

  error(range: Range, code: string, message: string, fixes?: TextFix[]): void {
    this.add(range, 'error', code, message, fixes);
  }

  warning(range: Range, code: string, message: string, fixes?: TextFix[]): void {
    this.add(range, 'warning', code, message, fixes);
  }

  private push(diagnostic: Diagnostic): void {
    if (this.seen.size >= REMEMBERED_PROBLEMS) {
      this.drop(diagnostic);
      return;
    }
    // The same problem reached twice (a file-level line checked for each scenario) is reported once.
    const { start, end } = diagnostic.range;
    const key = `${start.line}:${start.character}:${end.line}:${end.character}:${diagnostic.code}:${diagnostic.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.full) {
      this.drop(diagnostic);
      return;
    }
    this.items.push(diagnostic);
  }

  private drop(diagnostic: Diagnostic): void {
    this.dropped++;
    if (diagnostic.severity === 'error') this.droppedErrors++;
  }

  /** The diagnostics in source order, with a final note when some were dropped. */
  finish(): Diagnostic[] {
    const sorted = [...this.items].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
    if (this.dropped > 0) {
      const last = sorted[sorted.length - 1]?.range ?? rangeOf(0, 0, 0);
      const note: TooManyProblemsNote = {
        range: last,
        severity: 'info',
        code: TOO_MANY_PROBLEMS,
        message: `${this.dropped} more problems not shown — fix the ones above first`,
        hidden: this.dropped,
        hiddenErrors: this.droppedErrors,
      };
      sorted.push(note);
    }
    return sorted;
  }
}

/** `file:line:col: error: message`, with one-based line and column as compilers print them. */
export function formatDiagnostic(file: string, diagnostic: Diagnostic): string {
  const { line, character } = diagnostic.range.start;
  const severity = diagnostic.severity === 'hint' ? 'info' : diagnostic.severity;
  return `${file}:${line + 1}:${character + 1}: ${severity}: ${diagnostic.message}`;
}
