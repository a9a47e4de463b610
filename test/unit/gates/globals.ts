// Watches the shared prototypes a polluting parser would change: what was added or changed since the
// snapshot, and a way to put them back so one failing test cannot poison the next.

const WATCHED: [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
];

type Snapshot = Map<object, Map<PropertyKey, PropertyDescriptor>>;

function describe(target: object): Map<PropertyKey, PropertyDescriptor> {
  const own = new Map<PropertyKey, PropertyDescriptor>();
  for (const key of Reflect.ownKeys(target)) own.set(key, Object.getOwnPropertyDescriptor(target, key)!);
  return own;
}

function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return (
    a.value === b.value && a.get === b.get && a.set === b.set && a.writable === b.writable && a.enumerable === b.enumerable && a.configurable === b.configurable
  );
}

export class GlobalsWatch {
  private readonly snapshot: Snapshot = new Map();
  private readonly prototypes = WATCHED.map(([, target]) => Object.getPrototypeOf(target) as object | null);

  constructor() {
    for (const [, target] of WATCHED) this.snapshot.set(target, describe(target));
  }

  /** `Object.prototype.passwordEnv added`, … — empty when nothing changed. */
  changes(): string[] {
    const found: string[] = [];
    WATCHED.forEach(([name, target], i) => {
      const before = this.snapshot.get(target)!;
      const now = describe(target);
      for (const [key, descriptor] of now) {
        const old = before.get(key);
        if (!old) found.push(`${name}.${String(key)} added`);
        else if (!sameDescriptor(old, descriptor)) found.push(`${name}.${String(key)} changed`);
      }
      for (const key of before.keys()) if (!now.has(key)) found.push(`${name}.${String(key)} removed`);
      if (Object.getPrototypeOf(target) !== this.prototypes[i]) found.push(`${name} has a new prototype`);
    });
    return found;
  }

  /** Undoes every change. */
  restore(): void {
    WATCHED.forEach(([, target], i) => {
      const before = this.snapshot.get(target)!;
      for (const key of Reflect.ownKeys(target)) if (!before.has(key)) delete (target as Record<PropertyKey, unknown>)[key];
      for (const [key, descriptor] of before) Object.defineProperty(target, key, descriptor);
      if (Object.getPrototypeOf(target) !== this.prototypes[i]) Object.setPrototypeOf(target, this.prototypes[i]);
    });
  }
}
