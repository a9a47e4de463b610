// Hover for `.rbench` files: documentation of the word under the cursor (setting, command,
// placeholder, metric, suite test) and the resolved value of a `{{variable}}` or `${env:NAME}`.
import { DiagnosticSink, rangeOf } from '../diagnostics';
import { VariableScope } from '../interpolate';
import { parseDocument } from '../parser';
import type { DocLine, Interpolation, ScenarioDocument } from '../syntax';
import type { Position } from '../plan';
import { EXPECT_METRICS, PLACEHOLDERS, settingInfo, SHA_PLACEHOLDER, SWEEP_AXES } from '../settings';
import { FIND_METRICS } from '../find';
import { SUITE_NAMES, selectSuiteTests } from '../suites';
import { splitExpect } from '../expect';
import { commandTableOf, type CommandTable, type CommandTableData } from '../commandTable';
import { commandInfo } from './commandInfo';
import { valueMarkdown } from './valueHover';
import { code, commandMarkdown, drawMarkdown, metricMarkdown, placeholderMarkdown, settingMarkdown } from './docs';
import { DRAW_FORMS, drawsIn } from '../draws';
import { looksSecret, MASK, visibleVariables } from './locate';
import type { HoverData } from './types';
import { ownValue } from '../../gates/plainData';

export interface HoverOptions {
  /** Environment for `${env:…}`; values of secret-looking names are masked. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The selected target's command table (the editor's cache); the built-in table when absent. */
  commandTable?: CommandTableData;
}

/** The hover at `position`, or undefined when there is nothing to say. Never throws. */
export function hover(text: string, position: Position, options: HoverOptions = {}): HoverData | undefined {
  const doc = parseDocument(text);
  const line = doc.lines[position.line];
  if (!line || line.kind === 'header' || line.kind === 'comment' || line.kind === 'blank') return undefined;
  const at = position.character;
  if (line.comment && at >= line.comment.start) return undefined;
  const interpolation = line.interpolations.find((ref) => ref.start <= at && at < ref.end);
  if (interpolation) return interpolationHover(doc, interpolation, options);
  return placeholderHover(line, at) ?? wordHover(line, at, commandTableOf(options.commandTable));
}

function placeholderHover(line: DocLine, at: number): HoverData | undefined {
  if (line.kind !== 'command' && line.kind !== 'variable') return undefined;
  for (const draw of drawsIn(line.text)) {
    const form = DRAW_FORMS.find((f) => f.form === draw.form)!;
    if (draw.start <= at && at < draw.end) return { contents: drawMarkdown(form, draw.result), range: rangeOf(line.line, draw.start, draw.end) };
  }
  // `__sha(SCRIPT)__` holds its script: the span runs to the `)__` that closes it.
  for (let start = line.text.indexOf('__sha('); start >= 0; start = line.text.indexOf('__sha(', start + 1)) {
    const close = line.text.indexOf(')__', start);
    const end = close < 0 ? line.text.length : close + 3;
    if (start <= at && at < end) return { contents: placeholderMarkdown(SHA_PLACEHOLDER), range: rangeOf(line.line, start, end) };
  }
  for (const info of PLACEHOLDERS) {
    for (let start = line.text.indexOf(info.name); start >= 0; start = line.text.indexOf(info.name, start + 1)) {
      const end = start + info.name.length;
      if (start <= at && at < end) return { contents: placeholderMarkdown(info), range: rangeOf(line.line, start, end) };
    }
  }
  return undefined;
}

