// The results panel's browser script: renders a finished run or a live one from host messages, table
// first, then charts. Builds everything from src/views/model (shared with the host and the unit tests).
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-progress-bar/index.js';
import uplotCss from 'uplot/dist/uPlot.min.css';
import panelCss from './_styles.css';
import type { HostMessage, PanelState, WebviewMessage } from '../src/views/messages';
import { applyProgress, buildLiveViewModel, buildViewModel, sortRows, type LiveRunState, type SortSpec, type ViewModel } from '../src/views/model';
import type { RunFile } from '../src/results/runFile';
import { axisToggle, chartPng, chartResizer, chartSpecs, drawnSeries, mountChart, type ChartId, type MountedChart } from './_charts';
import { button, custom, el, injectStyles, onHostMessage, showNotice } from './_dom';
import { explainSection, headerVerdicts } from './_explain';
import { applyReadableColours, pageBackgroundColour, readTheme, watchTheme, type Theme } from './_theme';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: PanelState & { sort?: SortSpec }): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
injectStyles(uplotCss, panelCss);
applyReadableColours();

const saved = (vscode.getState() ?? {}) as PanelState & { sort?: SortSpec };
let sort: SortSpec | undefined = saved.sort;
let run: RunFile | undefined;
let runPath: string | undefined;
let live: LiveRunState | undefined;
let model: ViewModel | undefined;
let theme: Theme = readTheme();
const charts = new Map<ChartId, MountedChart>();
const resizer = chartResizer(charts);
let firstPaintDone = false;

function persist(): void {
  vscode.setState({ runPath, key: model ? { file: run?.scenario.file ?? live?.file, scenario: model.header.scenario } : saved.key, sort });
}

// ------------------------------------------------------------------------------------------------
// Layout: built once per document; sections are refilled on each update.

const root = document.getElementById('root') as HTMLElement;
const sections = {
  header: el('header'),
  toolbar: el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Export' }),
  status: el('p', { class: 'visually-hidden', 'aria-live': 'polite', id: 'status' }),
  warnings: el('section', { class: 'warnings', 'aria-label': 'Warnings' }),
  thresholds: el('section', { class: 'thresholds', 'aria-label': 'Thresholds' }),
  explain: el('section', { class: 'explain', id: 'explain', 'aria-label': 'Where the time went' }),
  table: el('div', { class: 'table-wrap' }),
  charts: el('section', { class: 'charts', 'aria-label': 'Charts' }),
  source: el('section'),
};

function renderHeader(m: ViewModel): void {
  const h = m.header;
  const badge = custom('vscode-badge', { class: `status-${h.status}${h.stalled ? ' status-stalled' : ''}`, id: 'run-status' }, h.badge);
  const title = el('h1', {}, h.scenario, badge);
  const facts: [string, string][] = [
    ['Target', [h.target, h.local ? '(throwaway local server)' : ''].filter(Boolean).join(' ')],
    ...(h.server ? ([['Server', h.server]] as [string, string][]) : []),
    ...(h.cluster ? ([['Cluster', h.cluster]] as [string, string][]) : []),
    ...(h.merged ? ([['Merged', h.merged]] as [string, string][]) : []),
    ['Client', h.client],
    ['Started', new Date(h.startedAt).toLocaleString()],
    ['Duration', h.duration],
    ...(h.file ? ([['Scenario file', h.file]] as [string, string][]) : []),
  ];
  const meta = el('dl', { class: 'meta' }, ...facts.map(([k, v]) => el('div', {}, el('dt', {}, k), el('dd', {}, v))));
  const parts: Node[] = [title, meta, ...headerVerdicts(h)];
  if (h.error)
    parts.push(
      el(
        'p',
        { class: 'error-message', role: 'alert' },
        `${h.status === 'cancelled' ? 'Cancelled' : h.status === 'complete-with-errors' ? 'Complete with errors' : 'Failed'}: ${h.error}`,
      ),
    );
  if (h.progress) {
    const bar = custom('vscode-progress-bar', { 'aria-label': 'Run progress', max: '1' });
    if (h.fraction === undefined) bar.setAttribute('indeterminate', '');
    else (bar as HTMLElement & { value: number }).value = h.fraction;
    parts.push(el('div', { class: 'progress' }, el('div', { class: 'progress-text', id: 'progress-text' }, h.progress), bar));
  }
  sections.header.replaceChildren(...parts);
  sections.status.textContent = `${h.status}${h.progress ? `: ${h.progress}` : ''}`;
}

