// Messages between the extension host and the results webview, typed in one place for both sides.
// The host checks everything the webview sends (parseWebviewMessage): a webview is untrusted content.
import type { PersistenceEvent, RunFile } from '../results/runFile';
import type { LiveRunState, SortKey, SortSpec, StampedProgress } from './model';
import { isChosenPercentileKey, SORT_KEYS } from './model';

/** Host → webview. */
export type HostMessage =
  /** A finished run (a run file opened, or a live run that just ended). `path` is its file, when written. */
  | { type: 'run'; run: RunFile; path?: string }
  /** A run in progress, from the start (sent when a run starts and when a webview (re)loads mid-run). */
  | { type: 'live'; state: LiveRunState }
  /** What happened in a live run since the last message (sent at most once a second). */
  | { type: 'progress'; events: StampedProgress[]; serverEvents: PersistenceEvent[]; target?: LiveRunState['target'] }
  /** The run file could not be read. */
  | { type: 'error'; message: string }
  /** The outcome of an export, shown briefly in the panel. */
  | { type: 'notice'; text: string };

export type ExportFormat = 'csv' | 'markdown' | 'json';

/** Webview → host. */
export type WebviewMessage =
  | { type: 'ready' }
  /** Copy the table (csv/markdown) or the run (json) to the clipboard, or save it to a file, in the table's current order. */
  | { type: 'export'; format: ExportFormat; to: 'clipboard' | 'file'; sort?: SortSpec }
  /** Save one chart as PNG. */
  | { type: 'save-png'; chart: string; dataUrl: string }
  /** Open the run file as JSON in a text editor. */
  | { type: 'open-raw' }
  /** Open the scenario file the run came from. */
  | { type: 'open-scenario' }
  /** The colours the charts were just drawn in, and the background under them (read by the extension's tests). */
  | ChartColoursReport;

/** What a results panel drew its chart lines in, in which theme, on which background: `rgb(…)` colours. */
export interface ChartColoursReport {
  type: 'chart-colours';
  theme: 'light' | 'dark' | 'high-contrast';
  background: string;
  series: { chart: (typeof CHART_IDS)[number]; label: string; colour: string }[];
}

/** The state the webview keeps with vscode.setState, read back by the panel serializer after a reload. */
export interface PanelState {
  /** The run file shown (absent while a run has not been written yet). */
  runPath?: string;
  key?: { file?: string; scenario: string };
}

const EXPORT_FORMATS = new Set<string>(['csv', 'markdown', 'json']);
const SORT_KEY_SET = new Set<string>(SORT_KEYS);
/** Chart ids the webview may name in a PNG file name. */
export const CHART_IDS = ['timeline', 'percentiles', 'histogram', 'server', 'sweep', 'rate', 'ramp'] as const;
const CHART_ID_SET = new Set<string>(CHART_IDS);
/** PNG data URLs above this are refused (a 4K chart is ~2 MB). */
export const MAX_PNG_DATA_URL = 16 * 1024 * 1024;
export const PNG_PREFIX = 'data:image/png;base64,';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseSort(value: unknown): SortSpec | undefined | null {
  if (value === undefined) return undefined;
  if (!isRecord(value) || typeof value.key !== 'string' || typeof value.descending !== 'boolean') return null;
  // A fixed column, or a chosen percentile's (`p99.99`).
  if (!SORT_KEY_SET.has(value.key) && !isChosenPercentileKey(value.key)) return null;
  return { key: value.key as SortKey, descending: value.descending };
}

/** The host trusts nothing the webview sends: returns the message if it has a known shape, else undefined. */
export function parseWebviewMessage(value: unknown): WebviewMessage | undefined {
  if (!isRecord(value) || typeof value.type !== 'string') return undefined;
  switch (value.type) {
    case 'ready':
    case 'open-raw':
    case 'open-scenario':
      return { type: value.type };
    case 'export': {
      if (typeof value.format !== 'string' || !EXPORT_FORMATS.has(value.format)) return undefined;
      if (value.to !== 'clipboard' && value.to !== 'file') return undefined;
      const sort = parseSort(value.sort);
      if (sort === null) return undefined;
      return { type: 'export', format: value.format as ExportFormat, to: value.to, ...(sort ? { sort } : {}) };
    }
    case 'chart-colours':
      return parseChartColours(value);
    case 'save-png': {
      if (typeof value.chart !== 'string' || !CHART_ID_SET.has(value.chart)) return undefined;
      if (typeof value.dataUrl !== 'string' || value.dataUrl.length > MAX_PNG_DATA_URL || !value.dataUrl.startsWith(PNG_PREFIX)) return undefined;
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value.dataUrl.slice(PNG_PREFIX.length))) return undefined;
      return { type: 'save-png', chart: value.chart, dataUrl: value.dataUrl };
    }
    default:
      return undefined;
  }
}

