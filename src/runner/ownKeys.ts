// The run's own keys, by construction: the keys its own commands create, exactly as the engine writes them.
// `user:__key__` with 1,000 keys of size 12 is `user:` followed by 12 digits from 000000000000 to 000000000999, not
// every key starting with `user:` (someone's `user:alice`); `counter` is `counter`; `list:__client__` with 8 clients
// is list:0 … list:7. An argument with any other placeholder (`__value__`) could be anybody's key: the run owns none of it.
import { keyWidth, RAND_INT_WIDTH } from '../engine';
import type { ArgTemplate, KeyPlan, LoadPlan } from '../scenario/plan';

/**
 * A number below `below` (and from `from`, 0 when absent), written in exactly `width` digits (`__key__`,
 * `__rand_int__`), or without leading zeros when `width` is 0 (`__client__`, `__rand(1..1000)__`).
 */
export interface NumberField {
  width: number;
  below: number;
  from?: number;
}

/** One shape of key: literal characters and number fields. */
export type KeyShape = readonly (string | NumberField)[];

/** The keys an argument names under a phase's key plan; undefined when a placeholder in it could be any text. */
export function keyShape(arg: ArgTemplate, keys: KeyPlan, load: Pick<LoadPlan, 'clients' | 'shard'>): KeyShape | undefined {
  const shape: (string | NumberField)[] = [];
  for (const part of arg) {
    if (typeof part === 'string') shape.push(...part);
    else if (part.placeholder === 'key') shape.push({ width: keyWidth(keys.space, keys.size), below: keys.space });
    else if (part.placeholder === 'rand_int') shape.push({ width: RAND_INT_WIDTH, below: keys.space });
    else if (part.placeholder === 'client') shape.push({ width: 0, below: load.shard?.totalClients ?? load.clients });
    else if (part.draw && part.draw.decimals === 0 && part.draw.min >= 0) shape.push({ width: 0, below: part.draw.max + 1, from: part.draw.min });
    // Decimals and negative numbers in a key: not a shape the clean-up matches; the run owns none of it.
    else return undefined;
  }
  return shape;
}

/** As people read it: `user:<12 digits below 1000>`. */
export function showShape(shape: KeyShape): string {
  return shape
    .map((part) => (typeof part === 'string' ? part : `<${part.width || 'a number of'} digits${part.from ? ` from ${part.from}` : ''} below ${part.below}>`))
    .join('');
}

/** True when every key `inner` names is one `outer` names: literal characters alike, each number field within its own. */
export function shapeCovers(outer: KeyShape, inner: KeyShape): boolean {
  const from = (i: number, j: number): boolean => {
    if (j === outer.length) return i === inner.length;
    const want = outer[j];
    if (typeof want === 'string') return inner[i] === want && from(i + 1, j + 1);
    const got = inner[i];
    const lowest = want.from ?? 0;
    if (got !== undefined && typeof got !== 'string')
      return got.width === want.width && got.below <= want.below && (got.from ?? 0) >= lowest && from(i + 1, j + 1);
    // Literal digits in place of the field: the number they spell must be one the run writes.
    if (want.width > 0) {
      const digits = inner.slice(i, i + want.width);
      return isDigits(digits, want.width) && Number(digits.join('')) < want.below && Number(digits.join('')) >= lowest && from(i + want.width, j + 1);
    }
    // Without padding: `0`, or digits without a leading zero, as many as the largest number has.
    const most = String(Math.max(0, want.below - 1)).length;
    for (let length = 1; length <= most; length++) {
      const digits = inner.slice(i, i + length);
      if (!isDigits(digits, length) || (length > 1 && digits[0] === '0')) return false;
      const number = Number(digits.join(''));
      if (number < want.below && number >= lowest && from(i + length, j + 1)) return true;
    }
    return false;
  };
  return from(0, 0);
}

function isDigits(parts: KeyShape, length: number): boolean {
  return parts.length === length && parts.every((part) => typeof part === 'string' && part >= '0' && part <= '9');
}

/** True when `key` (as the server names it) is one of the keys `shapes` name. */
export function isOwnKey(shapes: readonly KeyShape[], key: string): boolean {
  const inner = [...key];
  return shapes.some((shape) => shapeCovers(shape, inner));
}

/** The test a clean-up applies to each key it finds. */
export function ownKeyTest(shapes: readonly KeyShape[]): (key: string) => boolean {
  return (key) => isOwnKey(shapes, key);
}
