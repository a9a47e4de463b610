// Redis Cluster refuses a command whose keys live in different hash slots (CROSSSLOT). On a cluster target,
// every multi-key command (MSET, MGET, RPOPLPUSH, SINTER, DEL with several keys…) must keep its keys in one
// slot: they share one non-empty `{hash tag}` made of text, `__key__` and `__client__` (the same within a
// request), or they are the same key. Anything else is reported here, before a run, with the fix.
import { BUILT_IN_TABLE, type CommandTable } from './commandTable';
import { rangeOf } from './diagnostics';
import { isSubscribeCommand } from './pubsubGroups';
import { SUITE_TESTS } from './suites';
import { partText } from './draws';
import type { ArgTemplate, CommandTemplate, Diagnostic, Range, ScenarioPlan, TestPlan, TextFix } from './plan';

export const CROSS_SLOT_CODE = 'cluster-cross-slot';

/** What a placeholder is written as in a scenario. */
const argText = (arg: ArgTemplate) => arg.map(partText).join('');

/** Placeholders with one value for every argument of a request; `__rand_int__`, `__value__` and drawn numbers (`__rand(…)__`) are drawn per argument. */
const STABLE: ReadonlySet<string> = new Set(['key', 'client']);
const UNSTABLE = /__(rand_int|value|now)__|__(rand|float|range)\(/;
const SUITE_TITLES: ReadonlySet<string> = new Set(SUITE_TESTS.map((test) => test.title));

/**
 * The hash tag of a key template, as Redis reads it (the text between the first `{` and the next `}`, when
 * not empty), written out; undefined when the key has none. A tag holding a placeholder drawn per argument
 * cannot be shared: it is returned with `stable` false.
 */
export function hashTag(arg: ArgTemplate): { text: string; stable: boolean } | undefined {
  const text = argText(arg);
  const open = text.indexOf('{');
  if (open < 0) return undefined;
  const close = text.indexOf('}', open + 1);
  if (close <= open + 1) return undefined;
  const tag = text.slice(open + 1, close);
  return { text: tag, stable: !UNSTABLE.test(tag) };
}

/**
 * Indexes (into `args`) of the command's keys: those the runner set from the target's own table, else from
 * `table`'s key specs read over the arguments as written (a placeholder as its text); empty when the table
 * cannot tell (a command it does not know, a placeholder as numkeys).
 */
export function keyIndexes(command: CommandTemplate, table: CommandTable = BUILT_IN_TABLE): number[] {
  return command.keys ?? table.keyIndexes(command.name, command.args.map(argText)) ?? [];
}

/** Why the keys of `command` may land in different slots, or undefined when they cannot. */
export function crossSlotReason(command: CommandTemplate, table: CommandTable = BUILT_IN_TABLE): string | undefined {
  // A subscriber's shard channels are subscribed slot by slot, each on its master (src/engine/pubsub/subscriberRoutes.ts).
  if (isSubscribeCommand(command.name)) return undefined;
  return keysCrossSlotReason(keyIndexes(command, table).map((i) => command.args[i]));
}

/** Why `keys` (of one request: a command, or a group's unit) may land in different slots, or undefined when they cannot. */
function keysCrossSlotReason(keys: ArgTemplate[]): string | undefined {
  if (keys.length < 2) return undefined;
  const texts = keys.map(argText);
  const sameKey = texts.every((text) => text === texts[0]) && keys[0].every((part) => typeof part === 'string' || STABLE.has(part.placeholder));
  if (sameKey) return undefined;
  const tags = keys.map(hashTag);
  const missing = texts.filter((_, i) => !tags[i]);
  if (missing.length > 0) {
    const counts = new Map<string, number>();
    for (const text of missing) counts.set(text, (counts.get(text) ?? 0) + 1);
    const named = [...counts].map(([text, n]) => `\`${text}\`${n > 1 ? ` ×${n}` : ''}`).join(', ');
    return `${named} ${missing.length === 1 ? 'has' : 'have'} no {hash tag}`;
  }
  const unstable = tags.find((tag) => !tag!.stable);
  if (unstable) return `the hash tag {${unstable.text}} changes with every argument (__rand_int__, __value__ and __rand(…)__ are drawn per argument)`;
  const distinct = [...new Set(tags.map((tag) => tag!.text))];
  if (distinct.length > 1) return `the keys have different hash tags (${distinct.map((t) => `{${t}}`).join(', ')})`;
  return undefined;
}

/** Where each argument of a command line is, when the line can be read token by token (no `*N`, no variables). */
function argumentRanges(lineText: string, range: Range, command: CommandTemplate): Range[] | undefined {
  const content = lineText.slice(range.start.character, range.end.character);
  if (content.includes('${')) return undefined;
  const tokens: { start: number; end: number; text: string }[] = [];
  const pattern = /"(?:[^"\\]|\\.)*"|'[^']*'|\S+/g;
  for (let match = pattern.exec(content); match; match = pattern.exec(content)) {
    tokens.push({ start: range.start.character + match.index, end: range.start.character + match.index + match[0].length, text: match[0] });
  }
  const nameAt = tokens.findIndex((token) => token.text.toUpperCase() === command.name);
  if (nameAt < 0) return undefined;
  const args = tokens.slice(nameAt + 1);
  if (args.length !== command.args.length || args.some((token, i) => token.text !== argText(command.args[i]))) return undefined;
  return args.map((token) => rangeOf(range.start.line, token.start, token.end));
}

