// The snippets of snippets/rbench.json as completion items, offered by RBench's own completion where a line
// starts, and nowhere else. Contributed to VS Code as plain snippets they were matched against any word
// typed anywhere: `requests 50k` + Enter inserted the key-size sweep (`k` fuzzily matched
// `rb-sweep-key-size`).
import type { Range } from '../plan';
import SNIPPETS from '../../../snippets/rbench.json';
import type { CompletionItemData } from './types';

interface SnippetEntry {
  prefix: string;
  description: string;
  body: string[];
}

const ENTRIES = Object.entries(SNIPPETS as Record<string, SnippetEntry>);

/** Every snippet, replacing the line's first word at `range`. */
export function snippetItems(range: Range): CompletionItemData[] {
  return ENTRIES.map(([name, entry]) => ({
    label: entry.prefix,
    kind: 'snippet',
    detail: name,
    documentation: entry.description,
    snippet: entry.body.join('\n'),
    range,
    sortText: `2 ${entry.prefix}`,
  }));
}
