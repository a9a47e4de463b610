// What each argument of a captured command is, as a scenario line writes it: a key (its pattern), a value
// (`__value__`, its size recorded), a number (averaged over the sample), an option keyword (kept: it is the
// command's syntax, not data), or other text such as a hash field (its pattern, like a key's).
import { keyPositions } from '../scenario/commands';
import { keyShape } from './keyShape';
import type { MonitorArg } from './monitorLine';

export type ArgShape =
  | { kind: 'key'; pattern: string; id?: string }
  | { kind: 'value'; size: number }
  | { kind: 'number'; value: number }
  | { kind: 'word'; text: string }
  | { kind: 'field'; pattern: string };

/** Option keywords of the commands a workload sends: syntax, kept as written (upper case). */
const KEYWORDS = new Set(
  (
    'EX PX EXAT PXAT NX XX KEEPTTL GET GT LT CH INCR WITHSCORES WITHSCORE LIMIT COUNT MATCH TYPE BYSCORE BYLEX REV AGGREGATE WEIGHTS ' +
    'SUM MIN MAX LEFT RIGHT BEFORE AFTER STORE ALPHA ASC DESC BY MAXLEN MINID NOMKSTREAM IDLE JUSTID FIELDS WITHVALUES LEN RANK PERSIST FXX FNX ' +
    // The stream reads' syntax, and the one-character IDs and trims (`>`, `$`, `*`, `~`): syntax, not data.
    'GROUP BLOCK STREAMS NOACK MKSTREAM > $ * ~ = + -'
  ).split(' '),
);

/** Argument positions (after the command name) that carry data: the values a write stores. */
const VALUE_POSITIONS: Record<string, (index: number) => boolean> = {
  set: (i) => i === 1,
  setnx: (i) => i === 1,
  getset: (i) => i === 1,
  append: (i) => i === 1,
  setex: (i) => i === 2,
  psetex: (i) => i === 2,
  lset: (i) => i === 2,
  hsetnx: (i) => i === 2,
  lpush: (i) => i >= 1,
  rpush: (i) => i >= 1,
  lpushx: (i) => i >= 1,
  rpushx: (i) => i >= 1,
  sadd: (i) => i >= 1,
  hset: (i) => i >= 2 && i % 2 === 0,
  hmset: (i) => i >= 2 && i % 2 === 0,
  mset: (i) => i % 2 === 1,
  msetnx: (i) => i % 2 === 1,
};

/** Text longer than this in any other position is a value too (a payload, not a field name). */
const LONG_TEXT = 64;
const NUMBER = /^-?\d{1,18}(\.\d+)?$/;

/** The shapes of a command's arguments (`args` without the command name); undefined when the table cannot tell its keys. */
export function argumentShapes(command: string, args: readonly MonitorArg[], keepNames: boolean): ArgShape[] | undefined {
  const name = command.toLowerCase();
  let keys: number[] | undefined;
  try {
    keys = keyPositions(
      name,
      args.map((arg) => [arg.text]),
    );
  } catch {
    keys = undefined;
  }
  if (keys === undefined) return undefined;
  const keySet = new Set(keys);
  const isValue = VALUE_POSITIONS[name];
  const entryId = name === 'xadd' ? xaddIdIndex(args) : -1;
  return args.map((arg, index): ArgShape => {
    if (keySet.has(index)) return { kind: 'key', ...keyShape(arg.text, keepNames) };
    // XADD: MONITOR shows the ID the server chose; a replay lets the server choose again (`*`). Its values are data.
    if (entryId > 0 && index === entryId) return { kind: 'word', text: '*' };
    if (entryId > 0 && index > entryId && (index - entryId) % 2 === 0) return { kind: 'value', size: arg.length };
    if (isValue?.(index) || arg.length > LONG_TEXT) return { kind: 'value', size: arg.length };
    if (NUMBER.test(arg.text)) return { kind: 'number', value: Number(arg.text) };
    const upper = arg.text.toUpperCase();
    if (KEYWORDS.has(upper)) return { kind: 'word', text: upper };
    return { kind: 'field', pattern: keyShape(arg.text, keepNames).pattern };
  });
}

/** The shape's identity: equal for commands a scenario writes as the same line. */
export function shapeKey(command: string, shapes: readonly ArgShape[]): string {
  return [
    command,
    ...shapes.map((shape) => {
      switch (shape.kind) {
        case 'key':
          return `k:${shape.pattern}`;
        case 'value':
          return 'v';
        case 'number':
          return 'n';
        case 'word':
          return `w:${shape.text}`;
        case 'field':
          return `f:${shape.pattern}`;
      }
    }),
  ].join('\u0000');
}

/** XADD's entry ID position: after the key, `NOMKSTREAM` and a `MAXLEN|MINID [=|~] threshold [LIMIT count]` trim. */
function xaddIdIndex(args: readonly MonitorArg[]): number {
  const upper = (i: number) => args[i]?.text.toUpperCase();
  let index = 1;
  if (upper(index) === 'NOMKSTREAM') index++;
  if (upper(index) === 'MAXLEN' || upper(index) === 'MINID') {
    index++;
    if (upper(index) === '=' || upper(index) === '~') index++;
    index++;
    if (upper(index) === 'LIMIT') index += 2;
  }
  return index < args.length ? index : -1;
}
