// Untrusted data is data: server replies, INFO text, run files, baselines and settings are read into
// null-prototype records (or Maps), so a name chosen by a stranger can neither reach Object.prototype
// nor read back something inherited from it. Ground floor: no imports from the rest of src.

/**
 * The hostile-key rule: `__proto__` is dropped at every parser (in a later copy made by assignment it would
 * set a prototype); the fixed vocabularies (INFO names, profile names) drop every prototype name too; in
 * counters keyed by server-chosen names (error kinds) any other name is kept as the data it is.
 */
export const PROTO_KEY = '__proto__';

/** Names that mean something to the prototype chain: `prototype` and every member of Object.prototype (`__proto__` and `constructor` among them). */
const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(['prototype', ...Object.getOwnPropertyNames(Object.prototype)]);

/** True for a key that names prototype machinery rather than data (exact spelling: property names are case-sensitive). */
export function isPrototypeName(key: string): boolean {
  return PROTOTYPE_NAMES.has(key);
}

/** An empty record without a prototype: every key, `constructor` included, is an own data property or absent. */
export function dictionary<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** `record[key]` when `key` is the record's own property; never a value inherited from a prototype. */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && record !== null && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** `object[key]` when it is the object's own property: for the fields that decide credentials, which a polluted prototype must not supply. */
export function ownField<T extends object, K extends keyof T & string>(object: T, key: K): T[K] | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Adds each counter of `from` to `counts` (a Map: any name, `__proto__` and `constructor` included, is just a key). */
export function addCounts(counts: Map<string, number>, from: Readonly<Record<string, number>>): void {
  for (const [name, count] of Object.entries(from)) counts.set(name, (counts.get(name) ?? 0) + count);
}

/** Adds each entry of `from` whose name `into` does not hold yet (the first example of each kind wins). */
export function addFirsts<T>(into: Map<string, T>, from: Readonly<Record<string, T>>): void {
  for (const [name, value] of Object.entries(from)) if (!into.has(name)) into.set(name, value);
}

/** A Map as a record without a prototype: each key, `__proto__` included, an own data property. */
export function recordFromMap<T>(map: ReadonlyMap<string, T>): Record<string, T> {
  const record = dictionary<T>();
  for (const [key, value] of map) record[key] = value;
  return record;
}

/**
 * JSON.parse whose objects have no prototype and no `__proto__` key; arrays stay arrays. Throws what
 * JSON.parse throws (a SyntaxError) on text that is not JSON.
 */
export function parseJson(text: string): unknown {
  return withoutPrototypes(JSON.parse(text));
}

/**
 * A deep copy of JSON-like data (a setting as the editor hands it over) built like parseJson's result: own
 * enumerable properties only, whatever the prototype chain of the original holds. Null for a value JSON
 * cannot hold (a cycle, a BigInt); undefined for undefined (and a function).
 */
export function plainCopy(value: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = 'null';
  }
  return text === undefined ? undefined : parseJson(text);
}

/** Strips prototypes and `__proto__` keys from parsed JSON in place; a loop, not recursion, so deep nesting cannot overflow the stack. */
function withoutPrototypes(root: unknown): unknown {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item === null || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      for (const child of item) pending.push(child);
      continue;
    }
    const record = item as Record<string, unknown>;
    // `delete` only ever removes an own property: without one, nothing happens.
    delete record[PROTO_KEY];
    Object.setPrototypeOf(record, null);
    for (const key of Object.keys(record)) pending.push(record[key]);
  }
  return root;
}
