// The outline of a `.rbench` file: scenarios with their variables, sweeps and phases in source order;
// file-level variables at the top. outline.ts builds the document's symbols from these as the parser goes.
import { groupBlocks } from '../groups';
import type { DocLine, ScenarioNode, VariableLine } from '../syntax';
import { blockRange, looksSecret, MASK, phaseBlocks } from './locate';
import type { SymbolData } from './types';

export function variableSymbols(lines: readonly DocLine[]): SymbolData[] {
  return lines
    .filter((line): line is VariableLine => line.kind === 'variable')
    .map((line) => ({
      name: `@${line.name.text}`,
      detail: looksSecret(line.name.text) ? MASK : line.value.text,
      kind: 'variable',
      range: line.range,
      selectionRange: line.name.range,
      children: [],
    }));
}

export function scenarioSymbol(node: ScenarioNode): SymbolData {
  const children: SymbolData[] = [...variableSymbols(node.lines)];
  const sweeps: string[] = [];
  const phases = phaseBlocks(node);
  for (const line of node.lines) {
    if (line.kind !== 'setting' || line.setting.kind !== 'sweep') continue;
    const axis = line.args[0]?.value ?? '';
    if (axis) sweeps.push(axis);
    const text = line.text.slice(line.contentStart, line.contentEnd);
    children.push({ name: text, detail: '', kind: 'sweep', range: line.range, selectionRange: line.keyword.range, children: [] });
  }
  for (const { line, lines } of phases) {
    const name = line.name?.text ?? 'prefill';
    children.push({
      name,
      detail: line.measured ? 'phase' : 'prefill (not measured)',
      kind: line.measured ? 'phase' : 'prefill',
      range: blockRange(line.range, lines),
      selectionRange: line.name?.range ?? line.keyword.range,
      children: [],
    });
  }
  // A group in a phase is the phase's child; one before any phase, the scenario's.
  for (const group of groupSymbols(node.lines)) {
    const phase = children.find(
      (child) =>
        (child.kind === 'phase' || child.kind === 'prefill') && child.range.start.line < group.range.start.line && child.range.end.line >= group.range.end.line,
    );
    (phase?.children ?? children).push(group);
  }
  children.sort((a, b) => a.range.start.line - b.range.start.line);
  return {
    name: node.name,
    detail: sweeps.length > 0 ? `sweep ${sweeps.join(' × ')}` : '',
    kind: 'scenario',
    range: blockRange(node.headerRange, node.lines),
    selectionRange: node.nameRange,
    children,
  };
}

/** `group NAME` … `end` blocks: one symbol each, named as results name the unit. */
function groupSymbols(lines: readonly DocLine[]): SymbolData[] {
  return groupBlocks(lines).map(({ line, end, commands }) => ({
    name: line.args[0]?.value || commands.join('+') || 'group',
    detail: `${commands.includes('MULTI') ? 'transaction' : 'group'} of ${commands.length} command${commands.length === 1 ? '' : 's'}`,
    kind: 'group',
    range: { start: line.range.start, end: end.range.end },
    selectionRange: line.keyword.range,
    children: [],
  }));
}