function wordHover(line: DocLine, at: number, table: CommandTable): HoverData | undefined {
  const within = (start: number, end: number) => start <= at && at < end;
  const hoverOf = (contents: string, start: number, end: number): HoverData => ({ contents, range: rangeOf(line.line, start, end) });
  if (line.kind === 'command') {
    if (line.weight && within(line.weight.start, line.weight.end)) {
      return hoverOf(
        `**${line.weight.text}** — weight: this command's share of the mix (weights are relative; they need not add up to 100%)`,
        line.weight.start,
        line.weight.end,
      );
    }
    if (within(line.command.start, line.command.end)) {
      const info = commandInfo(line.name, table);
      return info && hoverOf(commandMarkdown(info), line.command.start, line.command.end);
    }
    return undefined;
  }
  if (line.kind !== 'setting' && line.kind !== 'expect' && line.kind !== 'phase') return undefined;
  const info = settingInfo(line.keyword.text)!;
  if (within(line.keyword.start, line.keyword.end)) return hoverOf(settingMarkdown(info), line.keyword.start, line.keyword.end);
  if (line.kind === 'expect') {
    const parts = line.value && splitExpect(line.text, line.value.start, line.contentEnd);
    if (!parts) return undefined;
    const metric = EXPECT_METRICS.find((candidate) => candidate.name === parts.metric.text);
    if (metric && within(parts.metric.start, parts.metric.end)) return hoverOf(metricMarkdown(metric), parts.metric.start, parts.metric.end);
    const command = parts.command && commandInfo(parts.command.text, table);
    if (parts.command && command && within(parts.command.start, parts.command.end)) {
      return hoverOf(`The check applies to the ${code(command.name)} results only.\n\n${commandMarkdown(command)}`, parts.command.start, parts.command.end);
    }
    return undefined;
  }
  if (line.kind !== 'setting') return undefined;
  const arg = line.args.find((candidate) => within(candidate.start, candidate.end));
  if (!arg) return undefined;
  if (info.kind === 'sweep' && arg === line.args[0] && SWEEP_AXES[arg.value]) return hoverOf(settingMarkdown(settingInfo(arg.value)!), arg.start, arg.end);
  if (info.kind === 'find' && arg === line.args[2]) {
    const metric = EXPECT_METRICS.find((candidate) => candidate.name === arg.value && (FIND_METRICS as readonly string[]).includes(candidate.name));
    if (metric) return hoverOf(`**${metric.name}** — the latency \`find rate\` keeps under the limit\n\n${metric.doc}`, arg.start, arg.end);
  }
  if (info.kind === 'suite') {
    // `suite set,get`: the test name under the cursor within the comma list.
    for (const match of arg.text.matchAll(/[^,]+/g)) {
      const start = arg.start + (match.index ?? 0);
      const name = match[0].toLowerCase();
      if (!within(start, start + match[0].length) || !(name === 'default' || SUITE_NAMES.includes(name))) continue;
      const tests = selectSuiteTests([name]);
      const list = tests.map((test) => `- ${code(test.title)}: ${code(test.command)}${test.inline ? ' (inline)' : ''}`).join('\n');
      return hoverOf(`**${name}** — redis-benchmark ${name === 'default' ? 'default suite' : 'test'}\n\n${list}`, start, start + match[0].length);
    }
  }
  const value = valueMarkdown(info, arg.value, line.args.indexOf(arg));
  return value === undefined ? undefined : hoverOf(value, arg.start, arg.end);
}

function interpolationHover(doc: ScenarioDocument, ref: Interpolation, options: HoverOptions): HoverData {
  const env = options.env ?? {};
  if (ref.kind === 'env') {
    const value = ownValue(env, ref.name);
    const secret = looksSecret(ref.name);
    let contents: string;
    if (value !== undefined && value !== '') contents = `= ${code(secret ? MASK : value)} (from the environment)`;
    else if (ref.defaultValue !== undefined) contents = `not set — the default ${code(secret ? MASK : ref.defaultValue)} applies`;
    else contents = `not set — set it, or give a default: ${code(`\${env:${ref.name}:-value}`)}`;
    return { contents: `**${ref.name}** (environment variable) ${contents}`, range: ref.range };
  }
  const definitions = visibleVariables(doc, ref.line);
  const definition = definitions.get(ref.name);
  if (!definition) {
    return { contents: `**{{${ref.name}}}** is not defined — define it with ${code(`@${ref.name} = value`)}`, range: ref.range };
  }
  const sink = new DiagnosticSink();
  const scope = new VariableScope(definitions, {}, env, sink);
  const value = (scope.variable(ref.name, ref.nameRange) ?? []).map((piece) => piece.text).join('');
  const where = doc.fileLines.includes(definition) ? 'at file level' : 'in this scenario';
  const shown = referencesSecret(ref.name, definitions) ? MASK : value;
  const lines = [
    `**{{${ref.name}}}** = ${code(shown)}`,
    `Defined on line ${definition.line + 1} ${where}${definition.value.text !== value && shown !== MASK ? `: ${code(definition.value.text)}` : ''}`,
  ];
  const problem = sink.items.find((diagnostic) => diagnostic.severity === 'error');
  if (problem) lines.push(`⚠ ${problem.message}`);
  return { contents: lines.join('\n\n'), range: ref.range };
}

/** True when the variable's name, or any variable or environment name its value draws on, looks secret. */
function referencesSecret(name: string, definitions: ReadonlyMap<string, { interpolations: readonly Interpolation[] }>): boolean {
  // A walk with a list, not recursion: variables may use each other thousands deep.
  const seen = new Set<string>();
  const pending = [name];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (looksSecret(next)) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    for (const ref of definitions.get(next)?.interpolations ?? []) {
      if (ref.kind === 'variable') pending.push(ref.name);
      else if (looksSecret(ref.name)) return true;
    }
  }
  return false;
}