/** The fixes: wrap `__key__` in a tag (keys spread over all slots), or one literal tag for all keys (one slot). Keys may sit on several lines (a group). */
function tagFixes(lineText: (line: number) => string | undefined, keys: { arg: ArgTemplate; range: Range }[]): TextFix[] {
  const fixes: TextFix[] = [];
  const braceFree = keys.every(({ arg }) => !argText(arg).includes('{'));
  if (!braceFree) return fixes;
  const first = keys[0].range.start;
  const last = keys[keys.length - 1].range.end;
  const lines: string[] = [];
  for (let line = first.line; line <= last.line; line++) {
    const text = lineText(line);
    if (text === undefined) return fixes;
    lines.push(text);
  }
  // Offsets into the keys' lines joined by \n, so one edit makes the whole fix.
  const joined = lines.join('\n');
  const offset = (at: { line: number; character: number }) =>
    lines.slice(0, at.line - first.line).reduce((sum, text) => sum + text.length + 1, 0) + at.character;
  const base = offset(first);
  const span = joined.slice(base, offset(last));
  const edits = (rewrite: (text: string) => string) => {
    let text = span;
    for (const key of [...keys].reverse()) {
      const start = offset(key.range.start) - base;
      const end = offset(key.range.end) - base;
      text = text.slice(0, start) + rewrite(text.slice(start, end)) + text.slice(end);
    }
    return { range: { start: first, end: last }, newText: text };
  };
  if (keys.every(({ arg }) => argText(arg).includes('__key__'))) {
    fixes.push({
      title: 'Put `__key__` in a shared hash tag `{__key__}` (each request in one slot, requests over all slots)',
      ...edits((text) => text.replace('__key__', '{__key__}')),
    });
  }
  fixes.push({ title: 'Prefix every key with the hash tag `{rbench}` (all of them in one slot, on one node)', ...edits((text) => `{rbench}${text}`) });
  return fixes;
}

/**
 * The cross-slot problems of a cluster scenario's commands, one per command line: an error at its keys, with
 * quick fixes when `lineText` gives the scenario's lines. Pure: the resolver calls it for `cluster on`, the
 * runner for a profile (or a server) that turns out to be a cluster.
 */
export function clusterKeyDiagnostics(plan: ScenarioPlan, lineText?: (line: number) => string | undefined, table: CommandTable = BUILT_IN_TABLE): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const point of plan.points) {
    for (const phase of point.phases) {
      for (const test of phase.tests) {
        if (test.group) {
          const place = `group ${test.group.source?.start.line ?? test.name}`;
          const problem = seen.has(place) ? undefined : groupDiagnostic(test, lineText, table);
          seen.add(place);
          if (problem) diagnostics.push(problem);
        }
        for (const { command } of test.commands) {
          // A `suite` line holds several tests at one place: the label tells them apart.
          const place = `${command.source ? `${command.source.start.line}:${command.source.start.character}` : ''} ${command.label}`;
          if (seen.has(place)) continue;
          seen.add(place);
          const reason = crossSlotReason(command, table);
          if (!reason) continue;
          // A suite's test carries redis-benchmark's title (`MSET (10 keys)`).
          const suiteTest = SUITE_TITLES.has(test.name) && test.name !== command.label ? test.name : undefined;
          diagnostics.push(crossSlotDiagnostic(command, reason, suiteTest, lineText, table));
        }
      }
    }
  }
  return diagnostics;
}

/** How to keep a group's unit in one slot. */
export const GROUP_SLOT_FIX =
  'Use the same key in every command (e.g. `k:__key__` each time), or give every key the same {hash tag}, e.g. `a:{__key__}` and `b:{__key__}` (each unit in one slot, units spread over all slots)';

