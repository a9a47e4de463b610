// What the results panel's export buttons produce: the table as CSV or Markdown (in the order shown), the run
// as JSON, a chart as PNG bytes. Pure Node (no `vscode`): the host only adds the dialogs and the clipboard.
import type { RunFile } from '../results/runFile';
import { PNG_PREFIX, type ExportFormat } from './messages';
import { buildViewModel, exportTable, type SortSpec, type TableRow } from './model';

export interface ExportContent {
  text: string;
  /** File extension without the dot. */
  extension: 'csv' | 'md' | 'json';
  /** The save dialog's filter name. */
  filterName: string;
}

/** The export of a run (or, while it runs, of the rows measured so far; JSON only for a finished run). */
export function exportContent(format: ExportFormat, source: { run?: RunFile; rows?: readonly TableRow[] }, sort?: SortSpec): ExportContent | undefined {
  if (format === 'json') return source.run ? { text: JSON.stringify(source.run, null, 1) + '\n', extension: 'json', filterName: 'RBench run' } : undefined;
  const rows = source.rows ?? (source.run ? buildViewModel(source.run).rows : undefined);
  if (!rows) return undefined;
  return format === 'csv'
    ? { text: exportTable(rows, 'csv', sort), extension: 'csv', filterName: 'CSV (redis-benchmark --csv columns)' }
    : { text: exportTable(rows, 'markdown', sort), extension: 'md', filterName: 'Markdown' };
}

/** `20261129-224000-123-set-and-get-timeline.png`: the run id, then what was exported. */
export function exportFileName(runId: string | undefined, scenarioSlug: string, what: string, extension: string): string {
  return `${runId || scenarioSlug}${what ? `-${what}` : ''}.${extension}`;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The bytes of a PNG data URL (already shape-checked by parseWebviewMessage); undefined when they are not a PNG. */
export function pngBytes(dataUrl: string): Uint8Array | undefined {
  if (!dataUrl.startsWith(PNG_PREFIX)) return undefined;
  const bytes = Uint8Array.from(Buffer.from(dataUrl.slice(PNG_PREFIX.length), 'base64'));
  return bytes.length > PNG_SIGNATURE.length && PNG_SIGNATURE.every((b, i) => bytes[i] === b) ? bytes : undefined;
}
