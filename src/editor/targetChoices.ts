// The editor's side of choosing a target: the Select Target items, what may be typed into them (a URL, a
// profile's name), how the status bar names the target, where a setting came from, and the key of the
// selected target's password. The choice itself (which target a run uses) is the runner's: runner/targets.ts.
import type { ConnectionProfile } from '../redis/types';
import { isPrototypeName, ownValue } from '../gates/plainData';
import { address } from '../redis/errors';
import { parseRedisUrl } from '../protocol/redisUrl';
import { HOST_AND_PORT, LOCAL_TARGET, secretKey, type ParsedActiveTarget } from '../runner/targets';

/** What `WorkspaceConfiguration.inspect` reports of a setting, as far as provenance goes. */
export interface InspectedSetting {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
  workspaceLanguageValue?: unknown;
  workspaceFolderLanguageValue?: unknown;
}

function fromWorkspace(inspected: InspectedSetting | undefined): unknown[] {
  if (!inspected) return [];
  return [inspected.workspaceValue, inspected.workspaceFolderValue, inspected.workspaceLanguageValue, inspected.workspaceFolderLanguageValue].filter(
    (value) => value !== undefined,
  );
}

/**
 * Which of `rbench.target` and `rbench.profiles` came with the workspace (.vscode/settings.json, a
 * .code-workspace file, a folder's settings) rather than from the user: a workspace value wins over the
 * user's, so any workspace value makes the target the workspace's; a profile the workspace names (even
 * in part: objects merge) is the workspace's.
 */
export function settingsProvenance(
  target: InspectedSetting | undefined,
  profiles: InspectedSetting | undefined,
): { targetSupplier: 'workspace' | 'user'; workspaceProfiles: string[] } {
  const names = new Set<string>();
  for (const value of fromWorkspace(profiles)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) for (const name of Object.keys(value)) names.add(name);
  }
  return { targetSupplier: fromWorkspace(target).length > 0 ? 'workspace' : 'user', workspaceProfiles: [...names].sort() };
}

/** A name for a new connection profile: undefined when fine, else why not. */
export function validateProfileName(text: string, profiles: Record<string, ConnectionProfile>): string | undefined {
  const name = text.trim();
  if (name === '') return 'give the profile a name, such as "staging"';
  if (name === LOCAL_TARGET) return `"${LOCAL_TARGET}" means the throwaway server: pick another name`;
  if (HOST_AND_PORT.test(name) || name.includes('://')) return 'that reads as an address: name the profile (host:port comes next)';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) return 'use letters, digits, ".", "_" and "-" (scenarios name it in their target line)';
  if (isPrototypeName(name)) return `"${name}" is reserved by JavaScript: pick another name`;
  if (Object.hasOwn(profiles, name)) return `a profile "${name}" exists already`;
  return undefined;
}

/** HOST_AND_PORT, or a host alone. */
const HOST_MAYBE_PORT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9._-]*)(?::\d{1,5})?(?:\/\d+)?$/;

/** What was typed into "Enter a URL…" as a URL: `localhost:6399` and `localhost` become `redis://…`. */
export function targetUrlFromInput(text: string): string {
  const value = text.trim();
  return HOST_MAYBE_PORT.test(value) ? `redis://${value}` : value;
}

/** A URL (or `host:port`, or a host) typed into "Enter a URL…": undefined when fine, else why not. */
export function validateTargetUrl(text: string): string | undefined {
  const parsed = parseRedisUrl(targetUrlFromInput(text));
  if (typeof parsed === 'string') return parsed;
  if (parsed.password !== undefined) return 'leave the password out of the URL (settings are plain text): use "RBench: Set Password" after selecting it';
  return undefined;
}

/** The key for the active target's password (Set/Clear Password act on the selected target). */
export function activeSecretKey(active: ParsedActiveTarget): string | undefined {
  if (active.kind === 'profile') return secretKey({ profile: active.name });
  if (active.kind === 'url') return secretKey({ url: active.url });
  return undefined;
}

/** `local`, a profile's label, or host:port: how the status bar names the selected target. */
export function describeActiveTarget(active: ParsedActiveTarget, profiles: Record<string, ConnectionProfile>): string {
  switch (active.kind) {
    case 'local':
      return LOCAL_TARGET;
    case 'profile':
      return ownValue(profiles, active.name)?.label ?? active.name;
    case 'url': {
      const parsed = parseRedisUrl(active.url);
      if (typeof parsed === 'string') return active.url.replace(/\/\/[^@/]*@/, '//');
      return address(parsed);
    }
    case 'invalid':
      return 'invalid target';
  }
}

export interface TargetPickItem {
  label: string;
  description?: string;
  /** What `rbench.target` becomes, or ask for a URL, or add a connection profile. */
  value: string | { enterUrl: true } | { addProfile: true };
  picked: boolean;
}

/** The choices of "RBench: Select Target": each profile, the throwaway server, a URL of one's own. */
export function targetPickItems(profiles: Record<string, ConnectionProfile>, setting: string | undefined): TargetPickItem[] {
  const current = (setting ?? '').trim() || LOCAL_TARGET;
  const items: TargetPickItem[] = Object.entries(profiles).map(([name, profile]) => ({
    label: profile.label ?? name,
    description: `${profile.label ? `${name} · ` : ''}${profile.url}${profile.readOnly ? ' · read-only' : ''}`,
    value: name,
    picked: current === name,
  }));
  items.push({
    label: 'Throwaway local redis-server',
    description: 'a fresh server on a free port for each run',
    value: LOCAL_TARGET,
    picked: current === LOCAL_TARGET,
  });
  const customUrl = current.includes('://') ? current : undefined;
  if (customUrl) items.push({ label: describeActiveTarget({ kind: 'url', url: customUrl }, profiles), description: customUrl, value: customUrl, picked: true });
  items.push({ label: 'Enter a URL…', description: 'host:port, redis://host:port or rediss://…', value: { enterUrl: true }, picked: false });
  items.push({ label: 'Add connection profile…', description: 'a name and a URL, saved in rbench.profiles', value: { addProfile: true }, picked: false });
  return items;
}

/** A scenario's own target (its `target` line, a URL or a profile) as the status bar names it; undefined when it has none. */
export function describeScenarioTarget(target: { url?: string; profile?: string }, profiles: Record<string, ConnectionProfile>): string | undefined {
  if (target.profile !== undefined) return describeActiveTarget({ kind: 'profile', name: target.profile }, profiles);
  if (target.url !== undefined) return describeActiveTarget({ kind: 'url', url: target.url }, profiles);
  return undefined;
}

/**
 * The choices of "Run on Several Targets": each profile, the throwaway server, the selected target when it is
 * a URL of one's own, and "Enter a URL…"; the target the status bar shows comes first, ticked.
 */
export function severalTargetItems(profiles: Record<string, ConnectionProfile>, setting: string | undefined): TargetPickItem[] {
  const items = targetPickItems(profiles, setting).filter((item) => typeof item.value === 'string' || 'enterUrl' in item.value);
  const current = items.filter((item) => item.picked).map((item) => ({ ...item, description: `selected now · ${item.description ?? ''}` }));
  return [...current, ...items.filter((item) => !item.picked)];
}

/** What the several-targets picker says when Enter came with fewer than two ticked (it shows again, ticks kept). */
export function tooFewTargets(ticked: number): string {
  if (ticked <= 0) return 'No target ticked: tick two or more (Space ticks), then press Enter';
  return `${ticked} target ticked: tick one more to compare (Space ticks), then press Enter`;
}