function renderToolbar(): void {
  const exportTo = (format: 'csv' | 'markdown' | 'json', to: 'clipboard' | 'file') =>
    vscode.postMessage({ type: 'export', format, to, ...(sort ? { sort } : {}) });
  const finished = Boolean(run);
  sections.toolbar.replaceChildren(
    button('Copy as Markdown', () => exportTo('markdown', 'clipboard'), { id: 'copy-markdown' }),
    button('Copy as CSV', () => exportTo('csv', 'clipboard'), { secondary: true, id: 'copy-csv' }),
    button('Save CSV…', () => exportTo('csv', 'file'), { secondary: true, id: 'save-csv' }),
    button('Save Markdown…', () => exportTo('markdown', 'file'), { secondary: true }),
    button('Save run JSON…', () => exportTo('json', 'file'), { secondary: true, disabled: !finished }),
    button('Open as JSON', () => vscode.postMessage({ type: 'open-raw' }), { secondary: true, id: 'open-raw', disabled: !runPath }),
    ...((run?.scenario.file ?? live?.file)
      ? [button('Open scenario', () => vscode.postMessage({ type: 'open-scenario' }), { secondary: true, id: 'open-scenario' })]
      : []),
    el('span', { class: 'notice', id: 'notice', role: 'status' }),
  );
}

function renderWarnings(m: ViewModel): void {
  sections.warnings.hidden = m.warnings.length === 0;
  sections.warnings.replaceChildren(el('h2', {}, 'Read these numbers with care'), el('ul', {}, ...m.warnings.map((w) => el('li', {}, w))));
}

function renderThresholds(m: ViewModel): void {
  sections.thresholds.hidden = m.thresholds.length === 0;
  const failed = m.thresholds.filter((t) => !t.passed).length;
  sections.thresholds.replaceChildren(
    el('h2', {}, `Thresholds: ${failed === 0 ? 'all passed' : `${failed} of ${m.thresholds.length} failed`}`),
    el(
      'ul',
      {},
      ...m.thresholds.map((t) =>
        el(
          'li',
          {},
          el('span', { class: t.passed ? 'pass' : 'fail' }, t.passed ? 'pass' : 'FAIL'),
          ` ${t.text} `,
          el('span', { class: 'detail' }, `— ${t.detail}`),
        ),
      ),
    ),
  );
}

function renderExplain(m: ViewModel): void {
  const content = explainSection(m.explanations);
  sections.explain.hidden = content.length === 0;
  sections.explain.replaceChildren(...content);
}

function renderTable(m: ViewModel): void {
  const rows = sortRows(m.rows, sort);
  const table = el('table', { id: 'results-table' });
  // The span, not the caption, can stay in view while the table scrolls sideways.
  table.append(
    el(
      'caption',
      {},
      el(
        'span',
        {},
        'Results per test' +
          (sort ? ` (sorted by ${m.columns.find((c) => c.key === sort?.key)?.header ?? sort.key}, ${sort.descending ? 'descending' : 'ascending'})` : ''),
      ),
    ),
  );
  const headRow = el('tr');
  for (const column of m.columns) {
    const active = sort?.key === column.key;
    const th = el('th', {
      scope: 'col',
      class: column.numeric ? 'num' : column.key === 'test' ? 'row-label' : '',
      'aria-sort': active ? (sort?.descending ? 'descending' : 'ascending') : 'none',
    });
    const b = el(
      'button',
      { class: 'sort', type: 'button', 'data-key': column.key, title: `Sort by ${column.header}` },
      column.header,
      el('span', { class: 'arrow', 'aria-hidden': 'true' }, active ? (sort?.descending ? '▼' : '▲') : ''),
    );
    b.addEventListener('click', () => {
      // Numbers sort high-to-low first (the interesting end); then the other way; then back to run order.
      const firstDescending = column.numeric;
      if (!active) sort = { key: column.key, descending: firstDescending };
      else if (sort && sort.descending === firstDescending) sort = { key: column.key, descending: !firstDescending };
      else sort = undefined;
      persist();
      renderTable(m);
      (sections.table.querySelector(`button[data-key="${column.key}"]`) as HTMLButtonElement | null)?.focus();
    });
    th.append(b);
    headRow.append(th);
  }
  const body = el('tbody');
  const labelColumn = m.columns.findIndex((c) => c.key === 'test');
  for (const row of rows) {
    const tr = el('tr', {
      class: [
        row.command !== 'total' ? 'command' : '',
        row.detail ? `detail-${row.detail}` : '',
        row.status === 'running' ? 'running' : '',
        row.status === 'failed' ? 'failed' : '',
      ]
        .filter(Boolean)
        .join(' '),
    });
    m.columns.forEach((column, i) => {
      const text = column.cell(row);
      const title = column.title?.(row);
      const cell =
        i === labelColumn
          ? el('th', { scope: 'row' }, text)
          : el('td', { class: [column.numeric ? 'num' : '', column.key === 'errors' && row.errors > 0 ? 'has-errors' : ''].filter(Boolean).join(' ') }, text);
      if (title) cell.title = title;
      tr.append(cell);
    });
    body.append(tr);
  }
  table.append(el('thead', {}, headRow), body);
  sections.table.replaceChildren(table);
}

