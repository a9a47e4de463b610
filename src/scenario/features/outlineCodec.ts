// A compact form of a document outline for the trip from the check worker to the extension host:
// numbers in one transferable Int32Array and strings in one array, instead of millions of small
// objects (structured cloning 100k scenarios' symbols took seconds). Decoded part by part, when a
// feature asks for it.
import type { Range } from '../plan';
import type { DocumentOutline, ScenarioOutline } from './outline';
import type { FoldingRangeData, SymbolData, SymbolKind } from './types';
import { Int32List } from '../int32List';

export interface EncodedOutline {
  /** Scenarios, then folding ranges, then symbols (pre-order), as described by `counts`. */
  ints: Int32Array;
  strings: string[];
  counts: { scenarios: number; folding: number; symbols: number };
}

const SYMBOL_KINDS: readonly SymbolKind[] = ['scenario', 'phase', 'prefill', 'sweep', 'variable', 'group', 'load'];

class IntWriter extends Int32List {
  constructor() {
    super(1024);
  }

  range(range: Range): void {
    this.push(range.start.line);
    this.push(range.start.character);
    this.push(range.end.line);
    this.push(range.end.character);
  }
}

export function encodeOutline(outline: DocumentOutline): EncodedOutline {
  const ints = new IntWriter();
  const strings: string[] = [];
  for (const scenario of outline.scenarios) {
    strings.push(scenario.name);
    ints.push(scenario.index);
    ints.range(scenario.headerRange);
    ints.range(scenario.range);
  }
  for (const fold of outline.folding) {
    ints.push(fold.start);
    ints.push(fold.end);
    ints.push(fold.kind === 'comment' ? 1 : 0);
  }
  let symbols = 0;
  const symbol = (data: SymbolData) => {
    symbols++;
    strings.push(data.name, data.detail);
    ints.push(SYMBOL_KINDS.indexOf(data.kind));
    ints.range(data.range);
    ints.range(data.selectionRange);
    ints.push(data.children.length);
    data.children.forEach(symbol);
  };
  outline.symbols.forEach(symbol);
  return { ints: ints.toArray(), strings, counts: { scenarios: outline.scenarios.length, folding: outline.folding.length, symbols } };
}

/** The outline back from its compact form; each part is decoded the first time it is read. */
export function decodeOutline(encoded: EncodedOutline): DocumentOutline {
  const { ints, strings, counts } = encoded;
  const foldingAt = counts.scenarios * 9;
  const symbolsAt = foldingAt + counts.folding * 3;
  const range = (at: number): Range => ({ start: { line: ints[at], character: ints[at + 1] }, end: { line: ints[at + 2], character: ints[at + 3] } });
  let scenarios: ScenarioOutline[] | undefined;
  let folding: FoldingRangeData[] | undefined;
  let symbols: SymbolData[] | undefined;
  return {
    get scenarios() {
      scenarios ??= Array.from({ length: counts.scenarios }, (_, i) => ({
        name: strings[i],
        index: ints[i * 9],
        headerRange: range(i * 9 + 1),
        range: range(i * 9 + 5),
      }));
      return scenarios;
    },
    get folding() {
      folding ??= Array.from({ length: counts.folding }, (_, i): FoldingRangeData => {
        const at = foldingAt + i * 3;
        return ints[at + 2] === 1 ? { start: ints[at], end: ints[at + 1], kind: 'comment' } : { start: ints[at], end: ints[at + 1] };
      });
      return folding;
    },
    get symbols() {
      if (symbols) return symbols;
      let at = symbolsAt;
      let text = counts.scenarios;
      // Pre-order with child counts: read one symbol, then its children.
      const read = (): SymbolData => {
        const name = strings[text++];
        const detail = strings[text++];
        const data: SymbolData = { name, detail, kind: SYMBOL_KINDS[ints[at]], range: range(at + 1), selectionRange: range(at + 5), children: [] };
        const children = ints[at + 9];
        at += 10;
        for (let i = 0; i < children; i++) data.children.push(read());
        return data;
      };
      const top: SymbolData[] = [];
      // Each symbol has two strings: the strings read tell how many symbols are decoded.
      while ((text - counts.scenarios) / 2 < counts.symbols) top.push(read());
      symbols = top;
      return symbols;
    },
  };
}
