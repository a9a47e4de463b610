// The run's own keys, by construction: the keys its own commands create, exactly as the engine writes them.
// `user:__key__` with 1,000 keys of size 12 is `user:` followed by 12 digits from 000000000000 to 000000000999, not
// every key starting with `user:` (someone's `user:alice`); `counter` is `counter`. An argument with any other
// placeholder (`__value__`, `__client__`) could be anybody's key: the run owns none of it.
import { keyWidth, RAND_INT_WIDTH } from '../engine';
import type { ArgTemplate, KeyPlan } from '../scenario/plan';

/** A number written in exactly `width` digits, below `below`: where `__key__` or `__rand_int__` stands. */
export interface NumberField {
  width: number;
  below: number;
}

/** One shape of key: literal characters and number fields. */
export type KeyShape = readonly (string | NumberField)[];

/** The keys an argument names under a phase's key plan; undefined when a placeholder in it could be any text. */
export function keyShape(arg: ArgTemplate, keys: KeyPlan): KeyShape | undefined {
  const shape: (string | NumberField)[] = [];
  for (const part of arg) {
    if (typeof part === 'string') shape.push(...part);
    else if (part.placeholder === 'key') shape.push({ width: keyWidth(keys.space, keys.size), below: keys.space });
    else if (part.placeholder === 'rand_int') shape.push({ width: RAND_INT_WIDTH, below: keys.space });
    else return undefined;
  }
  return shape;
}

/** As people read it: `user:<12 digits below 1000>`. */
export function showShape(shape: KeyShape): string {
  return shape.map((part) => (typeof part === 'string' ? part : `<${part.width} digits below ${part.below}>`)).join('');
}

/** True when every key `inner` names is one `outer` names: literal characters alike, each number field within its own. */
export function shapeCovers(outer: KeyShape, inner: KeyShape): boolean {
  const from = (i: number, j: number): boolean => {
    if (j === outer.length) return i === inner.length;
    const want = outer[j];
    if (typeof want === 'string') return inner[i] === want && from(i + 1, j + 1);
    const got = inner[i];
    if (got !== undefined && typeof got !== 'string') return got.width === want.width && got.below <= want.below && from(i + 1, j + 1);
    // Literal digits in place of the field: the number they spell must be one the run writes.
    const digits = inner.slice(i, i + want.width);
    if (digits.length < want.width || !digits.every((d) => typeof d === 'string' && d >= '0' && d <= '9')) return false;
    return Number(digits.join('')) < want.below && from(i + want.width, j + 1);
  };
  return from(0, 0);
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
