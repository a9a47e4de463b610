// The exposition formats Prometheus scrapes: OpenMetrics 1.0 (https://openmetrics.io; families, UNIT,
// `# EOF`), and the older text format 0.0.4 for scrapers that do not ask for OpenMetrics (promtool among
// them). Written here rather than with prom-client: its histograms take one observation at a time, while
// RBench's latencies arrive as HDR histogram counts (thousands of replies per slot), added in one step.

export type FamilyType = 'counter' | 'gauge' | 'histogram' | 'info';

export type Labels = Record<string, string>;

export interface Sample {
  /** Appended to the family's name: `_total`, `_bucket`, `_count`, `_sum`, `_info`, or nothing. */
  suffix: string;
  labels: Labels;
  value: number;
}

export interface Family {
  name: string;
  type: FamilyType;
  help: string;
  unit?: string;
  samples: Sample[];
}

export const OPENMETRICS_CONTENT_TYPE = 'application/openmetrics-text; version=1.0.0; charset=utf-8';
export const PROMETHEUS_TEXT_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** The format a scraper's Accept header asks for: OpenMetrics when it names it, the text format otherwise. */
export function acceptsOpenMetrics(accept: string | undefined): boolean {
  return /application\/openmetrics-text/i.test(accept ?? '');
}

/** A label value as the format wants it: backslash, double quote and line feed escaped. */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** HELP text: backslash and line feed escaped (a scenario's name can hold anything). */
function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

function formatLabels(labels: Labels): string {
  const names = Object.keys(labels);
  if (names.length === 0) return '';
  return `{${names.map((name) => `${name}="${escapeLabel(labels[name])}"`).join(',')}}`;
}

function sampleLines(family: Family): string[] {
  return family.samples.map((sample) => `${family.name}${sample.suffix}${formatLabels(sample.labels)} ${formatValue(sample.value)}`);
}

/** The whole OpenMetrics exposition: every family (empty ones too: their metadata says what will come). */
export function renderOpenMetrics(families: readonly Family[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# TYPE ${family.name} ${family.type}`);
    if (family.unit) lines.push(`# UNIT ${family.name} ${family.unit}`);
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`);
    lines.push(...sampleLines(family));
  }
  lines.push('# EOF');
  return `${lines.join('\n')}\n`;
}

/**
 * The same in Prometheus' text format 0.0.4: a counter's TYPE names its `_total` sample, an info family is
 * a gauge of value 1, no UNIT, no `# EOF`.
 */
export function renderPrometheusText(families: readonly Family[]): string {
  const lines: string[] = [];
  for (const family of families) {
    const name = family.type === 'counter' ? `${family.name}_total` : family.type === 'info' ? `${family.name}_info` : family.name;
    const type = family.type === 'info' ? 'gauge' : family.type;
    lines.push(`# HELP ${name} ${escapeHelp(family.help)}`, `# TYPE ${name} ${type}`, ...sampleLines(family));
  }
  return `${lines.join('\n')}\n`;
}
