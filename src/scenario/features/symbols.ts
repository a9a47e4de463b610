// The outline of a `.rbench` file: scenarios with their variables, sweeps and phases in source order;
// file-level variables at the top.
import type { DocLine, ScenarioNode, VariableLine } from '../parser';
import { blockRange, looksSecret, MASK, phaseBlocks } from './locate';
import { documentOutline } from './outline';
import type { SymbolData } from './types';

export function documentSymbols(text: string): SymbolData[] {
  return documentOutline(text).symbols;
}

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