function sweepTable(m: ViewModel): HTMLElement | undefined {
  if (!m.sweep) return undefined;
  const sw = m.sweep;
  const server = sw.table.some((r) => r.server !== undefined);
  const table = el('table', { class: 'sweep-table', id: 'sweep-table' });
  table.append(
    el('caption', {}, sw.axis === 'test' ? 'Median (min–max) over repeats' : `Sweep over ${sw.axis}: median (min–max)`),
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { scope: 'col' }, sw.axis === 'test' ? 'Test' : 'Point'),
        ...(sw.axis === 'test' ? [] : [el('th', { scope: 'col' }, 'Test')]),
        el('th', { scope: 'col', class: 'num' }, 'Ops/s'),
        el('th', { scope: 'col', class: 'num' }, 'p99'),
        ...(server ? [el('th', { scope: 'col', class: 'num' }, 'srv µs/call')] : []),
      ),
    ),
    el(
      'tbody',
      {},
      ...sw.table.map((r) =>
        el(
          'tr',
          {},
          el('th', { scope: 'row' }, r.label),
          ...(sw.axis === 'test' ? [] : [el('td', {}, r.test)]),
          el('td', { class: 'num' }, r.ops),
          el('td', { class: 'num' }, r.p99),
          ...(server ? [el('td', { class: 'num' }, r.server ?? '—')] : []),
        ),
      ),
    ),
  );
  return table;
}

function chartWidth(): number {
  const sample = sections.charts.querySelector('.chart') as HTMLElement | null;
  const available = sample?.clientWidth || Math.min(root.clientWidth || window.innerWidth, 1400);
  return Math.max(320, Math.floor(available));
}

function renderCharts(m: ViewModel, rebuild: boolean): void {
  const specs = chartSpecs(m, theme);
  const wanted = new Set(specs.map((s) => s.id));
  for (const [id, chart] of charts) {
    if (!wanted.has(id) || rebuild || chart.spec.signature !== specs.find((s) => s.id === id)?.signature) {
      const target = chart.plot.root.parentElement;
      if (target) resizer.unobserve(target);
      chart.plot.destroy();
      charts.delete(id);
      sections.charts.querySelector(`figure[data-chart="${id}"]`)?.remove();
    }
  }
  // Figures go into the grid first, then plots are created at the width each figure ended up with.
  const toMount: { spec: (typeof specs)[number]; target: HTMLElement }[] = [];
  for (const spec of specs) {
    const existing = charts.get(spec.id);
    if (existing) {
      existing.plot.setData(spec.data);
      existing.spec = spec;
      if (spec.id === 'sweep') {
        const table = sweepTable(m);
        if (table) sections.charts.querySelector('#sweep-table')?.replaceWith(table);
      }
      continue;
    }
    const target = el('div', { class: 'chart', role: 'img', 'aria-label': spec.description, 'aria-describedby': 'results-table' });
    const save = button(
      'Save PNG…',
      () => {
        const chart = charts.get(spec.id);
        if (chart) vscode.postMessage({ type: 'save-png', chart: spec.id, dataUrl: chartPng(chart, theme) });
      },
      { secondary: true },
    );
    save.setAttribute('aria-label', `Save ${spec.title} as PNG`);
    const body: HTMLElement =
      spec.id === 'sweep' ? el('div', { class: 'sweep-row' }, target, ...[sweepTable(m)].filter((t): t is HTMLElement => Boolean(t))) : target;
    const figure = el(
      'figure',
      { 'data-chart': spec.id, class: spec.id === 'sweep' || spec.id === 'rate' || spec.id === 'ramp' ? 'wide' : '' },
      el('header', {}, el('h2', {}, spec.title), el('span', { class: 'figure-actions' }, ...axisToggle(spec, () => model && renderCharts(model, false)), save)),
      body,
    );
    if (spec.logAxis !== undefined) figure.dataset.axis = spec.logAxis ? 'log' : 'linear';
    if (spec.note) figure.append(el('p', { class: 'chart-note' }, spec.note));
    // Insert in spec order.
    const order = specs.map((s) => s.id);
    const next = [...sections.charts.querySelectorAll('figure')].find((f) => order.indexOf(f.dataset.chart as ChartId) > order.indexOf(spec.id));
    sections.charts.insertBefore(figure, next ?? null);
    toMount.push({ spec, target });
  }
  for (const { spec, target } of toMount) {
    charts.set(spec.id, mountChart(spec, target, Math.max(320, target.clientWidth || chartWidth())));
    resizer.observe(target);
  }
  const serverNote = sections.charts.querySelector('#server-note');
  if (m.serverNote && !serverNote) sections.charts.append(el('p', { class: 'chart-note', id: 'server-note' }, m.serverNote));
  else if (!m.serverNote) serverNote?.remove();
  if (m.omitted.length > 0 && !sections.charts.querySelector('.omitted')) {
    sections.charts.append(el('p', { class: 'omitted' }, `Not charted (more than ${12} series): ${m.omitted.join(', ')}.`));
  }
}

