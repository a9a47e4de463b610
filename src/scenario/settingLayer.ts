// The settings of one scope (file, scenario or phase) over the scopes around it: what the plan builders
// ask for a setting's value, its line and the environment variables it came from.
import type { Range } from './plan';
import type { SettingLine } from './syntax';
import type { SettingValues } from './values';

export type SettingName = keyof SettingValues;

export class Entry<T> {
  constructor(
    readonly value: T,
    /** The line the value is written on; the value's range is computed only for a diagnostic about it. */
    private readonly source: SettingLine,
    /** Environment variables whose values are in the value (`user ${env:X}`): the run's consent lists them. */
    readonly envNames?: readonly string[],
  ) {}

  get line(): number {
    return this.source.line;
  }

  get range(): Range {
    return (this.source.value ?? this.source.keyword).range;
  }
}

/**
 * The settings written in one scope (file, scenario or phase), over the scope around it. Lookups
 * walk the (at most three) scopes instead of copying them for every scenario and phase.
 */
export class Layer {
  private entries: Map<SettingName, Entry<unknown>> | undefined;

  constructor(private readonly below?: Layer) {}

  get<K extends SettingName>(name: K): Entry<SettingValues[K]> | undefined {
    const own = this.entries?.get(name);
    if (own !== undefined || this.hides(name)) return own as Entry<SettingValues[K]> | undefined;
    return this.below?.get(name);
  }

  /** Sets a value of this scope (not of the ones below). */
  set(name: SettingName, entry: Entry<unknown>): void {
    (this.entries ??= new Map()).set(name, entry);
  }

  /** The value set in this scope itself. */
  own<K extends SettingName>(name: K): Entry<SettingValues[K]> | undefined {
    return this.entries?.get(name) as Entry<SettingValues[K]> | undefined;
  }

  /** How many scopes below this one the value in force is written (0: this one), or undefined when none sets it. */
  depthOf(name: SettingName): number | undefined {
    if (this.entries?.has(name)) return 0;
    if (this.hides(name) || !this.below) return undefined;
    const below = this.below.depthOf(name);
    return below === undefined ? undefined : below + 1;
  }

  has(name: SettingName): boolean {
    return this.get(name) !== undefined;
  }

  /** This layer's values over `below`: a `requests` here hides an inherited `duration` and the reverse. */
  over(below: Layer): Layer {
    const layer = new Layer(below);
    layer.entries = this.entries;
    return layer;
  }

  private hides(name: SettingName): boolean {
    if (!this.entries) return false;
    return (name === 'duration' && this.entries.has('requests')) || (name === 'requests' && this.entries.has('duration'));
  }
}
