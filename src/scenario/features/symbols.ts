// Document symbols: the file-level variables, then each scenario with its variables, sweeps, phases and
// groups (built with the outline, in outline.ts, from symbolTree.ts).
import { documentOutline } from './outline';
import type { SymbolData } from './types';

export function documentSymbols(text: string): SymbolData[] {
  return documentOutline(text).symbols;
}
