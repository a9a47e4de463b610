// The outline of a `.rbench` file: scenarios with their variables, sweeps and phases in source order;
// file-level variables at the top. outline.ts builds the document's symbols from these as the parser goes.
import { groupBlocks } from '../groups';
import { isLoadLine } from '../clientGroups';
import type { DocLine, ScenarioNode, SettingLine, VariableLine } from '../syntax';
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
  // A client group in a phase is the phase's child; one before any phase, the scenario's.
  const within = (outer: SymbolData, inner: SymbolData) => outer.range.start.line < inner.range.start.line && outer.range.end.line >= inner.range.end.line;
  for (const load of loadSymbols(node.lines))
    (children.find((child) => (child.kind === 'phase' || child.kind === 'prefill') && within(child, load))?.children ?? children).push(load);
  // A command group is the child of its client group, else of its phase; one before any phase, the scenario's.
  for (const group of groupSymbols(node.lines)) {
    const phase = children.find((child) => (child.kind === 'phase' || child.kind === 'prefill') && within(child, group));
    const scope = phase?.children ?? children;
    (scope.find((child) => child.kind === 'load' && within(child, group))?.children ?? scope).push(group);
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

/** `load NAME [background]` client groups: from the `load` line to the last line before the next `load` or phase line. */
function loadSymbols(lines: readonly DocLine[]): SymbolData[] {
  const symbols: SymbolData[] = [];
  let open: { line: SettingLine; lines: DocLine[] } | undefined;
  const close = () => {
    if (!open) return;
    const { line } = open;
    const background = line.args[1]?.value === 'background';
    symbols.push({
      name: line.args[0]?.value || 'load',
      detail: background ? 'client group (background)' : 'client group',
      kind: 'load',
      range: blockRange(line.range, open.lines),
      selectionRange: (line.args[0] ?? line.keyword).range,
      children: [],
    });
    open = undefined;
  };
  for (const line of lines) {
    if (isLoadLine(line)) {
      close();
      open = { line, lines: [] };
    } else if (line.kind === 'phase') close();
    else open?.lines.push(line);
  }
  close();
  return symbols;
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
