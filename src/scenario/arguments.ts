// Command arguments → plan templates: placeholders split out of each argument, `*N` repetition and
// `( … )*N` groups expanded, so the engine receives a flat argument list.
import type { ArgPart, ArgTemplate, DrawSpec, Placeholder, Range } from './plan';
import { replaceFix, type DiagnosticSink } from './diagnostics';
import type { ExpandedText } from './interpolate';
import { tokenizeArgs, type ArgLex, type LexProblem } from './lexer';
import { PLACEHOLDERS } from './settings';
import { closest } from './suggest';
import { parseCount } from './units';
import { groupDigits } from './numberText';
import { DRAW_OPENING, DRAW_PLACEHOLDER, drawsIn } from './draws';

/** A command expanding to more arguments than this is refused: it would not fit a sane request. */
export const MAX_ARGS = 1_000_000;

/** Groups nest at most this deep: each level is a stack frame when the groups are expanded. */
export const MAX_GROUP_DEPTH = 32;

const PLACEHOLDER_SPLIT = /(__(?:key|rand_int|value|client|fields|now)__|__(?:rand|float|range)\([^()\s]*\)__)/;
const PLACEHOLDER_BY_TEXT = new Map(PLACEHOLDERS.map((info) => [info.name, info.placeholder]));
const PLACEHOLDER_NAMES = PLACEHOLDERS.map((info) => info.name);
const PLACEHOLDER_LOOKALIKE = /__([A-Za-z](?:[A-Za-z_]{0,18}[A-Za-z])?)__/g;

/** Splits an argument into literal text and placeholders. */
export function argTemplate(value: string): ArgTemplate {
  if (!value.includes('__')) return [value];
  const parts: ArgPart[] = [];
  for (const piece of value.split(PLACEHOLDER_SPLIT)) {
    const placeholder: Placeholder | undefined = PLACEHOLDER_BY_TEXT.get(piece);
    const draw = placeholder ? undefined : drawOf(piece);
    if (placeholder) parts.push({ placeholder });
    else if (draw) parts.push({ placeholder: 'draw', draw });
    // A range inside other text is refused (lintDraws): it stays literal.
    else if (piece) parts.push(piece);
  }
  // Copied at its exact size: a plan keeps its templates, and an array grown by push has spare room.
  return parts.length > 0 ? parts.slice() : [''];
}

/** The draw a piece of `argTemplate`'s split is, when it is a valid one (a range only as a whole argument). */
function drawOf(piece: string): DrawSpec | undefined {
  if (!piece.startsWith('__') || !piece.endsWith(')__')) return undefined;
  const [found] = drawsIn(piece);
  return found?.result.ok && found.start === 0 && found.end === piece.length ? found.result.spec : undefined;
}

/**
 * The arguments a word stands for: one template, or a range's two (`__range(0..1000,100)__` is the pair `a a+100`,
 * both sides sharing one draw, so the key positions and the argument count are those the server sees).
 */
function wordArgs(value: string): ArgTemplate[] {
  const template = argTemplate(value);
  const only = template.length === 1 ? template[0] : undefined;
  if (typeof only === 'object' && only.draw?.form === 'range') {
    return [[{ placeholder: 'draw', draw: only.draw, side: 'min' }], [{ placeholder: 'draw', draw: only.draw, side: 'max' }]];
  }
  if (template.some((part) => typeof part === 'object' && part.draw?.form === 'range')) {
    return [template.map((part) => (typeof part === 'object' && part.draw?.form === 'range' ? part.draw.text : part))];
  }
  return [template];
}

/** A copy with its own placeholder objects (placeholders are drawn per occurrence). */
export function copyArg(arg: ArgTemplate): ArgTemplate {
  return arg.map((part) => (typeof part === 'string' ? part : { ...part }));
}

type ArgNode = { kind: 'word'; lex: ArgLex } | { kind: 'group'; open: ArgLex; close?: ArgLex; items: ArgNode[] };

/**
 * Reads the arguments in `expanded` (the text after the command name) into templates, reporting
 * problems at their source ranges. Returns the expanded list.
 */
export function buildArgs(expanded: ExpandedText, sink: DiagnosticSink): ArgTemplate[] {
  const problems: LexProblem[] = [];
  const tokens = tokenizeArgs(expanded.text, 0, expanded.text.length, true, problems);
  // Quote problems in the source line were reported by the parser; report only those from substituted text.
  for (const problem of problems) {
    if (expanded.isSubstituted(problem.start, problem.end)) sink.error(expanded.range(problem.start, problem.end), problem.code, problem.message);
  }
  const root: ArgNode[] = [];
  const stack: Extract<ArgNode, { kind: 'group' }>[] = [];
  for (const lex of tokens) {
    const items = stack.length > 0 ? stack[stack.length - 1].items : root;
    if (lex.kind === 'group-open') {
      if (stack.length >= MAX_GROUP_DEPTH) {
        sink.error(
          expanded.range(lex.start, lex.end),
          'group-too-deep',
          `groups nest more than ${MAX_GROUP_DEPTH} deep here — write the inner groups out, or multiply their \`*N\` counts`,
        );
        return [];
      }
      const group: ArgNode = { kind: 'group', open: lex, items: [] };
      items.push(group);
      stack.push(group);
    } else if (lex.kind === 'group-close') {
      const group = stack.pop();
      if (group) group.close = lex;
      else sink.error(expanded.range(lex.start, lex.end), 'unbalanced-group', 'this `)` closes no group — remove it, or quote it: `")"`');
    } else {
      items.push({ kind: 'word', lex });
      lintPlaceholders(expanded, lex, sink);
      lintDraws(expanded, lex, sink);
    }
  }
  for (const open of stack) {
    sink.error(
      expanded.range(open.open.start, open.open.end),
      'unbalanced-group',
      'unclosed `(` — close the group with `)*N`, such as `(__key__ __value__)*10`',
    );
  }
  const args: ArgTemplate[] = [];
  const limit = { exceeded: false };
  expandNodes(root, expanded, sink, args, limit);
  if (limit.exceeded) {
    sink.error(
      expanded.range(0, expanded.text.length),
      'too-many-args',
      `this command expands to more than ${groupDigits(MAX_ARGS)} arguments — lower the \`*N\` counts`,
    );
  }
  return args.slice(); // at its exact size: the plan keeps it
}

