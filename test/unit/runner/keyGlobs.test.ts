// Key globs: what a key template and a MATCH pattern cover, and the containment that decides the scenario's own keys.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ANY, covers, hasLiteral, keyGlob, matchPattern, showGlob, STAR } from '../../../src/runner/keyGlobs';

const key = { placeholder: 'key' as const };
const rand = { placeholder: 'rand_int' as const };

/** A Redis-like MATCH over plain strings, for the property: `*`, `?` and literal characters. */
function matches(pattern: string, text: string): boolean {
  const source = [...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`, 's').test(text);
}

describe('key globs', () => {
  it('a key template: literal characters, any placeholder run as one star', () => {
    assert.deepEqual(keyGlob(['bench:', key]), ['b', 'e', 'n', 'c', 'h', ':', STAR]);
    assert.deepEqual(keyGlob([key, rand]), [STAR]);
    assert.deepEqual(keyGlob([key, ':', rand]), [STAR, ':', STAR]);
    assert.deepEqual(keyGlob(['counter']), [...'counter']);
    assert.deepEqual(keyGlob([]), []);
  });

  it('a MATCH pattern: star, one character, sets and escapes', () => {
    assert.deepEqual(matchPattern('a*'), ['a', STAR]);
    assert.deepEqual(matchPattern('a?b'), ['a', ANY, 'b']);
    assert.deepEqual(matchPattern('[abc]x'), [ANY, 'x']);
    assert.deepEqual(matchPattern('[^a]'), [ANY]);
    assert.deepEqual(matchPattern('[\\]x]y'), [ANY, 'y']);
    assert.deepEqual(matchPattern('[ab'), [ANY]);
    assert.deepEqual(matchPattern('[]a'), [ANY, 'a']);
    assert.deepEqual(matchPattern('a][b]c'), ['a', ']', ANY, 'c']);
    assert.deepEqual(matchPattern('\\\\[b]c'), ['\\', ANY, 'c']);
    assert.deepEqual(matchPattern('\\*x'), ['*', 'x']);
    assert.deepEqual(matchPattern('\\[a]'), ['[', 'a', ']']);
    assert.deepEqual(matchPattern('a\\'), ['a', '\\']);
    assert.deepEqual(matchPattern(''), []);
  });

  it('hasLiteral: a glob of placeholders alone has none', () => {
    assert.equal(hasLiteral([STAR]), false);
    assert.equal(hasLiteral([]), false);
    assert.equal(hasLiteral([ANY, STAR]), false);
    assert.equal(hasLiteral(['a', STAR]), true);
  });

  it('covers: the own prefix covers its own cleanup and keys, not wider ones', () => {
    const own = keyGlob(['bench:', key]);
    assert.equal(covers(own, matchPattern('bench:*')), true);
    assert.equal(covers(own, matchPattern('bench:1*')), true);
    assert.equal(covers(own, matchPattern('bench:?')), true);
    assert.equal(covers(own, matchPattern('bench:[ab]')), true);
    assert.equal(covers(own, keyGlob(['bench:', key])), true);
    assert.equal(covers(own, keyGlob(['bench:x'])), true);
    assert.equal(covers(own, matchPattern('bench:')), true);
    assert.equal(covers(own, matchPattern('*')), false);
    assert.equal(covers(own, matchPattern('user:*')), false);
    assert.equal(covers(own, matchPattern('bench*')), false);
    assert.equal(covers(own, matchPattern('?ench:*')), false);
    assert.equal(covers(own, matchPattern('bench')), false);
    assert.equal(covers(own, matchPattern('*bench:*')), false);
  });

  it('covers: exact keys, ANY in the outer glob, stars inside', () => {
    assert.equal(covers([...'counter'], [...'counter']), true);
    assert.equal(covers([...'counter'], [...'counte']), false);
    assert.equal(covers([...'counter'], [...'counters']), false);
    assert.equal(covers([...'counter'], [STAR]), false);
    assert.equal(covers(['a', ANY], ['a', 'b']), true);
    assert.equal(covers(['a', ANY], ['a', ANY]), true);
    assert.equal(covers(['a', ANY], ['a', STAR]), false);
    assert.equal(covers(['a', ANY], ['a']), false);
    assert.equal(covers([ANY, STAR], []), false);
    assert.equal(covers([ANY], []), false);
    assert.equal(covers(['a', STAR], ['a']), true);
    assert.equal(covers([STAR, 'a'], []), false);
    assert.equal(covers([STAR, ':', STAR], [...'x:', STAR]), true);
    assert.equal(covers([STAR, ':', STAR], [...'xy', STAR]), false);
    assert.equal(covers([STAR], []), true);
    assert.equal(covers([], []), true);
    assert.equal(covers([], ['a']), false);
  });

  it('covers takes little time on patterns full of stars', () => {
    const stars = matchPattern('*a'.repeat(300));
    const started = Date.now();
    assert.equal(covers(stars, matchPattern('b'.repeat(300))), false);
    assert.equal(covers(matchPattern('*'), stars), true);
    // Without memoisation this one backtracks through C(60, 20) ways.
    assert.equal(covers(matchPattern('*a'.repeat(20) + 'b'), matchPattern('a'.repeat(60))), false);
    assert.ok(Date.now() - started < 2000);
  });

  it('covers is sound: whenever it says yes, every key the inner glob matches, the outer matches', () => {
    const globText = fc.stringMatching(/^[ab:*?]{0,6}$/);
    fc.assert(
      fc.property(globText, globText, fc.array(fc.stringMatching(/^[ab:]{0,3}$/), { minLength: 1, maxLength: 5 }), (outer, inner, fills) => {
        if (!covers(matchPattern(outer), matchPattern(inner))) return;
        // A key the inner pattern matches: each star a fill, each ? an `a`.
        let i = 0;
        const sample = [...inner].map((c) => (c === '*' ? fills[i++ % fills.length] : c === '?' ? 'a' : c)).join('');
        assert.ok(matches(inner, sample));
        assert.ok(matches(outer, sample), `${outer} should match ${sample} (from ${inner})`);
      }),
      { numRuns: 3000 },
    );
  });

  it('shows a glob as people read it, escaping literal pattern characters', () => {
    assert.equal(showGlob(keyGlob(['bench:', key])), 'bench:*');
    assert.equal(showGlob(matchPattern('a?[xy]')), 'a??');
    assert.equal(showGlob(keyGlob(['a*b?c[d]e\\'])), 'a\\*b\\?c\\[d\\]e\\\\');
    assert.equal(showGlob([]), '');
  });
});
