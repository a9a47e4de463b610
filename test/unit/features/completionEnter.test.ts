// Enter ends the line (issue 22, item 2): a user who pauses after a fully typed word and presses Enter must
// get a new line, never a completion. VS Code accepts the selected suggestion on Enter; with
// `editor.acceptSuggestionOnEnter: "smart"` (set for the language) it does so only when accepting changes the
// text. So wherever completion offers items matching a complete word, one of them must be that word exactly,
// inserting nothing more (no trailing space), and word-based suggestions must be off for the language.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { completions, type CompletionItemData } from '../../../src/scenario/features';

const ROOT = path.resolve(__dirname, '../../../..');

/** VS Code's filter, roughly: the typed word's first character starts the label, the rest follow in order. */
function matches(label: string, typed: string): boolean {
  const a = label.toLowerCase();
  const b = typed.toLowerCase();
  if (!b || a[0] !== b[0]) return false;
  let at = 0;
  for (const char of b) {
    at = a.indexOf(char, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

/** The text an item puts over its range. */
const inserted = (item: CompletionItemData) => item.insertText ?? item.label;

interface Pause {
  where: string;
  typed: string;
  items: CompletionItemData[];
}

/** Every place in `text` where a word of a non-comment line has just been typed in full. */
function pauses(text: string, name: string): Pause[] {
  const lines = text.split('\n');
  const found: Pause[] = [];
  lines.forEach((line, index) => {
    if (/^\s*#/.test(line)) return;
    for (const word of line.matchAll(/\S+/g)) {
      const end = word.index! + word[0].length;
      // The document as it is while the user types: this line up to the cursor, nothing after it.
      const typing = [...lines.slice(0, index), line.slice(0, end)].join('\n');
      const items = completions(typing, { line: index, character: end });
      const typed = items.length ? typing.split('\n')[index].slice(items[0].range.start.character, end) : '';
      found.push({ where: `${name}:${index + 1} after "${line.slice(0, end)}"`, typed, items });
    }
  });
  return found;
}

function scenarioTexts(): [string, string][] {
  const folder = path.join(ROOT, 'examples');
  const files = readdirSync(folder).filter((file) => file.endsWith('.rbench'));
  assert.ok(files.length >= 3, `examples in ${folder}`);
  return [
    ...files.map((file): [string, string] => [file, readFileSync(path.join(folder, file), 'utf8')]),
    ['typed', '### one\nrequests 50k\nclients 10\nGET bench:__key__\nSET bench:__key__ __value__\nkeys 100k uniform\nsweep pipeline 1, 10\nexpect p99 < 2ms\n'],
  ];
}

describe('completion never takes the Enter that ends a line', () => {
  it('offers the fully typed word itself, inserting nothing more, wherever it offers a matching item', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const [name, text] of scenarioTexts()) {
      for (const pause of pauses(text, name)) {
        const matching = pause.items.filter((item) => matches(item.label, pause.typed));
        if (matching.length === 0) continue;
        checked++;
        const exact = matching.find((item) => item.label === pause.typed);
        if (!exact) problems.push(`${pause.where}: Enter would accept "${matching[0].label}"`);
        else if (inserted(exact) !== pause.typed) problems.push(`${pause.where}: accepting "${exact.label}" inserts ${JSON.stringify(inserted(exact))}`);
      }
    }
    assert.ok(checked > 20, `too few pauses with items (${checked}): the test would not see a regression`);
    assert.deepEqual(problems, []);
  });

  it('offers nothing after a number with a unit such as `requests 50k` (so no word completes it to `50keys`)', () => {
    const text = '### one\nkeys 100k uniform\nrequests 50k';
    assert.deepEqual(completions(text, { line: 2, character: 12 }), []);
  });

  it('offers the snippets where a line starts, and only there (a contributed snippet matched any word: `50k` became a sweep)', () => {
    const atLineStart = completions('### one\nrb-sw', { line: 1, character: 5 }).filter((item) => item.kind === 'snippet');
    assert.ok(atLineStart.some((item) => item.label === 'rb-sweep-key-size' && item.snippet?.includes('sweep key-size')));
    for (const [text, character] of [
      ['### one\nrequests 5k', 11],
      ['### one\nGET k', 5],
      ['### one\nkeys 100k uniform', 17],
    ] as const) {
      assert.deepEqual(
        completions(text, { line: 1, character }).filter((item) => item.kind === 'snippet'),
        [],
        text,
      );
    }
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    assert.equal(manifest.contributes.snippets, undefined, 'snippets come from the completion provider, not contributes.snippets');
  });

  it('turns word-based suggestions off and Enter to "smart" for .rbench files', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const defaults = manifest.contributes.configurationDefaults?.['[rbench]'] ?? {};
    assert.equal(defaults['editor.wordBasedSuggestions'], 'off');
    assert.equal(defaults['editor.acceptSuggestionOnEnter'], 'smart');
    assert.equal(defaults['editor.suggest.showWords'], false);
  });
});
