// The results panel's browser script: renders a run's header and result table from host messages.
import type { HostMessage, WebviewMessage } from '../src/views/messages';
import { resultColumns } from '../src/results/export';
import { resultRows } from '../src/results/rows';
import type { RunFile } from '../src/results/runFile';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function renderRun(run: RunFile): void {
  const root = document.getElementById('root');
  if (!root) return;
  root.replaceChildren();
  const header = element('header');
  header.append(element('h1', run.scenario.name));
  const server = run.target.server ? `redis ${run.target.server.version} (${run.target.server.mode})` : '';
  header.append(element('p', [run.target.display, server, `client: ${run.client}`, `status: ${run.status}`].filter(Boolean).join(' · ')));
  if (run.error) header.append(element('p', run.error, 'error'));
  root.append(header);

  const rows = resultRows(run);
  const columns = resultColumns(rows);
  const table = element('table');
  const head = element('thead');
  const headRow = element('tr');
  for (const column of columns) {
    const th = element('th', column.header);
    th.scope = 'col';
    if (column.align === 'right') th.className = 'num';
    headRow.append(th);
  }
  head.append(headRow);
  const body = element('tbody');
  for (const row of rows) {
    const tr = element('tr');
    columns.forEach((column) => tr.append(element('td', column.cell(row), column.align === 'right' ? 'num' : undefined)));
    body.append(tr);
  }
  table.append(head, body);
  root.append(table);
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  if (message.type === 'run') renderRun(message.run);
});
vscode.postMessage({ type: 'ready' });
