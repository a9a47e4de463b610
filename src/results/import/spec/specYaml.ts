// One benchmark-spec test file read as untrusted data: through the file gate with a size cap, parsed by the
// `yaml` library with its alias limit (an alias bomb is refused, not expanded), nesting bounded, and copied
// into null-prototype records (src/gates/plainData.ts) so no key a stranger chose reaches a prototype.
import type { parseDocument as ParseDocument } from 'yaml';
import { FileGateError, readBoundedText } from '../../../gates/files';
import { plainCopy } from '../../../gates/plainData';

/** The spec's test files are a few kB; a thousand times that is no test file. */
export const MAX_SPEC_FILE_BYTES = 1024 * 1024;
/** Aliases the document may resolve: the spec's files use none, a bomb uses millions. */
export const MAX_SPEC_ALIASES = 50;
/** Nesting the spec needs is 4 or 5 levels (dbconfig → preload_tool → …). */
export const MAX_SPEC_DEPTH = 16;
/** Open brackets the text may hold at once before it is parsed (quoted ones count too, so more than the depth). */
export const MAX_SPEC_BRACKETS = 64;

export class SpecReadError extends Error {}

/** yaml, loaded on first use: dist/cli.js keeps it in a file of its own (esbuild.mjs), which a run never reads. */
function yamlParser(): typeof ParseDocument {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('yaml') as typeof import('yaml')).parseDocument;
}

/** Deeper than `limit` levels of maps and lists anywhere; a loop, so deep nesting cannot overflow the stack. */
function tooDeep(root: unknown, limit: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  while (pending.length > 0) {
    const { value, depth } = pending.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(value as object)) pending.push({ value: child, depth: depth + 1 });
  }
  return false;
}

/**
 * Brackets opened and not yet closed, at the deepest, counting every `[` and `{` (quoted ones too: a
 * guard, not a parse). A few kB of `[[[[…` would take the library seconds and a deep stack; a real test
 * file stays far below. Block nesting needs indentation, which the size cap bounds.
 */
function bracketDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x5b || code === 0x7b) deepest = Math.max(deepest, ++depth);
    else if ((code === 0x5d || code === 0x7d) && depth > 0) depth--;
  }
  return deepest;
}

/** The YAML text's value as plain data, or SpecReadError saying why not (naming the file). */
export function parseSpecYaml(text: string, file: string): unknown {
  if (bracketDepth(text) > MAX_SPEC_BRACKETS)
    throw new SpecReadError(`${file}: more than ${MAX_SPEC_BRACKETS} brackets open at once, which no benchmark-spec test has`);
  let value: unknown;
  try {
    const doc = yamlParser()(text, { uniqueKeys: true, prettyErrors: false, merge: false });
    const [first] = doc.errors;
    if (first) throw new SpecReadError(`${file}: not YAML the import can read (${first.message.split('\n')[0]})`);
    value = doc.toJS({ maxAliasCount: MAX_SPEC_ALIASES });
  } catch (error) {
    if (error instanceof SpecReadError) throw error;
    // The library's own refusals (an alias count past the limit) and a stack too deep for its composer alike.
    const reason = /alias/i.test((error as Error).message)
      ? `more than ${MAX_SPEC_ALIASES} alias expansions (an alias bomb?)`
      : (error as Error).message.split('\n')[0];
    throw new SpecReadError(`${file}: not YAML the import can read (${reason})`);
  }
  if (tooDeep(value, MAX_SPEC_DEPTH)) throw new SpecReadError(`${file}: nested more than ${MAX_SPEC_DEPTH} levels deep, which no benchmark-spec test is`);
  return plainCopy(value);
}

/** Reads and parses one spec file the user named (or found in a folder the user named). */
export function readSpecFile(file: string): unknown {
  let text: string;
  try {
    text = readBoundedText(file, { maxBytes: MAX_SPEC_FILE_BYTES, userNamed: true });
  } catch (error) {
    if (error instanceof FileGateError) throw new SpecReadError(error.message);
    throw error;
  }
  return parseSpecYaml(text, file);
}