/** The commands of a test that name keys, with the indexes of their key arguments. */
function keyedCommands(test: TestPlan, table: CommandTable): { command: CommandTemplate; indexes: number[] }[] {
  return test.commands.map(({ command }) => ({ command, indexes: keyIndexes(command, table) })).filter(({ indexes }) => indexes.length > 0);
}

/** Why the keys of a group's unit may land in different slots, or undefined when they cannot (the engine's check too). */
export function groupCrossSlotReason(test: TestPlan, table: CommandTable = BUILT_IN_TABLE): string | undefined {
  return keysCrossSlotReason(keyedCommands(test, table).flatMap(({ command, indexes }) => indexes.map((i) => command.args[i])));
}

/**
 * A group's unit goes whole to the master of its slot (a MULTI … EXEC cannot span nodes): every key of every
 * command of the unit must hash to one slot. The problem is reported at the `group` line, with the fixes.
 */
function groupDiagnostic(test: TestPlan, lineText: ((line: number) => string | undefined) | undefined, table: CommandTable): Diagnostic | undefined {
  const commands = test.commands.map(({ command }) => command);
  const keyed = keyedCommands(test, table);
  const reason = groupCrossSlotReason(test, table);
  if (!reason) return undefined;
  const diagnostic: Diagnostic = {
    range: test.group!.source ?? commands[0]?.source ?? rangeOf(0, 0, 0),
    severity: 'error',
    code: CROSS_SLOT_CODE,
    message:
      `group ${test.name}: on a Redis Cluster a unit goes whole to the master of its hash slot, so all the keys of its commands must be in one slot, or the cluster answers CROSSSLOT: ${reason}. ` +
      GROUP_SLOT_FIX,
  };
  const keys: { arg: ArgTemplate; range: Range }[] = [];
  for (const { command, indexes } of keyed) {
    const text = command.source ? lineText?.(command.source.start.line) : undefined;
    const ranges = text !== undefined && command.source ? argumentRanges(text, command.source, command) : undefined;
    if (!ranges) return diagnostic;
    for (const i of indexes) keys.push({ arg: command.args[i], range: ranges[i] });
  }
  const fixes = lineText ? tagFixes(lineText, keys) : [];
  if (fixes.length > 0) diagnostic.fixes = fixes;
  return diagnostic;
}

function crossSlotDiagnostic(
  command: CommandTemplate,
  reason: string,
  suiteTest: string | undefined,
  lineText: ((line: number) => string | undefined) | undefined,
  table: CommandTable,
): Diagnostic {
  const text = command.source ? lineText?.(command.source.start.line) : undefined;
  const ranges = text !== undefined && command.source ? argumentRanges(text, command.source, command) : undefined;
  const keys = ranges ? keyIndexes(command, table).map((i) => ({ arg: command.args[i], range: ranges[i] })) : [];
  const range = keys.length > 0 ? { start: keys[0].range.start, end: keys[keys.length - 1].range.end } : (command.source ?? rangeOf(0, 0, 0));
  const diagnostic: Diagnostic = {
    range,
    severity: 'error',
    code: CROSS_SLOT_CODE,
    message:
      `${command.name} on a Redis Cluster needs all its keys in one hash slot, or the cluster answers CROSSSLOT: ${reason}. ` +
      (suiteTest === undefined
        ? 'Give every key the same {hash tag}, e.g. `k1:{__key__}` and `k2:{__key__}` (each request in one slot, requests spread over all slots)'
        : `It is the suite's ${suiteTest} test: leave it out of the \`suite\` list, or write the command yourself with a shared tag, e.g. \`${command.name} (key:{__key__}:__rand_int__ __value__)*10\``),
  };
  const fixes = keys.length > 0 && lineText ? tagFixes(lineText, keys) : [];
  if (fixes.length > 0) diagnostic.fixes = fixes;
  return diagnostic;
}

/**
 * Why a scenario cannot run on a cluster that `where` names (`the profile "prod"`, a cluster detected at run
 * time), or undefined: the runner's check when the scenario itself does not say `cluster on`.
 */
export function crossSlotRefusal(plan: ScenarioPlan, where: string): string | undefined {
  const [first, ...more] = clusterKeyDiagnostics(plan);
  if (!first) return undefined;
  const others = more.length > 0 ? ` (and ${more.length} more)` : '';
  return `${where} is a Redis Cluster, but "${plan.name}" has a request whose keys can fall in different hash slots — line ${first.range.start.line + 1}: ${first.message}${others}`;
}
