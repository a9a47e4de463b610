// Lines read once per file for each text: a large file repeats the same lines (`clients 50`, `GET key`)
// scenario after scenario, and reading each text once keeps the checker linear and fast.
import { buildArgs, copyArg } from './arguments';
import type { DiagnosticSink } from './diagnostics';
import type { ExpandedText } from './interpolate';
import type { ArgTemplate } from './plan';
import type { SettingInfo } from './settings';
import type { ExpectValue } from './expect';
import type { ValueInput } from './valueReader';
import { readSettingValue } from './values';

/** What a file's lines have already been read into, by text; kept for the whole file. */
export interface ReadOnce {
  sink: DiagnosticSink;
  /** Values of setting lines already read in this file, by setting and text (see `settingValue`). */
  values: Map<string, Map<string, unknown>>;
  /** Arguments and expectations already read in this file, by text (see `reused`). */
  args: Map<string, ArgTemplate[]>;
  expects: Map<string, ExpectValue>;
}

/**
 * `readSettingValue`, read once per file for each setting and text: a large file repeats the same
 * lines (`clients 50`) in every scenario. Only values read without a problem, from text written out
 * in the line, and that the plan does not hold as they are (numbers, words, a `keys` value, which
 * the phase plan copies) are kept, so no two scenarios share an object.
 */
export function settingValue(input: ValueInput, context: ReadOnce): unknown {
  if (!REUSED_KINDS.has(input.setting.kind)) return readSettingValue(input);
  const name = input.setting.name;
  let values = context.values.get(name);
  if (!values) context.values.set(name, (values = new Map()));
  return reused(values, input.expanded, context.sink, () => readSettingValue(input));
}

/**
 * What `read` makes of an expanded text, read once per file for each text: a large file repeats its
 * lines scenario after scenario. Kept only for text written out in the line and read without a
 * problem; `read` must make values whose ranges, if any, are not kept (the caller places them).
 */
export function reused<T>(
  cache: Map<string, T>,
  expanded: ExpandedText,
  sink: DiagnosticSink,
  read: () => T | undefined,
  keep: (value: T) => boolean = () => true,
): T | undefined {
  const key = expanded.text;
  // Long texts (payloads) rarely repeat, and hashing them costs more than reading them.
  const reusable = key.length <= REUSED_MAX_CHARS && !expanded.hasSubstitutions;
  if (reusable) {
    const known = cache.get(key);
    if (known !== undefined) return known;
  }
  const reported = sink.reported;
  const value = read();
  if (reusable && value !== undefined && sink.reported === reported && keep(value)) {
    // Bounded: a file of all-different lines gains nothing from it.
    if (cache.size >= REUSED_LIMIT) cache.clear();
    cache.set(key, value);
  }
  return value;
}

const REUSED_LIMIT = 10_000;
const REUSED_MAX_CHARS = 256;

/** Setting kinds whose values are numbers, switches, words, key spaces and value sizes (copied by the phase plan). */
const REUSED_KINDS: ReadonlySet<SettingInfo['kind']> = new Set([
  'count',
  'integer',
  'duration',
  'rate',
  'switch',
  'choice',
  'threads',
  'name',
  'pattern',
  'keys',
  'value',
]);

/** `buildArgs`, read once per file for each text; the plan gets its own copy (no two scenarios share an object). */
export function reusedArgs(expanded: ExpandedText, sink: DiagnosticSink, context: ReadOnce): ArgTemplate[] {
  let fresh = false;
  const args = reused(context.args, expanded, sink, () => {
    fresh = true;
    return buildArgs(expanded, sink);
  })!;
  return fresh ? args : args.map(copyArg);
}