let lastColoursReport = '';
/**
 * Tells the host the colours the charts were drawn in and the background they sit on, when they change (a
 * new theme, other series): the check that every line keeps 3:1 in every theme reads them in a real VS Code.
 */
function reportChartColours(): void {
  const background = pageBackgroundColour();
  if (!background || charts.size === 0) return;
  const series = [...charts].flatMap(([chart, mounted]) => drawnSeries(mounted.plot).map(({ label, colour }) => ({ chart, label, colour })));
  const report = { type: 'chart-colours' as const, theme: theme.kind, background, series };
  const text = JSON.stringify(report);
  if (text === lastColoursReport) return;
  lastColoursReport = text;
  vscode.postMessage(report);
}

function renderSource(): void {
  const text = run?.scenario.source;
  if (!text) {
    sections.source.replaceChildren();
    return;
  }
  const collapsible = custom('vscode-collapsible', { title: 'Scenario', description: run?.scenario.file ?? '' }, el('pre', { class: 'source' }, text));
  sections.source.replaceChildren(collapsible);
}

/** A failed attempt that measured nothing: what failed and what to do, without an empty table, charts or exports. */
function renderNothingMeasured(m: ViewModel, nothing: NonNullable<ViewModel['nothingMeasured']>): void {
  for (const chart of charts.values()) chart.plot.destroy();
  charts.clear();
  sections.charts.replaceChildren();
  renderHeader(m);
  const actions = [
    ...(runPath ? [button('Open as JSON', () => vscode.postMessage({ type: 'open-raw' }), { secondary: true, id: 'open-raw' })] : []),
    ...(run?.scenario.file ? [button('Open scenario', () => vscode.postMessage({ type: 'open-scenario' }), { secondary: true, id: 'open-scenario' })] : []),
  ];
  const section = el(
    'section',
    { class: 'nothing-measured', id: 'nothing-measured', 'aria-label': 'Nothing was measured' },
    el('h2', {}, nothing.headline),
    el('p', { id: 'nothing-measured-advice' }, nothing.advice),
    ...(actions.length > 0 ? [el('div', { class: 'toolbar' }, ...actions)] : []),
  );
  root.replaceChildren(sections.header, section, sections.source);
  persist();
  requestAnimationFrame(() => (document.body.dataset.rendered = 'true'));
}

function render(rebuildCharts: boolean): void {
  if (!model) return;
  if (model.nothingMeasured) return renderNothingMeasured(model, model.nothingMeasured);
  if (!root.contains(sections.table)) root.replaceChildren(...Object.values(sections));
  renderHeader(model);
  renderToolbar();
  renderWarnings(model);
  renderThresholds(model);
  renderExplain(model);
  renderTable(model);
  performance.mark('rbench-table-built');
  renderCharts(model, rebuildCharts);
  reportChartColours();
  performance.mark('rbench-charts-built');
  persist();
  if (!firstPaintDone) {
    firstPaintDone = true;
    requestAnimationFrame(() => {
      performance.mark('rbench-first-paint');
      document.body.dataset.rendered = 'true';
    });
  }
}

function showError(message: string): void {
  root.replaceChildren(el('h1', {}, 'Cannot show this run'), el('p', { class: 'error-message', role: 'alert' }, message));
}

function onMessage(message: HostMessage): void {
  switch (message.type) {
    case 'run':
      performance.mark('rbench-run-received');
      run = message.run;
      runPath = message.path;
      live = undefined;
      model = buildViewModel(run);
      performance.mark('rbench-model-built');
      render(false);
      renderSource();
      break;
    case 'live':
      run = undefined;
      runPath = undefined;
      live = message.state;
      model = buildLiveViewModel(live);
      render(false);
      renderSource();
      break;
    case 'progress':
      if (!live) return;
      for (const event of message.events) applyProgress(live, event);
      live.events = message.serverEvents;
      if (message.target) live.target = message.target;
      model = buildLiveViewModel(live);
      render(false);
      break;
    case 'error':
      showError(message.message);
      break;
    case 'notice':
      showNotice(message.text);
      break;
  }
}

onHostMessage<HostMessage>(onMessage);

watchTheme(() => {
  applyReadableColours();
  theme = readTheme();
  if (model) renderCharts(model, true);
  reportChartColours();
});

vscode.postMessage({ type: 'ready' });
