// `sweep server "appendonly no", "appendonly yes" "appendfsync always"`: each point (between commas) is a list
// of redis.conf directives, one per quoted string (or one unquoted directive), for a throwaway server of
// its own. Each directive passes the same check as a `server` line (values.ts, serverDirectives.ts).
import type { Range, ServerDirective } from './plan';
import { isSpace, tokenizeArgs, type LexProblem } from './lexer';
import { MAX_SWEEP_POINTS } from './settings';
import { serverDirectiveOf } from './values';
import { quotedEnd, splitList, type Reader, type Span } from './valueReader';
import { groupDigits } from './numberText';

/** One point of a server sweep: numbered from 1, with its directives. */
export interface ServerPoint {
  value: number;
  range: Range;
  server: ServerDirective[];
}

/** The axis name of a server sweep; its points carry directives, not numbers. */
export const SERVER_AXIS = 'server';

/** `appendonly=yes appendfsync=always`: a point's label, in the shape of `clients=4`. */
export function serverPointLabel(directives: readonly ServerDirective[]): string {
  const arg = (args: readonly string[]) => {
    const text = args.join(' ');
    return /^[^\s"]+$/.test(text) ? text : JSON.stringify(text);
  };
  return directives.map((directive) => `${directive.name}=${arg(directive.args)}`).join(' ');
}

/** A point's directive spans: each quoted string, or the whole point when nothing is quoted. */
function directiveSpans(reader: Reader, text: string, point: Span): { start: number; end: number }[] | undefined {
  if (!/["']/.test(point.text)) return [{ start: point.start, end: point.end }];
  const spans: { start: number; end: number }[] = [];
  for (let i = point.start; i < point.end; i++) {
    if (isSpace(text[i])) continue;
    if (text[i] !== '"' && text[i] !== "'") {
      let end = i;
      while (end < point.end && !isSpace(text[end]) && text[end] !== '"' && text[end] !== "'") end++;
      return reader.fail(
        { start: i, end },
        `quote each directive of a \`sweep server\` point that has several: \`"appendonly yes" "appendfsync always"\` — \`${text.slice(i, end)}\` is outside the quotes`,
      );
    }
    const end = quotedEnd(text, i, point.end);
    spans.push({ start: i + 1, end: end - 1 });
    i = end - 1;
  }
  return spans;
}

/** `sweep server P1, P2, …`: one value per point, numbered from 1, each with its directives. */
export function readServerSweepValues(reader: Reader, text: string, from: number): ServerPoint[] | undefined {
  const values: ServerPoint[] = [];
  const seen = new Map<string, number>();
  // The points: split on commas outside quotes.
  const points = splitList(text, from, text.length, true);
  if (points.length > MAX_SWEEP_POINTS)
    return reader.fail({ start: from, end: text.length }, `this sweep has more than ${groupDigits(MAX_SWEEP_POINTS)} values`, 'too-many-points');
  for (const point of points) {
    if (point.text === '')
      return reader.fail({ start: Math.max(0, point.start - 1), end: point.start + 1 }, '`sweep server` has an empty point — remove the extra comma');
    const spans = directiveSpans(reader, text, point);
    if (!spans) return undefined;
    const directives: ServerDirective[] = [];
    for (const span of spans) {
      const problems: LexProblem[] = [];
      const words = tokenizeArgs(text, span.start, span.end, false, problems);
      if (words.length === 0) return reader.fail({ start: span.start - 1, end: span.end + 1 }, 'an empty directive — write one such as `"appendonly yes"`');
      const directive = serverDirectiveOf(reader, words);
      if (!directive) return undefined;
      // `save` lines add up in redis.conf; any other directive given twice would hide one of its values.
      if (directive.name !== 'save' && directives.some((other) => other.name === directive.name))
        return reader.fail(span, `\`${directive.name}\` is set twice in this point — keep one`, 'duplicate-setting');
      directives.push(directive);
    }
    const label = serverPointLabel(directives);
    const earlier = seen.get(label);
    if (earlier !== undefined) return reader.fail(point, `this point is the same as point ${earlier} (\`${label}\`) — remove one`, 'duplicate-value');
    seen.set(label, values.length + 1);
    values.push({ value: values.length + 1, range: reader.range(point), server: directives });
  }
  return values;
}
