// Key globs: the keys a command template names (`bench:__key__` → `bench:*`) and SCAN MATCH patterns
// (`cleanup user:*`), and whether every key one can match the other matches too. The answer may be "no"
// when it is "yes" (a pattern too subtle to compare), never the other way: it decides what counts as the
// scenario's own keys.
import type { ArgTemplate } from '../scenario/plan';

/** Any text (`*`, a placeholder). */
export const STAR = Symbol('star');
/** Exactly one character (`?`, `[abc]`). */
export const ANY = Symbol('any');
/** A glob: literal characters, STAR and ANY. */
export type GlobToken = string | typeof STAR | typeof ANY;

/** The keys an argument names: its literal text, a placeholder counting as any text. */
export function keyGlob(arg: ArgTemplate): GlobToken[] {
  const tokens: GlobToken[] = [];
  for (const part of arg) {
    if (typeof part === 'string') tokens.push(...part);
    else if (tokens[tokens.length - 1] !== STAR) tokens.push(STAR);
  }
  return tokens;
}

/** A Redis MATCH pattern: `*`, `?`, `[…]` (any one character, whatever the set) and `\x` (the character x). */
export function matchPattern(pattern: string): GlobToken[] {
  const tokens: GlobToken[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') tokens.push(STAR);
    else if (c === '?') tokens.push(ANY);
    else if (c === '\\' && i + 1 < pattern.length) tokens.push(pattern[++i]);
    else if (c === '[') {
      // To the closing `]`, skipping escaped characters; Redis reads an unclosed `[` to the end of the pattern.
      do i += pattern[i] === '\\' ? 2 : 1;
      while (pattern[i] !== undefined && pattern[i] !== ']');
      tokens.push(ANY);
    } else tokens.push(c);
  }
  return tokens;
}

/** True when the glob has a literal character: one made of placeholders alone (`__key__`) looks like anybody's keys. */
export function hasLiteral(glob: readonly GlobToken[]): boolean {
  return glob.some((token) => typeof token === 'string');
}

/** True when the outer token matches whatever the inner one does: ANY takes any one character, a character itself only. */
function accepts(outer: GlobToken, inner: GlobToken): boolean {
  return outer === ANY ? inner !== STAR : inner === outer;
}

/** True when every key `inner` matches is matched by `outer`. */
export function covers(outer: readonly GlobToken[], inner: readonly GlobToken[]): boolean {
  // Memoised: patterns with many stars would otherwise take exponential time.
  const memo = new Map<string, boolean>();
  const from = (i: number, j: number): boolean => {
    const key = `${i} ${j}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (j === outer.length) result = i === inner.length;
    else if (outer[j] === STAR) result = from(i, j + 1) || (i !== inner.length && from(i + 1, j));
    else result = i !== inner.length && accepts(outer[j], inner[i]) && from(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return from(0, 0);
}

/** As people read it: `bench:*`, with literal `*`, `?`, `[`, `]` and `\` escaped. */
export function showGlob(glob: readonly GlobToken[]): string {
  return glob.map((token) => (token === STAR ? '*' : token === ANY ? '?' : /[*?[\]\\]/.test(token) ? `\\${token}` : token)).join('');
}
