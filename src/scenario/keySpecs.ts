// Redis 7's key specs (COMMAND INFO): where a command's keys begin (an index, or after a keyword) and how
// they go on (a range, or a count given by a numkeys argument), evaluated as the server does
// (getKeysUsingKeySpecs in db.c) over a command whose computed arguments are unknown.

export type KeySpecBegin = { kind: 'index'; index: number } | { kind: 'keyword'; keyword: string; startFrom: number } | { kind: 'unknown' };

export type KeySpecFind =
  | { kind: 'range'; lastKey: number; keyStep: number; limit: number }
  | { kind: 'keynum'; keyNumIndex: number; firstKey: number; keyStep: number }
  | { kind: 'unknown' };

export interface KeySpec {
  /** Lower case: `rw`, `access`, `incomplete`, `variable_flags`… */
  flags: readonly string[];
  begin: KeySpecBegin;
  find: KeySpecFind;
}

/**
 * A spec as the built-in table keeps it, one line of text (scripts/key-specs.mjs writes it): `rw insert|i1|r0,1,0`
 * is flags, begin (`i<index>`, `k<startFrom>,<keyword>`, `u`) and find (`r<lastKey>,<keyStep>,<limit>`,
 * `n<keyNumIndex>,<firstKey>,<keyStep>`, `u`). Anything else reads as unknown, which counts as incomplete.
 */
export function decodeKeySpec(text: string): KeySpec {
  const [flags = '', from = 'u', to = 'u'] = text.split('|');
  const numbers = (body: string) => body.split(',').map(Number);
  let begin: KeySpecBegin = { kind: 'unknown' };
  if (from.startsWith('i')) begin = { kind: 'index', index: Number(from.slice(1)) };
  else if (from.startsWith('k')) {
    const comma = from.indexOf(',');
    begin = { kind: 'keyword', keyword: from.slice(comma + 1), startFrom: Number(from.slice(1, comma)) };
  }
  let find: KeySpecFind = { kind: 'unknown' };
  if (to.startsWith('r')) {
    const [lastKey, keyStep, limit] = numbers(to.slice(1));
    find = { kind: 'range', lastKey, keyStep, limit };
  } else if (to.startsWith('n')) {
    const [keyNumIndex, firstKey, keyStep] = numbers(to.slice(1));
    find = { kind: 'keynum', keyNumIndex, firstKey, keyStep };
  }
  return { flags: flags ? flags.split(' ') : [], begin, find };
}

/**
 * The argv positions (the command name is 0) of the keys `specs` find in `argv`, where undefined stands for
 * a computed argument. `incomplete` when a spec says it may miss keys or is of a kind this does not know;
 * undefined when a computed argument decides where keys are (a numkeys, or a word that may be the keyword).
 */
export function keySpecPositions(specs: readonly KeySpec[], argv: readonly (string | undefined)[]): number[] | 'incomplete' | undefined {
  const keys = new Set<number>();
  const argc = argv.length;
  for (const spec of specs) {
    if (spec.flags.includes('incomplete') || spec.begin.kind === 'unknown' || spec.find.kind === 'unknown') return 'incomplete';
    const first = beginOf(spec.begin, argv);
    if (first === undefined) return undefined;
    if (first === 0) continue; // keyword absent: this spec finds no key
    let from = first;
    let last: number;
    let step: number;
    if (spec.find.kind === 'range') {
      const { lastKey, limit } = spec.find;
      last = lastKey >= 0 ? first + lastKey : limit > 0 ? first + Math.floor((argc - first) / limit) + lastKey : argc + lastKey;
      step = spec.find.keyStep;
    } else {
      const countArg = argv[first + spec.find.keyNumIndex];
      if (first + spec.find.keyNumIndex >= argc) continue; // the server reports the arity error
      if (countArg === undefined) return undefined;
      const count = /^\d{1,9}$/.test(countArg) ? Number(countArg) : -1;
      if (count < 0) continue; // the server answers a syntax error: no request with keys
      from = first + spec.find.firstKey;
      step = spec.find.keyStep;
      last = from + (count - 1) * Math.max(1, step);
    }
    for (let i = from; i <= last && i < argc; i += Math.max(1, step)) keys.add(i);
  }
  return [...keys].sort((a, b) => a - b);
}

/** Where a spec's keys begin (argv position); 0 when its keyword is absent; undefined when a computed word may be it. */
function beginOf(begin: KeySpecBegin, argv: readonly (string | undefined)[]): number | undefined {
  if (begin.kind === 'index') return begin.index;
  if (begin.kind !== 'keyword') return undefined;
  const argc = argv.length;
  const keyword = begin.keyword.toLowerCase();
  const forward = begin.startFrom > 0;
  for (let i = forward ? begin.startFrom : argc + begin.startFrom; forward ? i < argc : i >= 1; i += forward ? 1 : -1) {
    if (i < 1 || i >= argc) break;
    const word = argv[i];
    if (word === undefined) return undefined;
    if (word.toLowerCase() === keyword) return i + 1;
  }
  return 0;
}
