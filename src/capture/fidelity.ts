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
  /**
   * The replay's calls per second by command from its own counters (the run file): the command shares and the rate
   * of the whole replay, whose key groups run one phase after another, where MONITOR saw only the first phase.
   */
  replayRates?: ReadonlyMap<string, number>,
): Fidelity {
  const rows: FidelityRow[] = [];
  const before = commandShares(captured.workload);
  const replayed = replayRates && [...before.keys()].some((name) => (replayRates.get(name) ?? 0) > 0) ? replayRates : undefined;
  const replayedTotal = replayed ? [...before.keys()].reduce((sum, name) => sum + (replayed.get(name) ?? 0), 0) : 0;
  const after = replayed ? new Map([...before.keys()].map((name) => [name, (replayed.get(name) ?? 0) / replayedTotal])) : commandShares(reproduced.workload);
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
  const rateB = replayed ? replayedTotal : reproduced.workload.ratePerSec;
  if (rateA !== undefined && rateB !== undefined)
    rows.push({ metric: 'rate', captured: rateA, reproduced: rateB, unit: 'per-second', difference: relative(rateA, rateB) });
  const fitA = captured.workload.keyFit;
  const fitB = reproduced.workload.keyFit;
  // A replay read without MONITOR has no key hits to fit: no row, rather than a skew of 0.
  if ((fitA.kind === 'zipf' || fitB.kind === 'zipf') && reproduced.capture.traffic) {
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

/**
 * The figures `--verify` holds the replay to, read where MONITOR cannot bias them: calls per second by command
 * (`GET`, `CONFIG GET`) and distinct keys by written key pattern (`stats:__key__`).
 */
export interface CounterReading {
  rates: Map<string, number>;
  keys: Map<string, number>;
}

export interface CounterRow {
  kind: 'rate' | 'keys';
  /** The command, or the key pattern. */
  name: string;
  source: number;
  replay: number;
  /** |replay - source| / source, 0…; 1 when the source has none and the replay some. */
  difference: number;
  passed: boolean;
}

export interface CounterComparison {
  rows: CounterRow[];
  passed: boolean;
  tolerance: number;
}

/** The largest difference `--verify` lets pass between the source's counters and the replay's. */
export const COUNTER_TOLERANCE = 0.05;

/** Each of the source's figures against the replay's (a figure the replay lacks counts as 0): a row each, failed past `tolerance`. */
export function compareCounters(source: CounterReading, replay: CounterReading, tolerance = COUNTER_TOLERANCE): CounterComparison {
  const rows: CounterRow[] = [];
  const add = (kind: CounterRow['kind'], from: Map<string, number>, to: Map<string, number>) => {
    for (const [name, a] of from) {
      const b = to.get(name) ?? 0;
      const difference = a === 0 ? (b === 0 ? 0 : 1) : Math.abs(b - a) / a;
      // Rounded as printed, so a line never says "5.0% off, more than 5%".
      rows.push({ kind, name, source: a, replay: b, difference, passed: Math.round(difference * 1000) <= Math.round(tolerance * 1000) });
    }
  };
  add('rate', source.rates, replay.rates);
  add('keys', source.keys, replay.keys);
  return { rows, passed: rows.every((row) => row.passed), tolerance };
}

/** A plain line per mismatch, in the order compared (rates, then keys); none when the comparison passed. */
export function counterMismatchText(comparison: CounterComparison): string[] {
  const limit = `${Math.round(comparison.tolerance * 100)}%`;
  return comparison.rows
    .filter((row) => !row.passed)
    .map((row) => {
      const figure = (n: number) => (row.kind === 'rate' ? `${groupDigits(Math.round(n))}/s` : groupDigits(Math.round(n)));
      return `${row.kind === 'keys' ? `keys ${row.name}` : row.name}: ${figure(row.source)} in the source, ${figure(row.replay)} replayed (${(row.difference * 100).toFixed(1)}% off, more than ${limit})`;
    });
}

/** The comparison as a table: each figure, the source's, the replay's and the difference. */
export function counterText(comparison: CounterComparison): string {
  const table = [
    ['', 'source', 'replayed', 'difference'],
    ...comparison.rows.map((row) => {
      const figure = (n: number) => (row.kind === 'rate' ? `${groupDigits(Math.round(n))}/s` : groupDigits(Math.round(n)));
      return [row.kind === 'keys' ? `keys ${row.name}` : `${row.name} rate`, figure(row.source), figure(row.replay), `${(row.difference * 100).toFixed(1)}%`];
    }),
  ];
  const widths = table[0].map((_, column) => Math.max(...table.map((row) => row[column].length)));
  return table.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ')).join('\n');
}
