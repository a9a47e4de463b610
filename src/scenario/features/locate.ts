// Where a line sits in a parsed document: its scenario, the scope a setting on it is read in, the
// lines read together with it, and the variables it sees. Shared by completion, hover, symbols and
// quick fixes so that they agree with the resolver about structure.
import type { DocLine, PhaseLine, ScenarioDocument, ScenarioNode, VariableLine } from '../syntax';
import type { Range } from '../plan';
import type { SettingScope } from '../settings';

export interface LineContext {
  /** Where a setting written on this line is read. */
  scope: SettingScope;
  /** The scenario holding the line; absent for file-level lines. */
  scenario?: ScenarioNode;
  /** The phase line above it in its scenario, if any. */
  phase?: PhaseLine;
  /**
   * The lines read together with this one (one resolver scope): the file-level lines, a scenario's
   * lines before its first phase, or the lines of one phase (after its phase line).
   */
  section: DocLine[];
}

/**
 * A document without `###` headers is one scenario as soon as it holds a command, so its lines are
 * treated as scenario lines even before the first command is typed: that is what they will be.
 */
export function lineContext(doc: ScenarioDocument, line: number): LineContext {
  const scenario = scenarioAt(doc, line);
  const lines = scenario ? scenario.lines : hasHeaders(doc) ? undefined : doc.lines;
  if (!lines) return { scope: 'file', section: doc.fileLines };
  let phase: PhaseLine | undefined;
  let sectionStart = 0;
  lines.forEach((candidate, index) => {
    if (candidate.kind === 'phase' && candidate.line <= line) {
      phase = candidate;
      sectionStart = index + 1;
    }
  });
  let sectionEnd = lines.findIndex((candidate, index) => index >= sectionStart && candidate.kind === 'phase');
  if (sectionEnd < 0) sectionEnd = lines.length;
  // The phase line itself starts its section but is not read in it.
  const scope: SettingScope = phase && phase.line !== line ? 'phase' : 'scenario';
  const context: LineContext = { scope, section: lines.slice(sectionStart, sectionEnd) };
  if (scenario) context.scenario = scenario;
  if (phase) context.phase = phase;
  return context;
}

function hasHeaders(doc: ScenarioDocument): boolean {
  return doc.scenarios.some((scenario) => scenario.header !== undefined);
}

export function scenarioAt(doc: ScenarioDocument, line: number): ScenarioNode | undefined {
  return doc.scenarios.find((scenario) => scenario.range.start.line <= line && line <= scenario.range.end.line);
}

/**
 * The `@name = value` definitions visible on a line, as the resolver sees them: file-level ones,
 * overridden by the scenario's own (wherever in the scenario they are written); the last one wins.
 */
export function visibleVariables(doc: ScenarioDocument, line: number): Map<string, VariableLine> {
  const definitions = new Map<string, VariableLine>();
  const scenario = scenarioAt(doc, line);
  for (const lines of [doc.fileLines, scenario?.lines ?? []])
    for (const candidate of lines) if (candidate.kind === 'variable') definitions.set(candidate.name.text, candidate);
  return definitions;
}

/** The last line of `lines` that is not blank, or undefined when all are blank. */
function lastContentLine(lines: readonly DocLine[]): DocLine | undefined {
  for (let index = lines.length - 1; index >= 0; index--) if (lines[index].kind !== 'blank') return lines[index];
  return undefined;
}

/**
 * A block that starts at `head` (a header or phase line) and holds `lines`: to the end of its last
 * non-blank line, so that blank lines before the next block are not part of it.
 */
export function blockRange(head: Range, lines: readonly DocLine[]): Range {
  const last = lastContentLine(lines);
  return { start: head.start, end: last && last.line > head.start.line ? last.range.end : head.end };
}

export interface PhaseBlock {
  line: PhaseLine;
  /** The lines after the phase line, up to the next phase line or the end of the scenario. */
  lines: DocLine[];
}

export function phaseBlocks(scenario: ScenarioNode): PhaseBlock[] {
  const blocks: PhaseBlock[] = [];
  for (const line of scenario.lines) {
    if (line.kind === 'phase') blocks.push({ line, lines: [] });
    else blocks[blocks.length - 1]?.lines.push(line);
  }
  return blocks;
}

/**
 * Names that usually hold credentials: their values are masked in hovers and completions. A plain
 * `key` is not one (`@key = {{prefix}}:__key__` is a key pattern), an `API_KEY` or `accessKey` is.
 */
const SECRET_NAME = /pass(?:word|wd)?|pwd|secret|token|credential|auth|(?:api|access|private|secret|signing|encryption|master|client)[-_.]?key/i;

export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}

export const MASK = '••••••';
