// Captured against reproduced: the same figures read from both captures (command ratios, value-size and
// key-size quartiles, rate, the key skew), each with its difference, and the largest one. Ratios differ in
// points, the rest in percent of the captured figure.
import { sizeQuantiles } from './fit';
import type { CaptureResult } from './types';
import type { Workload } from './workload';
import { groupDigits } from '../scenario/numberText';

export interface FidelityRow {
  metric: string;
  captured: number;
  reproduced: number;
  unit: 'share' | 'bytes' | 'per-second' | 'exponent';
  /** Points for shares, percent of the captured figure for the others. */
  difference: number;
}

export interface Fidelity {
  rows: FidelityRow[];
  largest?: FidelityRow;
}

/** Shares of the reproducible commands, by command name (the workload's lines, summed and renormalised). */
export function commandShares(workload: Workload): Map<string, number> {
  const total = workload.lines.reduce((sum, line) => sum + line.share, 0);
  const shares = new Map<string, number>();
  for (const line of workload.lines) shares.set(line.command, (shares.get(line.command) ?? 0) + line.share / (total || 1));
  return shares;
}

const relative = (captured: number, reproduced: number) => (captured === 0 ? (reproduced === 0 ? 0 : 100) : (Math.abs(reproduced - captured) / captured) * 100);

export function compareCaptures(
  captured: { capture: CaptureResult; workload: Workload },
  reproduced: { capture: CaptureResult; workload: Workload },
): Fidelity {
  const rows: FidelityRow[] = [];
  const before = commandShares(captured.workload);
  const after = commandShares(reproduced.workload);
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(name) ?? 0;
    const b = after.get(name) ?? 0;
    rows.push({ metric: `${name} share`, captured: a, reproduced: b, unit: 'share', difference: Math.abs(b - a) * 100 });
  }
  const sizes = (label: string, a: readonly number[], b: readonly number[]) => {
    if (a.length === 0 || b.length === 0) return;
    const qa = sizeQuantiles(a);
    const qb = sizeQuantiles(b);
    ['p25', 'p50', 'p75'].forEach((p, i) =>
      rows.push({ metric: `${label} ${p}`, captured: qa[i], reproduced: qb[i], unit: 'bytes', difference: relative(qa[i], qb[i]) }),
    );
  };
  sizes('value size', captured.capture.traffic?.valueSizes.values ?? [], reproduced.capture.traffic?.valueSizes.values ?? []);
  sizes('key size', captured.capture.traffic?.keySizes.values ?? [], reproduced.capture.traffic?.keySizes.values ?? []);
  const rateA = captured.workload.ratePerSec;
  const rateB = reproduced.workload.ratePerSec;
  if (rateA !== undefined && rateB !== undefined)
    rows.push({ metric: 'rate', captured: rateA, reproduced: rateB, unit: 'per-second', difference: relative(rateA, rateB) });
  const fitA = captured.workload.keyFit;
  const fitB = reproduced.workload.keyFit;
  if (fitA.kind === 'zipf' || fitB.kind === 'zipf') {
    const a = fitA.kind === 'zipf' ? fitA.exponent : 0;
    const b = fitB.kind === 'zipf' ? fitB.exponent : 0;
    rows.push({ metric: 'zipf exponent', captured: a, reproduced: b, unit: 'exponent', difference: relative(a, b) });
  }
  const largest = rows.reduce<FidelityRow | undefined>((worst, row) => (!worst || row.difference > worst.difference ? row : worst), undefined);
  return { rows, largest };
}

function figure(row: FidelityRow, value: number): string {
  switch (row.unit) {
    case 'share':
      return `${(value * 100).toFixed(1)}%`;
    case 'bytes':
      return `${Math.round(value)} B`;
    case 'per-second':
      return `${groupDigits(Math.round(value))}/s`;
    case 'exponent':
      return value.toFixed(2);
  }
}

function differenceText(row: FidelityRow): string {
  return row.unit === 'share' ? `${row.difference.toFixed(1)} points` : `${row.difference.toFixed(1)}%`;
}

/** The comparison as a text table, then the largest difference. */
export function fidelityText(fidelity: Fidelity): string {
  const table = [
    ['', 'captured', 'reproduced', 'difference'],
    ...fidelity.rows.map((row) => [row.metric, figure(row, row.captured), figure(row, row.reproduced), differenceText(row)]),
  ];
  const widths = table[0].map((_, column) => Math.max(...table.map((row) => row[column].length)));
  const lines = table.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  '));
  if (fidelity.largest)
    lines.push(
      `Largest difference: ${fidelity.largest.metric}, ${figure(fidelity.largest, fidelity.largest.captured)} captured against ${figure(fidelity.largest, fidelity.largest.reproduced)} reproduced (${differenceText(fidelity.largest)})`,
    );
  return lines.join('\n');
}
