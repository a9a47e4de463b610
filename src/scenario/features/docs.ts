// Markdown documentation for the language's words, shared by hover and completion so that both
// show the same text, straight from the tables in settings.ts and the command table.
import type { ExpectMetricInfo, PlaceholderInfo, SettingInfo, SettingScope } from '../settings';
import type { CommandInfo } from './commandInfo';
import type { DRAW_FORMS, DrawResult } from '../draws';

/** Inline code that survives backticks inside the text. */
export function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return longest > 0 ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

const SCOPE_WORDS: Record<SettingScope, string> = { file: 'file level', scenario: 'scenario', phase: 'phase' };

export function settingMarkdown(info: SettingInfo): string {
  const facts = [
    info.default !== undefined ? `Default: ${code(info.default)}` : undefined,
    `Where: ${info.scopes.map((scope) => SCOPE_WORDS[scope]).join(', ')}`,
    `Example: ${code(info.example)}`,
  ].filter(Boolean);
  return [`**${info.name}** — ${code(info.syntax)}`, info.doc, facts.join(' · ')].join('\n\n');
}

export function commandMarkdown(info: CommandInfo): string {
  const facts = [
    `Arity ${info.arity}: ${info.args}`,
    info.keys,
    info.since ? `since ${info.since}` : undefined,
    info.flags.length > 0 ? `flags: ${info.flags.join(', ')}` : undefined,
  ].filter(Boolean);
  const source = info.origin === 'the built-in table' ? undefined : `As described by ${info.origin}`;
  const link = info.url ? `[${info.name} on redis.io](${info.url})` : undefined;
  return [`**${info.name}** — ${info.summary ?? 'Redis command'}`, facts.join(' · '), source, link].filter(Boolean).join('\n\n');
}

export function placeholderMarkdown(info: PlaceholderInfo): string {
  return `**${info.name}** — placeholder, replaced for every request\n\n${info.doc}`;
}

/** A drawn number's form (`__rand(MIN..MAX)__`…) and, for one written out, what it draws or what is wrong with it. */
export function drawMarkdown(form: (typeof DRAW_FORMS)[number], written?: DrawResult): string {
  const head = `**__${form.form}(…)__** — placeholder with its own numbers, drawn for every request\n\n${form.doc}`;
  if (!written) return head;
  if (!written.ok) return `${head}\n\n${written.message}`;
  const spec = written.spec;
  const numbers = spec.decimals > 0 ? `decimals (${spec.decimals} digits after the point)` : 'whole numbers';
  const pair = spec.width !== undefined ? `, a pair a a+${spec.width} with a from ${spec.min} to ${spec.max - spec.width}` : ` from ${spec.min} to ${spec.max}`;
  return `${head}\n\nHere: ${numbers}${pair}, ${spec.distribution}.`;
}

const METRIC_VALUES: Record<ExpectMetricInfo['value'], string> = {
  rate: 'a rate such as `100k/s`',
  duration: 'a duration such as `2ms` or `500us`',
  count: 'a count such as `0`',
  fraction: 'a percentage such as `0.1%` or a fraction from 0 to 1',
};

export function metricMarkdown(info: ExpectMetricInfo): string {
  return `**${info.name}** — expect metric\n\n${info.doc} Compared with ${METRIC_VALUES[info.value]}.`;
}

/** An example value for a metric, offered after its operator. */
export const METRIC_EXAMPLES: Record<ExpectMetricInfo['value'], string> = { rate: '100k/s', duration: '2ms', count: '0', fraction: '0.1%' };
