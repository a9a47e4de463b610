// Language features for `.rbench` documents: thin adapters from the pure functions in
// src/scenario/features to VS Code's providers. All the logic (and its tests) lives there.
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import {
  codeActions,
  completions,
  formattingEdits,
  hover,
  type CompletionItemData,
  type CompletionKind,
  type SymbolData,
  type SymbolKind,
} from '../scenario/features';
import type { Range } from '../scenario/plan';
import { documentCodeAction, documentRange, scenarioWindow, type TextWindow } from '../scenario/features/window';
import { toVscodeRange } from './diagnostics';
import { documentChecks, INLINE_CHECK_MAX_CHARS } from './documentChecks';
import { plainText } from './plainText';
import { readSettings } from './settings';
import { selectedCommandTable } from './commandTables';

export interface LanguageFeatureDeps {
  /** Connection profile names offered after `target`; by default those of `rbench.profiles` for the document. */
  profileNames?: (document: vscode.Uri) => readonly string[];
  /** The environment `${env:…}` reads; the extension host's by default (as for diagnostics). */
  env?: () => Readonly<Record<string, string | undefined>>;
}

const SELECTOR: vscode.DocumentSelector = { language: 'rbench' };

/** Characters after which completion opens by itself: a new word, `__`, `{{`, `env:`, a list, a weight. */
export const COMPLETION_TRIGGERS = [' ', '_', '{', ':', ',', '%'];

const COMPLETION_KINDS: Record<CompletionKind, vscode.CompletionItemKind> = {
  setting: vscode.CompletionItemKind.Property,
  command: vscode.CompletionItemKind.Function,
  value: vscode.CompletionItemKind.Value,
  placeholder: vscode.CompletionItemKind.Constant,
  variable: vscode.CompletionItemKind.Variable,
  env: vscode.CompletionItemKind.Variable,
  metric: vscode.CompletionItemKind.Field,
  operator: vscode.CompletionItemKind.Operator,
  profile: vscode.CompletionItemKind.Reference,
  'suite-test': vscode.CompletionItemKind.EnumMember,
  label: vscode.CompletionItemKind.Reference,
  snippet: vscode.CompletionItemKind.Snippet,
};

const SYMBOL_KINDS: Record<SymbolKind, vscode.SymbolKind> = {
  scenario: vscode.SymbolKind.Module,
  phase: vscode.SymbolKind.Function,
  prefill: vscode.SymbolKind.Function,
  sweep: vscode.SymbolKind.Array,
  variable: vscode.SymbolKind.Variable,
  group: vscode.SymbolKind.Struct,
  load: vscode.SymbolKind.Class,
};

function toCompletionItem(data: CompletionItemData): vscode.CompletionItem {
  const item = new vscode.CompletionItem(data.label, COMPLETION_KINDS[data.kind]);
  item.range = toVscodeRange(data.range);
  if (data.detail) item.detail = data.detail;
  if (data.documentation) item.documentation = new vscode.MarkdownString(data.documentation);
  if (data.insertText !== undefined) item.insertText = data.insertText;
  if (data.snippet !== undefined) item.insertText = new vscode.SnippetString(data.snippet);
  if (data.sortText) item.sortText = data.sortText;
  if (data.retrigger) item.command = { command: 'editor.action.triggerSuggest', title: 'Suggest' };
  return item;
}

function toDocumentSymbol(data: SymbolData): vscode.DocumentSymbol {
  // VS Code rejects a symbol with an empty name.
  const symbol = new vscode.DocumentSymbol(
    data.name || '(unnamed)',
    data.detail,
    SYMBOL_KINDS[data.kind],
    toVscodeRange(data.range),
    toVscodeRange(data.selectionRange),
  );
  symbol.children = data.children.map(toDocumentSymbol);
  return symbol;
}

/** The text of each open document's current version: getText() on a large document costs a copy each time. */
const texts = new WeakMap<vscode.TextDocument, { version: number; text: string }>();

function textOf(document: vscode.TextDocument): string {
  const known = texts.get(document);
  if (known?.version === document.version) return known.text;
  const text = document.getText();
  texts.set(document, { version: document.version, text });
  return text;
}

/**
 * The text a feature at `line` reads: the whole document, or for a large one the window of its
 * file-level lines and the scenario at `line`, with the window's line of `line` and a map back.
 */
