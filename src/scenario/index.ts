// The `.rbench` language: parse a file into a tree with exact ranges, resolve it into the plan the
// engine runs, and format diagnostics for the command line. No `vscode` here: the CLI, the engine
// tests and the extension share it.
export * from './plan';
export { parseDocument } from './parser';
export { checkText, checkDiagnostics } from './check';
export type {
  ArgToken,
  BlankLine,
  CommandLine,
  CommentLine,
  DocLine,
  ExpectLine,
  HeaderLine,
  Interpolation,
  PhaseLine,
  ScenarioDocument,
  ScenarioNode,
  SettingLine,
  Token,
  UnknownLine,
  VariableLine,
} from './syntax';
export { resolveDocument, type ResolveOptions } from './resolver';
export { formatDiagnostic, DIAGNOSTIC_LIMIT, errorCount, hiddenCount } from './diagnostics';
export {
  SETTINGS,
  SETTING_NAMES,
  settingInfo,
  SWEEP_AXES,
  EXPECT_METRICS,
  COMPARE_OPS,
  PLACEHOLDERS,
  KEY_DISTRIBUTIONS,
  type SettingInfo,
  type SettingKind,
  type SettingScope,
  type ExpectMetricInfo,
  type PlaceholderInfo,
} from './settings';
export { SUITE_TESTS, SUITE_NAMES, selectSuiteTests, type SuiteTest } from './suites';
export { parseCount, parseDuration, parseSize, parseRate, parsePercent, type UnitResult } from './units';
export { splitExpect } from './expect';
export { COMMAND_NAMES, isRedisCommand, isWriteCommand } from './commands';
