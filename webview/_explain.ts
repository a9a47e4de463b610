// The results panel's "where the time went": each test's bottleneck verdict in the header, and a section
// with the latency split (a stacked bar per percentile: the server's time per call, then round trip,
// queueing and client), the client's own pauses, foreign load and stalls. Text goes in as text nodes
// only: the verdict's words come from a run file, a stranger's data.
import { formatLatency } from '../src/results/format';
import type { HeaderInfo, SplitBar, TestExplanation, VerdictView } from '../src/views/model';
import { el } from './_dom';
import { asSentence, whyParts } from '../src/views/verdictWords';

/** A verdict's reason: short sentences, the figures in a list of their own (a reason of another shape whole). */
function reason(why: string): Node[] {
  const parts = whyParts(why);
  if (!parts) return [el('span', { class: 'detail' }, ` — ${why}`)];
  return [
    el('span', { class: 'detail' }, ` — ${asSentence(parts.claim)} ${asSentence(parts.meaning)}${parts.advice ? ` Try: ${parts.advice}.` : ''}`),
    el('ul', { class: 'verdict-figures detail' }, ...parts.figures.map((figure) => el('li', {}, figure))),
  ];
}

function verdictItem(verdict: VerdictView & { test: string }): HTMLElement {
  const item = el(
    'li',
    { 'data-kind': verdict.kind },
    el('span', { class: 'verdict-label' }, verdict.label),
    ' ',
    el('span', { class: 'verdict-test' }, verdict.test),
    ...(verdict.why ? reason(verdict.why) : []),
  );
  if (verdict.parts.length > 0)
    item.append(el('ul', {}, ...verdict.parts.map((part) => el('li', {}, el('span', { class: 'verdict-label' }, part.label), ` — ${part.why}`))));
  return item;
}

/** The verdicts and a stall over a second, under the header's facts. */
export function headerVerdicts(h: HeaderInfo): Node[] {
  const parts: Node[] = [];
  if (h.stalled) parts.push(el('p', { class: 'stall-warning', role: 'alert', id: 'stall-warning' }, `Not a clean run: ${h.stalled} (shaded on the timeline).`));
  if (h.verdicts.length === 0) return parts;
  const list = el('ul', { class: 'verdicts', id: 'verdicts', 'aria-label': 'Bottleneck per test' }, ...h.verdicts.map(verdictItem));
  if (!h.verdictCounts) parts.push(list);
  else {
    // A sweep's many tests: the counts in view, every verdict one click away (and in the table).
    const counts = h.verdictCounts.map((c) => `${c.label} in ${c.tests} test${c.tests === 1 ? '' : 's'}`).join(', ');
    parts.push(
      el('details', { class: 'verdict-counts', id: 'verdict-counts' }, el('summary', {}, el('span', { class: 'verdict-label' }, 'Bottleneck:'), counts), list),
    );
  }
  return parts;
}

function splitBar(bar: SplitBar): HTMLElement {
  const share = bar.totalUs > 0 ? (bar.serverUs / bar.totalUs) * 100 : 0;
  const server = el('span', { class: 'split-server' });
  const rest = el('span', { class: 'split-rest' });
  // CSSOM widths: the CSP allows no style attributes, but a script may set a style property.
  server.style.width = `${share.toFixed(2)}%`;
  rest.style.width = `${(100 - share).toFixed(2)}%`;
  // A server time under 1 % of the bar (0.4 µs of a 300 µs p99) would be a sliver no one sees: it keeps a
  // few pixels, and the figures beside the bar give its size.
  if (bar.serverUs > 0) server.style.minWidth = '3px';
  const words = `${bar.label} ${formatLatency(bar.totalUs)}: server ${formatLatency(bar.serverUs)} per call, round trip, queueing and client ${formatLatency(bar.restUs)}`;
  return el(
    'div',
    { class: 'split-row' },
    el('span', { class: 'split-name' }, `${bar.label} ${formatLatency(bar.totalUs)}`),
    el('span', { class: 'split-bar', role: 'img', 'aria-label': words, title: words }, server, rest),
    el('span', { class: 'split-figures detail' }, `server ${formatLatency(bar.serverUs)} + ${formatLatency(bar.restUs)}`),
  );
}

function explanationItem(e: TestExplanation): HTMLElement {
  const lines: Node[] = [];
  if (e.split) lines.push(el('div', { class: 'split' }, ...e.split.bars.map(splitBar)));
  const notes = [e.serverCpu, e.pauses, e.foreign, ...e.stalls].filter((line): line is string => Boolean(line));
  if (notes.length > 0) lines.push(el('ul', { class: 'explain-notes' }, ...notes.map((line) => el('li', {}, line))));
  return el('li', { class: 'explain-test' }, el('h3', {}, e.name, e.verdict ? el('span', { class: 'verdict-label' }, e.verdict.label) : ''), ...lines);
}

/** The section, or nothing for a run file without any of these figures. */
export function explainSection(explanations: readonly TestExplanation[]): Node[] {
  if (explanations.length === 0) return [];
  const legend = explanations.some((e) => e.split)
    ? [
        el(
          'p',
          { class: 'split-legend detail' },
          el('span', { class: 'split-swatch split-server' }),
          ' server time per call  ',
          el('span', { class: 'split-swatch split-rest' }),
          ' round trip, queueing and client',
        ),
      ]
    : [];
  return [el('h2', {}, 'Where the time went'), ...legend, el('ul', { class: 'explain-list' }, ...explanations.map(explanationItem))];
}
