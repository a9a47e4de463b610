// Editor features for `.rbench` files as pure functions of the text: completion, hover, outline,
// folding, formatting and quick fixes. No `vscode` here: src/editor/language.ts adapts them, and the
// unit tests call them directly.
export * from './types';
export { completions } from './completion';
export { hover, type HoverOptions } from './hover';
export { documentSymbols } from './symbols';
export { foldingRanges } from './folding';
export { checkWithOutline, documentOutline, type CheckedDocument, type DocumentOutline, type ScenarioOutline } from './outline';
export { formatText, formattingEdits } from './formatting';
export { codeActions, REDIS_PASSWORD_ENV, type QuickFixOptions } from './quickFixes';
export { commandInfo, commandHint, type CommandInfo } from './commandInfo';
export { looksSecret, MASK } from './locate';
