// Shared helpers for the scenario language tests.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkText, type Diagnostic, type ResolvedFile, type ResolveOptions } from '../../../src/scenario';

/** The repository root: the nearest folder above the compiled test (or the working directory) holding rbench's package.json. */
export function repoRoot(): string {
  const starts = [__dirname, process.cwd()];
  for (const start of starts) {
    for (let dir = start; ; dir = path.dirname(dir)) {
      const manifest = path.join(dir, 'package.json');
      if (existsSync(manifest) && existsSync(path.join(dir, 'examples')) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'rbench') return dir;
      if (path.dirname(dir) === dir) break;
    }
  }
  throw new Error('cannot find the rbench repository root from ' + starts.join(' or '));
}

/** Resolves with an empty environment unless one is given, so tests do not depend on the machine. */
export function check(text: string, options: ResolveOptions = {}): ResolvedFile {
  return checkText(text, { env: {}, ...options });
}

export function errors(resolved: ResolvedFile): Diagnostic[] {
  return resolved.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
}

export function codes(resolved: ResolvedFile): string[] {
  return resolved.diagnostics.map((diagnostic) => diagnostic.code);
}

/** Resolves text that must have no diagnostics at all, showing them when it does. */
export function clean(text: string, options: ResolveOptions = {}): ResolvedFile {
  const resolved = check(text, options);
  if (resolved.diagnostics.length > 0) {
    throw new Error(
      'unexpected diagnostics:\n' + resolved.diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.code} ${d.message}`).join('\n'),
    );
  }
  return resolved;
}

/** The single diagnostic with this code. */
export function only(resolved: ResolvedFile, code: string): Diagnostic {
  const found = resolved.diagnostics.filter((diagnostic) => diagnostic.code === code);
  if (found.length !== 1) throw new Error(`expected one ${code}, got: ${JSON.stringify(resolved.diagnostics.map((d) => [d.code, d.message]))}`);
  return found[0];
}

/** `[line, startCharacter, endCharacter]` of a single-line range. */
export function span(diagnostic: Diagnostic): [number, number, number] {
  return [diagnostic.range.start.line, diagnostic.range.start.character, diagnostic.range.end.character];
}
