// When two runs ran "the same plan": one rule, on settings only, for `rbench merge`, the regression gate and
// `rbench compare` (whose list of differences the gate reads). A plan carries more than the settings that shape
// its numbers — where each line was written (ranges), the lines as written (`text`), the scenario's name and
// place in its file, its expectations, clean-up and tags, the names of the environment variables it reads, where the
// target is, who logs in and which files hold its TLS keys, the throwaway server's directives (compare shows the
// server's configuration as setup) — and none of that changes what a run measures: a comment line added on one
// machine must not make the same scenario a different plan.
import type { ScenarioPlan } from '../scenario/plan';

/** Scenario fields that are not settings of the load. */
const NOT_SETTINGS = ['name', 'index', 'headerRange', 'range', 'expects', 'cleanup', 'wireEnv', 'server', 'tags'] as const;
/** Target fields that say where the server is and who logs in, not how the load runs (compare lists them as setup). */
const NOT_TARGET_SETTINGS = [
  'url',
  'profile',
  'user',
  'passwordEnv',
  'passwordSecret',
  'sentinelUser',
  'sentinelPasswordEnv',
  'sentinelPasswordSecret',
  'connectTimeoutMs',
] as const;
/** TLS file paths (resolved against each machine's scenario folder) and names: whether TLS is on is the setting. */
const TLS_FILES = ['ca', 'cert', 'key', 'servername'] as const;

function isRange(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  const { start, end } = value as { start?: unknown; end?: unknown };
  const isPosition = (p: unknown) => !!p && typeof p === 'object' && typeof (p as { line?: unknown }).line === 'number';
  return isPosition(start) && isPosition(end);
}

/** A command template (`name`, `args`): its `keys` are the target's table's key positions, set by the runner, not a setting. */
function isCommand(value: object): boolean {
  return 'name' in value && 'args' in value && Array.isArray((value as { args?: unknown }).args);
}

/**
 * A JSON-like value with every source range removed, at any depth (commands keep theirs as `source`), and
 * commands without the key positions the server's table gave them (a run file from before that table, or an
 * imported one, is the same plan).
 */
function withoutRanges(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRanges);
  if (!value || typeof value !== 'object') return value;
  const command = isCommand(value);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || isRange(item) || (command && key === 'keys')) continue;
    out[key] = withoutRanges(item);
  }
  return out;
}

/** The plan's settings: what two runs must share for their numbers to measure the same thing. */
export function planSettings(plan: ScenarioPlan): unknown {
  const copy: Record<string, unknown> = { ...plan };
  for (const key of NOT_SETTINGS) delete copy[key];
  const target: Record<string, unknown> = { ...plan.target };
  for (const key of NOT_TARGET_SETTINGS) delete target[key];
  if (plan.target.tls) {
    const tls: Record<string, unknown> = { ...plan.target.tls };
    for (const key of TLS_FILES) delete tls[key];
    target.tls = tls;
  }
  copy.target = target;
  if (plan.rateSearch) {
    const { text: _text, ...search } = plan.rateSearch;
    copy.rateSearch = search;
  }
  return withoutRanges(copy);
}

/** Where two JSON values first differ, e.g. `points[0].phases[1].load.pipeline: 8 vs 16`; undefined when equal. */
function firstDifference(a: unknown, b: unknown, path: string): string | undefined {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      const step = Array.isArray(a) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      const found = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], step);
      if (found) return found;
    }
  }
  const show = (value: unknown) => (value === undefined ? 'absent' : JSON.stringify(value).slice(0, 60));
  return `${path || 'the plan'}: ${show(a)} vs ${show(b)}`;
}

/** The first setting in which two plans differ, named by its place in the plan (`points[0].phases[0].load.clients: 4 vs 8`); undefined when they are the same plan. */
export function planDifference(a: ScenarioPlan, b: ScenarioPlan): string | undefined {
  return firstDifference(planSettings(a), planSettings(b), '');
}

export function samePlan(a: ScenarioPlan, b: ScenarioPlan): boolean {
  return planDifference(a, b) === undefined;
}
