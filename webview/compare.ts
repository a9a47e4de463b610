// The comparison panel's browser script: what differs between the runs first, then the table (a column
// per run, the first is the reference, deltas coloured better/worse/noise), then the runs' charts
// overlaid. Built from src/views/compareModel (shared with the host and the unit tests).
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import uplotCss from 'uplot/dist/uPlot.min.css';
import panelCss from './_styles.css';
import type { CompareHostMessage, CompareState, CompareWebviewMessage } from '../src/views/messages';
import { buildCompareViewModel, type CompareViewModel } from '../src/views/compareModel';
import { axisToggle, chartPng, chartResizer, mountChart, type ChartId, type MountedChart } from './_charts';
import { compareChartSpecs } from './_compareCharts';
import { button, custom, el, injectStyles, onHostMessage, showNotice } from './_dom';
import { applyReadableColours, readTheme, watchTheme, type Theme } from './_theme';

interface VsCodeApi {
  postMessage(message: CompareWebviewMessage): void;
  getState(): unknown;
  setState(state: CompareState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
injectStyles(uplotCss, panelCss);
applyReadableColours();

let model: CompareViewModel | undefined;
let theme: Theme = readTheme();
const charts = new Map<ChartId, MountedChart>();
const root = document.getElementById('root') as HTMLElement;

const VERDICT_WORDS = {
  better: 'better',
  worse: 'worse',
  noise: 'within noise',
  differs: 'differs: the plans differ, so this is a different load, not better or worse',
} as const;

function renderHeader(m: CompareViewModel): HTMLElement {
  const runs = el(
    'ol',
    { class: 'compare-runs', id: 'compare-runs' },
    ...m.columns.map((column, i) => {
      const open = el('button', { class: 'link', type: 'button', title: `Open ${column.id} in the run viewer` }, column.label);
      const time = column.time ? el('span', { class: 'detail' }, ` ${column.time}`) : '';
      open.addEventListener('click', () => vscode.postMessage({ type: 'open-run', index: i }));
      return el(
        'li',
        { class: `series-${i % 6}` },
        el('span', { class: 'swatch', 'aria-hidden': 'true' }),
        open,
        time,
        column.reference ? custom('vscode-badge', {}, 'reference') : '',
        ' ',
        el('span', { class: `status-${column.status}` }, column.status),
        el('span', { class: 'detail' }, ` — ${column.scenario} · ${column.facts} · ${column.id}`),
      );
    }),
  );
  const summary = el(
    'p',
    { class: 'compare-summary', id: 'compare-summary' },
    `Against ${m.columns[0].label}: `,
    ...m.summary.flatMap((part, i) => [i > 0 ? ', ' : '', el('span', { class: `delta-${part.verdict}` }, part.text)]),
    ` (±${m.comparison.noisePercent}%).`,
  );
  const caveats = m.notComparable.map((reason) => el('p', { class: 'compare-caveat' }, `Not comparable: ${reason}.`));
  return el('header', {}, el('h1', {}, m.title), runs, summary, ...caveats);
}

function renderToolbar(): HTMLElement {
  const exportTo = (format: 'csv' | 'markdown', to: 'clipboard' | 'file') => vscode.postMessage({ type: 'export', format, to });
  return el(
    'div',
    { class: 'toolbar', role: 'toolbar', 'aria-label': 'Export' },
    button('Copy as Markdown', () => exportTo('markdown', 'clipboard'), { id: 'copy-markdown' }),
    button('Copy as CSV', () => exportTo('csv', 'clipboard'), { secondary: true, id: 'copy-csv' }),
    button('Save Markdown…', () => exportTo('markdown', 'file'), { secondary: true, id: 'save-markdown' }),
    button('Save CSV…', () => exportTo('csv', 'file'), { secondary: true, id: 'save-csv' }),
    el('span', { class: 'notice', id: 'notice', role: 'status' }),
  );
}

function renderDifferences(m: CompareViewModel): HTMLElement {
  if (!m.lead)
    return el(
      'p',
      { class: 'no-differences', id: 'differences' },
      'No differences in plan, server, client path, machine or status: the numbers below compare like with like.',
    );
  return el(
    'section',
    { class: 'warnings', id: 'differences', 'aria-label': 'Differences between the runs' },
    el('h2', {}, m.lead),
    el('ul', {}, ...m.differences.map((d) => el('li', { class: `difference-${d.kind}` }, el('span', { class: 'difference-kind' }, d.kind), ' ', d.text))),
  );
}

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;

/**
 * Which side moved, per test: the figures in a table (the client's p99 beside the server's time per call,
 * run files that have it), then what they mean in one short sentence a test, and a changed verdict with its reason.
 */
function renderExplained(m: CompareViewModel): HTMLElement | string {
  if (m.explainedRows.length === 0) return '';
  const measured = m.explainedRows.filter((row) => row.p99);
  const table = measured.length
    ? el(
        'table',
        { class: 'explained-table', id: 'explained-table' },
        el('thead', {}, el('tr', {}, ...['test', 'client p99', 'server time per call', 'server µs/call'].map((h) => el('th', { scope: 'col' }, h)))),
        el(
          'tbody',
          {},
          ...measured.map((row) =>
            el(
              'tr',
              {},
              el('th', { scope: 'row' }, row.test),
              el('td', {}, row.p99 ?? ''),
              el('td', {}, row.server ?? ''),
              el('td', { class: 'num' }, row.serverFigures ?? ''),
            ),
          ),
        ),
      )
    : '';
  const readings = m.explainedRows.flatMap((row) => [
    ...(row.reading ? [el('li', {}, el('strong', {}, `${row.test}: `), sentence(row.reading))] : []),
    ...(row.bottleneck
      ? [
          el(
            'li',
            {},
            el('strong', {}, `${row.test}: `),
            `The bottleneck moved from ${row.bottleneck.from} to ${row.bottleneck.to}.`,
            el('span', { class: 'detail' }, ` ${sentence(row.bottleneck.why)}`),
          ),
        ]
      : []),
  ]);
  return el(
    'section',
    { class: 'explained', id: 'explained', 'aria-label': 'Client and server side' },
    el('h2', {}, 'Client and server side'),
    table,
    el('ul', { class: 'explained-readings' }, ...readings),
  );
}

function renderTable(m: CompareViewModel): HTMLElement {
  const table = el('table', { id: 'compare-table', class: 'compare-table' });
  table.append(el('caption', {}, `Each run against ${m.columns[0].label} (the reference)`));
  const head = el(
    'tr',
    {},
    el('th', { scope: 'col' }, 'Test'),
    el('th', { scope: 'col' }, 'Metric'),
    ...m.columns.map((column, i) =>
      el(
        'th',
        { scope: 'col', class: `num series-${i % 6}` },
        el('span', { class: 'swatch', 'aria-hidden': 'true' }),
        column.label + (column.reference ? ' (reference)' : ''),
        ...(column.time ? [el('span', { class: 'column-time' }, column.time)] : []),
      ),
    ),
  );
  const body = el('tbody');
  for (const line of m.lines) {
    const tr = el('tr', { class: [line.first ? 'group-start' : '', line.command ? 'command' : ''].filter(Boolean).join(' ') });
    tr.append(el('th', { scope: 'row' }, line.first ? line.test : ''), el('td', { class: 'metric' }, line.metricLabel));
    for (const cell of line.cells) {
      const td = el('td', { class: 'num' }, cell.text);
      if (cell.spread ?? cell.note) td.title = (cell.spread ?? cell.note) as string;
      if (cell.change && cell.verdict) {
        td.append(' ', el('span', { class: `delta delta-${cell.verdict}`, title: VERDICT_WORDS[cell.verdict] }, cell.change));
        td.dataset.verdict = cell.verdict;
      }
      // Issue 26: the change's 95 % interval, and a flag when the figures are not comparable.
      if (cell.interval) td.append(' ', el('span', { class: 'delta-interval', title: cell.intervalTest ?? '' }, cell.interval));
      // One run a side: the change is shown, its significance is not judged (the tooltip says why).
      else if (cell.intervalTest && cell.change) td.append(' ', el('span', { class: 'delta-interval', title: cell.intervalTest }, 'not judged'));
      if (cell.notComparable) td.append(' ', el('span', { class: 'not-comparable', title: cell.notComparable }, 'not comparable'));
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(el('thead', {}, head), body);
  return el('div', { class: 'table-wrap' }, table);
}

function destroyCharts(): void {
  for (const chart of charts.values()) chart.plot.destroy();
  charts.clear();
}

function renderCharts(m: CompareViewModel, section: HTMLElement): void {
  destroyCharts();
  section.replaceChildren();
  const specs = compareChartSpecs(m, theme);
  const targets: { spec: (typeof specs)[number]; target: HTMLElement }[] = [];
  for (const spec of specs) {
    const target = el('div', { class: 'chart', role: 'img', 'aria-label': spec.description, 'aria-describedby': 'compare-table' });
    const save = button(
      'Save PNG…',
      () => {
        const chart = charts.get(spec.id);
        if (chart) vscode.postMessage({ type: 'save-png', chart: spec.id, dataUrl: chartPng(chart, theme) });
      },
      { secondary: true },
    );
    save.setAttribute('aria-label', `Save ${spec.title} as PNG`);
    const figure = el(
      'figure',
      { 'data-chart': spec.id, class: spec.id === 'sweep' || spec.id === 'ramp' ? 'wide' : '' },
      el('header', {}, el('h2', {}, spec.title), el('span', { class: 'figure-actions' }, ...axisToggle(spec, () => renderCharts(m, section)), save)),
      target,
    );
    if (spec.logAxis !== undefined) figure.dataset.axis = spec.logAxis ? 'log' : 'linear';
    if (spec.note) figure.append(el('p', { class: 'chart-note' }, spec.note));
    section.append(figure);
    targets.push({ spec, target });
  }
  // Plots are created once their figures are in the grid, at the width each figure got.
  for (const { spec, target } of targets) charts.set(spec.id, mountChart(spec, target, Math.max(320, target.clientWidth || 600)));
  if (m.omitted.length > 0) section.append(el('p', { class: 'omitted' }, `Not charted (too many series): ${m.omitted.join(', ')}.`));
}

const chartSection = el('section', { class: 'charts', 'aria-label': 'Charts' });

function render(m: CompareViewModel): void {
  root.replaceChildren(renderHeader(m), renderToolbar(), renderDifferences(m), renderExplained(m), renderTable(m), chartSection);
  renderCharts(m, chartSection);
  requestAnimationFrame(() => (document.body.dataset.rendered = 'true'));
}

function onMessage(message: CompareHostMessage): void {
  switch (message.type) {
    case 'compare':
      model = buildCompareViewModel(message.runs, { noisePercent: message.noisePercent });
      vscode.setState({ paths: message.paths });
      render(model);
      break;
    case 'error':
      destroyCharts();
      root.replaceChildren(el('h1', {}, 'Cannot compare these runs'), el('p', { class: 'error-message', role: 'alert' }, message.message));
      break;
    case 'notice':
      showNotice(message.text);
      break;
  }
}

onHostMessage<CompareHostMessage>(onMessage);

// Plots follow the window's width.
chartResizer(charts).observe(root);

watchTheme(() => {
  applyReadableColours();
  theme = readTheme();
  if (model) renderCharts(model, chartSection);
});

vscode.postMessage({ type: 'ready' });