const THEME_KINDS = new Set<string>(['light', 'dark', 'high-contrast']);
/** A colour as the webview writes it: `rgb(…)`/`rgba(…)` or hex, short. */
const COLOUR_TEXT = /^(?:rgba?\([\d.,\s/%]{5,40}\)|#[0-9a-fA-F]{3,8})$/;
/** More series than any panel draws: a longer list is refused. */
const MAX_REPORTED_SERIES = 64;

function parseChartColours(value: Record<string, unknown>): ChartColoursReport | undefined {
  if (typeof value.theme !== 'string' || !THEME_KINDS.has(value.theme)) return undefined;
  if (typeof value.background !== 'string' || !COLOUR_TEXT.test(value.background)) return undefined;
  if (!Array.isArray(value.series) || value.series.length > MAX_REPORTED_SERIES) return undefined;
  const series: ChartColoursReport['series'] = [];
  for (const entry of value.series) {
    if (!isRecord(entry) || typeof entry.chart !== 'string' || !CHART_ID_SET.has(entry.chart)) return undefined;
    if (typeof entry.label !== 'string' || entry.label.length > 120 || typeof entry.colour !== 'string' || !COLOUR_TEXT.test(entry.colour)) return undefined;
    series.push({ chart: entry.chart as ChartColoursReport['series'][number]['chart'], label: entry.label, colour: entry.colour });
  }
  return { type: 'chart-colours', theme: value.theme as ChartColoursReport['theme'], background: value.background, series };
}

/** Validates the state a serializer gets back (it was written by webview code). */
export function parsePanelState(value: unknown): PanelState {
  if (!isRecord(value)) return {};
  const state: PanelState = {};
  if (typeof value.runPath === 'string' && value.runPath.endsWith('.json') && value.runPath.length < 4096) state.runPath = value.runPath;
  if (isRecord(value.key) && typeof value.key.scenario === 'string') {
    state.key = { scenario: value.key.scenario, ...(typeof value.key.file === 'string' ? { file: value.key.file } : {}) };
  }
  return state;
}

// ---------------------------------------------------------------------------------------------------
// The comparison panel (src/views/comparePanel.ts ↔ webview/compare.ts)

/** Host → comparison webview. */
export type CompareHostMessage =
  /** The runs to compare, oldest (the reference) first, with their files. */
  | { type: 'compare'; runs: RunFile[]; paths: string[]; noisePercent?: number }
  /** A run file could not be read. */
  | { type: 'error'; message: string }
  | { type: 'notice'; text: string };

/** Comparison webview → host. */
export type CompareWebviewMessage =
  | { type: 'ready' }
  /** The comparison as a pull-request comment (Markdown) or spreadsheet rows (CSV). */
  | { type: 'export'; format: 'csv' | 'markdown'; to: 'clipboard' | 'file' }
  | { type: 'save-png'; chart: string; dataUrl: string }
  /** Open one of the compared runs in the run viewer (its column index). */
  | { type: 'open-run'; index: number };

/** What the comparison webview saves with setState: the run files, so a reloaded window shows them again. */
export interface CompareState {
  paths: string[];
}

/** The host's check of a comparison webview message: the results panel's shapes, narrowed, plus `open-run`. */
export function parseCompareMessage(value: unknown): CompareWebviewMessage | undefined {
  if (isRecord(value) && value.type === 'open-run') {
    return typeof value.index === 'number' && Number.isInteger(value.index) && value.index >= 0 && value.index < 64
      ? { type: 'open-run', index: value.index }
      : undefined;
  }
  const message = parseWebviewMessage(value);
  if (!message) return undefined;
  switch (message.type) {
    case 'ready':
    case 'save-png':
      return message;
    case 'export':
      return message.format === 'json' || message.sort ? undefined : { type: 'export', format: message.format, to: message.to };
    default:
      return undefined;
  }
}

export function parseCompareState(value: unknown): CompareState {
  if (!isRecord(value) || !Array.isArray(value.paths)) return { paths: [] };
  const paths = value.paths.filter((p): p is string => typeof p === 'string' && p.endsWith('.json') && p.length < 4096);
  return { paths: paths.length === value.paths.length && paths.length <= 64 ? paths : [] };
}