function repeatCount(repeat: ArgLex['repeat'], expanded: ExpandedText, sink: DiagnosticSink): number {
  if (!repeat) return 1;
  const count = parseCount(repeat.text);
  if (!count.ok) {
    sink.error(expanded.range(repeat.start, repeat.end), 'invalid-repeat', `\`*${repeat.text}\`: ${count.message}`);
    return 1;
  }
  return count.value;
}

function expandNodes(nodes: ArgNode[], expanded: ExpandedText, sink: DiagnosticSink, out: ArgTemplate[], limit: { exceeded: boolean }): void {
  for (const node of nodes) {
    if (limit.exceeded) return;
    if (node.kind === 'word') {
      const count = repeatCount(node.lex.repeat, expanded, sink);
      if (out.length + count > MAX_ARGS) {
        limit.exceeded = true;
        return;
      }
      // Each occurrence is its own template object: placeholders are drawn per occurrence.
      for (let i = 0; i < count; i++) out.push(...wordArgs(node.lex.value));
    } else {
      const count = repeatCount(node.close?.repeat, expanded, sink);
      const once: ArgTemplate[] = [];
      expandNodes(node.items, expanded, sink, once, limit);
      if (limit.exceeded || out.length + once.length * count > MAX_ARGS) {
        limit.exceeded = true;
        return;
      }
      for (let i = 0; i < count; i++) for (const arg of once) out.push(copyArg(arg));
    }
  }
}

/** Warns about `__keys__`-like words that are probably misspelt placeholders. */
function lintPlaceholders(expanded: ExpandedText, lex: ArgLex, sink: DiagnosticSink): void {
  if (sink.full || lex.quoted || lex.value.length > 10_000 || !lex.value.includes('__') || WITHOUT_LOOKALIKES.has(lex.value)) return;
  let clean = true;
  for (const match of lex.value.matchAll(PLACEHOLDER_LOOKALIKE)) {
    if (PLACEHOLDER_BY_TEXT.has(match[0])) continue;
    const suggestion = closest(match[0], PLACEHOLDER_NAMES);
    if (!suggestion) continue;
    clean = false;
    const at = lex.start + (match.index ?? 0);
    const range: Range = expanded.range(at, at + match[0].length);
    const fixes = expanded.isSubstituted(lex.start, lex.end) ? undefined : [replaceFix(range, suggestion)];
    sink.warning(
      range,
      'unknown-placeholder',
      `\`${match[0]}\` is not a placeholder — did you mean \`${suggestion}\`? (quote the argument to silence this)`,
      fixes,
    );
  }
  if (!clean) return;
  // The same arguments come back in scenario after scenario; the set is bounded, so it cannot grow with a file.
  if (WITHOUT_LOOKALIKES.size >= 1024) WITHOUT_LOOKALIKES.clear();
  WITHOUT_LOOKALIKES.add(lex.value);
}

/** Arguments already found to hold no misspelt placeholder (the answer depends on the text alone). */
const WITHOUT_LOOKALIKES = new Set<string>();

/**
 * Errors in `__rand(…)__`, `__float(…)__` and `__range(…)__`: bounds, width and distribution (draws.ts), a range
 * that is not a whole argument (it stands for two), a drawn number beside `__value__` in one argument, and a
 * placeholder broken in two by a space (it is one word).
 */
function lintDraws(expanded: ExpandedText, lex: ArgLex, sink: DiagnosticSink): void {
  const value = lex.value;
  if (!value.includes('__') || !DRAW_OPENING.test(value)) return;
  // Offsets inside a quoted word do not map one to one: the whole word is the place then.
  const at = (start: number, end: number) => (lex.quoted ? expanded.range(lex.start, lex.end) : expanded.range(lex.start + start, lex.start + end));
  const draws = drawsIn(value);
  for (const draw of draws) {
    if (!draw.result.ok) sink.error(at(draw.start, draw.end), 'invalid-draw', draw.result.message);
    else if (draw.form === 'range' && (draw.start > 0 || draw.end < value.length)) {
      sink.error(
        at(draw.start, draw.end),
        'range-not-whole',
        `\`${draw.result.spec.text}\` stands for two arguments (a a+WIDTH): write it as an argument of its own`,
      );
    }
  }
  if (draws.length > 0 && value.includes('__value__')) {
    sink.error(at(0, value.length), 'draw-beside-value', 'a drawn number and `__value__` in one argument — put them in arguments of their own');
  }
  const unclosed = value.replace(DRAW_PLACEHOLDER, '').search(DRAW_OPENING);
  if (unclosed >= 0) {
    sink.error(
      at(0, value.length),
      'unclosed-draw',
      `\`${value}\` opens a drawn number but does not close it with \`)__\` — write it as one word without spaces, such as \`__range(0..1000,100)__\``,
    );
  }
}
