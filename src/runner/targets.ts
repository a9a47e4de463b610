// Which Redis a run talks to: the selected target (`rbench.target`, the CLI's --url), the connection
// profiles (`rbench.profiles`), the scenario's own `target` line, and stored passwords. Plain data in, plain
// data out (no `vscode`), so the precedence rules are unit-tested; RunSession (session.ts) chooses with it,
// src/editor/targetChoices.ts, connections.ts and runService.ts do the VS Code side.
import type { TargetPlan } from '../scenario/plan';
import type { ConnectionProfile } from '../redis/types';
import { dictionary, isPrototypeName, ownValue, plainCopy } from '../gates/plainData';
import { address } from '../redis/errors';
import { parseRedisUrl } from '../protocol/redisUrl';
import { resolveConnection, type ResolvedConnection } from '../redis/target';
import { checkText } from '../scenario';

/** The value of `rbench.target` that means "a throwaway redis-server per run". */
export const LOCAL_TARGET = 'local';

/** The target selected in the status bar (`rbench.target`). */
export type ActiveTarget = { kind: 'local' } | { kind: 'profile'; name: string } | { kind: 'url'; url: string };

export type ParsedActiveTarget = ActiveTarget | { kind: 'invalid'; error: string };

/** `host:port`, `[::1]:6379`, optionally `/db`: a target written without `redis://`. */
export const HOST_AND_PORT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9._-]*):\d{1,5}(?:\/\d+)?$/;

export function parseActiveTarget(setting: string | undefined, profiles: Record<string, ConnectionProfile>): ParsedActiveTarget {
  const value = (setting ?? '').trim();
  if (value === '' || value === LOCAL_TARGET) return { kind: 'local' };
  if (value.includes('://')) return { kind: 'url', url: value };
  if (Object.hasOwn(profiles, value)) return { kind: 'profile', name: value };
  // `localhost:6399` written by hand: a URL without its scheme (a bare word stays a profile name).
  if (HOST_AND_PORT.test(value)) return { kind: 'url', url: `redis://${value}` };
  const known = Object.keys(profiles);
  return {
    kind: 'invalid',
    error:
      `the setting rbench.target is "${value}", which is no connection profile (${known.length ? `known: ${known.map((n) => `"${n}"`).join(', ')}` : 'rbench.profiles is empty'}), ` +
      `not "${LOCAL_TARGET}" and not a redis:// URL — pick one with "RBench: Select Target"`,
  };
}

/** Checks the `rbench.profiles` setting (hand-written JSON) and keeps the well-formed profiles. */
export function readProfiles(raw: unknown): { profiles: Record<string, ConnectionProfile>; problems: string[] } {
  const profiles = dictionary<ConnectionProfile>();
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { profiles, problems };
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { profiles, problems: ['rbench.profiles must be an object: profile name → { "url": "redis://host:port" }'] };
  // Own properties only, copied into records without prototypes: nothing a prototype holds (a polluted one,
  // or a `__proto__` in settings.json) can add a field such as passwordEnv to a profile.
  for (const name of Object.keys(raw)) {
    if (isPrototypeName(name)) {
      problems.push(`connection profile "${name}" is ignored: the name is reserved by JavaScript — rename the profile in rbench.profiles`);
      continue;
    }
    const value = plainCopy((raw as Record<string, unknown>)[name]);
    if (!value || typeof value !== 'object' || typeof ownValue(value as Record<string, unknown>, 'url') !== 'string') {
      problems.push(`connection profile "${name}" needs a "url" such as "redis://host:6379"`);
      continue;
    }
    profiles[name] = value as ConnectionProfile;
  }
  return { profiles, problems };
}

/** The target settings of a scenario that sets none (resp, timeouts…): what Test Connection uses. */
export function defaultTargetPlan(): TargetPlan {
  // The language owns these defaults: ask it, rather than restating them here.
  return checkText('PING\n').scenarios[0].target;
}

/** Where a run's target came from, in the order they win. */
export type TargetSource = 'scenario' | 'selected' | 'local';

export interface TargetChoice {
  source: TargetSource;
  /** The scenario's target settings, with the selected profile or URL filled in. */
  target: TargetPlan;
  /** A throwaway redis-server is started for the run (its URL goes into `target`). */
  local: boolean;
  /**
   * The file's `db N` moves the selected target, whose URL names no database, to database N: a change of
   * target that the consent names as the file's (src/runner/consent.ts). Absent when nothing moves it.
   */
  fileDb?: number;
  /** The file's `db N`, not used: the selected target's URL names its own database (`/0`, `?db=0`), and the user's choice wins. */
  fileDbIgnored?: { db: number; named: number };
}