function textAround(document: vscode.TextDocument, line: number): { text: string; line: number; toDocument: (range: Range) => Range } {
  const text = textOf(document);
  if (text.length <= INLINE_CHECK_MAX_CHARS) return { text, line, toDocument: (range) => range };
  const window: TextWindow = scenarioWindow(text, line);
  return { text: window.text, line: window.toWindow(line) ?? 0, toDocument: (range) => documentRange(range, window) };
}

function baseDirOf(document: vscode.TextDocument): string | undefined {
  return document.uri.scheme === 'file' ? dirname(document.uri.fsPath) : undefined;
}

function codeOf(diagnostic: vscode.Diagnostic): string | number | undefined {
  return typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
}

export function registerLanguageFeatures(context: vscode.ExtensionContext, deps: LanguageFeatureDeps = {}): void {
  const env = deps.env ?? (() => process.env);
  const profileNames = deps.profileNames ?? ((document: vscode.Uri) => Object.keys(readSettings(document).profiles));

  const completionProvider: vscode.CompletionItemProvider = {
    provideCompletionItems(document, position) {
      const around = textAround(document, position.line);
      const items = completions(
        around.text,
        { line: around.line, character: position.character },
        { env: env(), profiles: profileNames(document.uri), commandTable: selectedCommandTable() },
      );
      return items.map((item) => toCompletionItem({ ...item, range: around.toDocument(item.range) }));
    },
  };

  const hoverProvider: vscode.HoverProvider = {
    provideHover(document, position) {
      const around = textAround(document, position.line);
      const data = hover(around.text, { line: around.line, character: position.character }, { env: env(), commandTable: selectedCommandTable() });
      return data && new vscode.Hover(new vscode.MarkdownString(data.contents), toVscodeRange(around.toDocument(data.range)));
    },
  };

  // Outline and folding come with the document's check (off this thread for a large file).
  const symbolProvider: vscode.DocumentSymbolProvider = {
    async provideDocumentSymbols(document) {
      return (await documentChecks().outline(document)).symbols.map(toDocumentSymbol);
    },
  };

  const foldingProvider: vscode.FoldingRangeProvider = {
    async provideFoldingRanges(document) {
      return (await documentChecks().outline(document)).folding.map(
        (range) => new vscode.FoldingRange(range.start, range.end, range.kind === 'comment' ? vscode.FoldingRangeKind.Comment : undefined),
      );
    },
  };

  const formattingProvider: vscode.DocumentFormattingEditProvider = {
    provideDocumentFormattingEdits(document) {
      return formattingEdits(document.getText()).map((edit) => vscode.TextEdit.replace(toVscodeRange(edit.range), edit.newText));
    },
  };

  const codeActionProvider: vscode.CodeActionProvider = {
    provideCodeActions(document, range, actionContext) {
      if (actionContext.only && !actionContext.only.contains(vscode.CodeActionKind.QuickFix)) return [];
      const around = textAround(document, range.start.line);
      const lines = range.end.line - range.start.line;
      const asked = { start: { line: around.line, character: range.start.character }, end: { line: around.line + lines, character: range.end.character } };
      const actions = codeActions(around.text, asked, { env: env(), baseDir: baseDirOf(document) }).map((data) => documentCodeAction(data, around.toDocument));
      return actions.map((data) => {
        const action = new vscode.CodeAction(plainText(data.title), vscode.CodeActionKind.QuickFix);
        const edit = new vscode.WorkspaceEdit();
        for (const change of data.edits) edit.replace(document.uri, toVscodeRange(change.range), change.newText);
        action.edit = edit;
        action.isPreferred = data.preferred;
        // Tie the action to the diagnostic the editor shows (same code and range), for the lightbulb.
        const shown = actionContext.diagnostics.find(
          (diagnostic) => codeOf(diagnostic) === data.diagnostic.code && diagnostic.range.isEqual(toVscodeRange(data.diagnostic.range)),
        );
        if (shown) action.diagnostics = [shown];
        return action;
      });
    },
  };

  context.subscriptions.push(
    vscode.languages.registerCompletionItemProvider(SELECTOR, completionProvider, ...COMPLETION_TRIGGERS),
    vscode.languages.registerHoverProvider(SELECTOR, hoverProvider),
    vscode.languages.registerDocumentSymbolProvider(SELECTOR, symbolProvider, { label: 'RBench' }),
    vscode.languages.registerFoldingRangeProvider(SELECTOR, foldingProvider),
    vscode.languages.registerDocumentFormattingEditProvider(SELECTOR, formattingProvider),
    vscode.languages.registerCodeActionsProvider(SELECTOR, codeActionProvider, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
  );
}
