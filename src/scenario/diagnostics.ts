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

export class DiagnosticSink {
  readonly items: Diagnostic[] = [];
  private readonly seen = new Set<string>();
  dropped = 0;
  /** Every problem reported, repeats and dropped ones included: a caller can tell whether a step reported any. */
  reported = 0;

  constructor(initial: readonly Diagnostic[] = [], dropped = 0) {
    for (const diagnostic of initial) if (diagnostic.code !== TOO_MANY_PROBLEMS) this.push(diagnostic);
    this.dropped += dropped;
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

  /** Problems known to be new (none repeats an earlier one) that arrive once the cap is reached. */
  countDropped(count: number): void {
    this.reported += count;
    this.dropped += count;
  }

  error(range: Range, code: string, message: string, fixes?: TextFix[]): void {
    this.add(range, 'error', code, message, fixes);
  }

  warning(range: Range, code: string, message: string, fixes?: TextFix[]): void {
    this.add(range, 'warning', code, message, fixes);
  }

  private push(diagnostic: Diagnostic): void {
    if (this.seen.size >= REMEMBERED_PROBLEMS) {
      this.dropped++;
      return;
    }
    // The same problem reached twice (a file-level line checked for each scenario) is reported once.
    const { start, end } = diagnostic.range;
    const key = `${start.line}:${start.character}:${end.line}:${end.character}:${diagnostic.code}:${diagnostic.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.full) {
      this.dropped++;
      return;
    }
    this.items.push(diagnostic);
  }

  /** The diagnostics in source order, with a final note when some were dropped. */
  finish(): Diagnostic[] {
    const sorted = [...this.items].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
    if (this.dropped > 0) {
      const last = sorted[sorted.length - 1]?.range ?? rangeOf(0, 0, 0);
      sorted.push({
        range: last,
        severity: 'info',
        code: TOO_MANY_PROBLEMS,
        message: `${this.dropped} more problems not shown — fix the ones above first`,
      });
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
