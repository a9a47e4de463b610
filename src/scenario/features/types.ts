// The plain data the editor features return. The extension maps them one-to-one onto VS Code's types
// (src/editor/language.ts); tests read them directly. Positions are 0-based, as in plan.ts.
import type { CommandTableData } from '../commandTable';
import type { Diagnostic, Range } from '../plan';

export type { Position, Range } from '../plan';

export type CompletionKind =
  'setting' | 'command' | 'value' | 'placeholder' | 'variable' | 'env' | 'metric' | 'operator' | 'profile' | 'suite-test' | 'label' | 'snippet';

export interface CompletionItemData {
  label: string;
  kind: CompletionKind;
  /** One line shown next to the label, e.g. a setting's value syntax. */
  detail?: string;
  /** Markdown. */
  documentation?: string;
  /** Text to insert; the label when absent. Plain text, never snippet syntax. */
  insertText?: string;
  /** Kind `snippet` only: VS Code snippet syntax (tabstops `${1:default}`) to insert instead. */
  snippet?: string;
  /** The text the item replaces; the editor filters on the part before the cursor. */
  range: Range;
  /** Orders items in the list (the editor sorts by it, then by label). */
  sortText?: string;
  /** Ask for completions again after inserting (`env:` → environment variable names). */
  retrigger?: boolean;
}

export interface CompletionOptions {
  /** Connection profile names from the editor settings, for `target`. */
  profiles?: readonly string[];
  /** Environment for `${env:…}` and `password env:…` names; their values are never shown. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The selected target's command table (the editor's cache): its commands are offered; the built-in table's when absent. */
  commandTable?: CommandTableData;
}

export interface HoverData {
  /** Markdown. */
  contents: string;
  range: Range;
}

export type SymbolKind = 'scenario' | 'phase' | 'prefill' | 'sweep' | 'variable' | 'group' | 'load';

export interface SymbolData {
  name: string;
  detail: string;
  kind: SymbolKind;
  /** The whole construct (a scenario: header to its last non-blank line). */
  range: Range;
  /** The part to reveal and highlight, e.g. the scenario's name; inside `range`. */
  selectionRange: Range;
  children: SymbolData[];
}

export interface FoldingRangeData {
  /** 0-based first and last line. */
  start: number;
  end: number;
  kind?: 'comment' | 'region';
}

export interface TextEdit {
  range: Range;
  newText: string;
}

export interface CodeActionData {
  title: string;
  /** The diagnostic the action fixes, as the resolver reported it (match by code and range). */
  diagnostic: Diagnostic;
  edits: TextEdit[];
  /** The one obvious fix, applied by "Auto Fix". */
  preferred: boolean;
}