/**
 * The scenario's own `target` line wins; else the selected target; else a throwaway local server. On a
 * selected target a database written in its URL (the profile's) wins over the file's `db`; a URL without
 * one chooses none, and the file's `db N` (N ≠ 0) then moves the run there as the file's choice.
 */
export function chooseTarget(scenario: TargetPlan, active: ActiveTarget, profiles: Record<string, ConnectionProfile> = {}): TargetChoice {
  if (scenario.url || scenario.profile) return { source: 'scenario', target: scenario, local: false };
  switch (active.kind) {
    case 'profile':
      return withFileDb({ source: 'selected', target: { ...scenario, profile: active.name }, local: false }, ownValue(profiles, active.name)?.url);
    case 'url':
      return withFileDb({ source: 'selected', target: { ...scenario, url: active.url }, local: false }, active.url);
    case 'local':
      return { source: 'local', target: scenario, local: true };
  }
}

/** The database a target URL writes out (`/N`, `?db=N`), or undefined when it names none. */
export function urlDb(url: unknown): number | undefined {
  if (typeof url !== 'string') return undefined;
  const parsed = parseRedisUrl(url);
  return typeof parsed === 'string' ? undefined : parsed.db;
}

function withFileDb(choice: TargetChoice, selectedUrl: unknown): TargetChoice {
  const db = choice.target.db;
  if (db === undefined) return choice;
  const named = urlDb(selectedUrl);
  if (named === undefined) return db === 0 ? choice : { ...choice, fileDb: db };
  const target = { ...choice.target };
  delete target.db;
  return { ...choice, target, ...(db !== named ? { fileDbIgnored: { db, named } } : {}) };
}

/**
 * Passwords never come from settings (they end up in dotfiles and settings sync): a settings URL or
 * profile that holds one is refused. A URL in the scenario may hold one from the environment.
 */
export function settingsPasswordError(choice: TargetChoice, profiles: Record<string, ConnectionProfile>): string | undefined {
  const advice = 'remove it and store the password with "RBench: Set Password" (or use passwordEnv)';
  const profileName = choice.target.profile;
  if (profileName && Object.hasOwn(profiles, profileName)) {
    const profile = ownValue(profiles, profileName) as ConnectionProfile & { password?: unknown };
    if (profile.password !== undefined) return `connection profile "${profileName}" has a "password" in the settings: ${advice}`;
    if (urlHasPassword(profile.url)) return `the URL of connection profile "${profileName}" holds a password: ${advice}`;
  }
  if (choice.source === 'selected' && !profileName && choice.target.url && urlHasPassword(choice.target.url)) {
    return `the setting rbench.target holds a URL with a password: ${advice}`;
  }
  return undefined;
}

function urlHasPassword(url: string): boolean {
  const parsed = parseRedisUrl(url);
  return typeof parsed !== 'string' && parsed.password !== undefined;
}

/**
 * The SecretStorage key of a target's password: per profile name, else per host:port of the URL.
 * Undefined for a target without either (a throwaway local server has no password).
 */
export function secretKey(target: Pick<TargetPlan, 'url' | 'profile'>): string | undefined {
  if (target.profile) return `rbench.password.profile.${target.profile}`;
  if (!target.url) return undefined;
  const parsed = parseRedisUrl(target.url);
  if (typeof parsed === 'string') return undefined;
  return `rbench.password.${address(parsed)}`;
}

/**
 * Connection options for a chosen target. A password stored with "Set Password" is used when the
 * scenario and profile name no other source (`password env:…`); `password secret` without a stored
 * password fails with resolveConnection's message, which names the command to run.
 */
export function connectionFor(
  choice: TargetChoice,
  context: {
    profiles: Record<string, ConnectionProfile>;
    storedPassword?: string;
    env: Record<string, string | undefined>;
    baseDir?: string;
    localUrl?: string;
    /** `--allow-host`: hosts besides the target's that its nodes may be on (the network gate). */
    allowHosts?: readonly string[];
  },
): ResolvedConnection {
  const target: TargetPlan = choice.local && context.localUrl ? { ...choice.target, url: context.localUrl } : { ...choice.target };
  const profile = target.profile ? ownValue(context.profiles, target.profile) : undefined;
  const namesPassword =
    target.passwordEnv !== undefined || target.passwordSecret === true || profile?.passwordEnv !== undefined || profile?.passwordSecret === true;
  if (!choice.local && !namesPassword && context.storedPassword) target.passwordSecret = true;
  return resolveConnection(target, {
    env: context.env,
    secret: context.storedPassword,
    profiles: context.profiles,
    baseDir: context.baseDir,
    allowHosts: context.allowHosts,
  });
}
