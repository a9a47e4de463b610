// Typed access to RBench's settings (see `contributes.configuration` in package.json).
import * as vscode from 'vscode';
import type { ConnectionProfile } from '../redis/types';
import { parseSize } from '../scenario/units';
import { readProfiles } from '../runner/targets';
import { settingsProvenance } from './targetChoices';

export const SECTION = 'rbench';

export interface EditorSettings {
  profiles: Record<string, ConnectionProfile>;
  /** Problems with `rbench.profiles` (a profile without a URL…), for the output channel. */
  profileProblems: string[];
  /** `rbench.target`: a profile name, `local`, or a URL. */
  target: string | undefined;
  /** `workspace` when a workspace's settings set rbench.target (it came with the repository): runs on it ask. */
  targetSupplier: 'workspace' | 'user';
  /** Profiles a workspace's settings define or change. */
  workspaceProfiles: string[];
  codeLensEnabled: boolean;
  /** `rbench.runsFolder` as written (resolve it with runsFolderPlace). */
  runsFolder: string | undefined;
  /** Where the effective `rbench.runsFolder` comes from: a workspace's settings may not send run files outside it. */
  runsFolderScope: 'user' | 'workspace' | undefined;
  /** `rbench.allowEnvInCommands`: environment variables the user lets into commands (user settings only). */
  allowEnvInCommands: string[];
  /** `rbench.allowAdminCommands`: scenarios may send admin commands (user settings only). */
  allowAdminCommands: boolean;
  /** `rbench.allowDestructiveCommands`: scenarios may destroy or rewrite keys beyond their own (user settings only). */
  allowDestructiveCommands: boolean;
  /** `rbench.maxMemory` in bytes: what a scenario may ask for on the server and in rbench (user settings only). */
  maxMemory: number | undefined;
  /** `rbench.localServer.modules`: modules the throwaway server loads (user settings only, machine scope). */
  localServerModules: string[];
  /** `rbench.serverBinaries`: the machine's named server binaries, name → path (user settings only, machine scope). */
  serverBinaries: Record<string, string>;
}

/** Settings as they apply to `scope` (profiles and target are resource-scoped: folders may differ). */
export function readSettings(scope?: vscode.Uri): EditorSettings {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  const { profiles, problems } = readProfiles(config.get<unknown>('profiles'));
  return {
    profiles,
    profileProblems: problems,
    target: config.get<string>('target'),
    ...settingsProvenance(config.inspect('target'), config.inspect('profiles')),
    codeLensEnabled: config.get<boolean>('codeLens.enabled', true),
    runsFolder: config.get<string>('runsFolder'),
    runsFolderScope: settingScope(config, 'runsFolder'),
    ...userOnlySettings(config),
  };
}

/** `workspace` when a workspace (or folder) setting gives the value, `user` when only the user's settings do. */
function settingScope(config: vscode.WorkspaceConfiguration, name: string): 'user' | 'workspace' | undefined {
  const inspected = config.inspect<unknown>(name);
  if (inspected?.workspaceFolderValue !== undefined || inspected?.workspaceValue !== undefined) return 'workspace';
  return inspected?.globalValue !== undefined ? 'user' : undefined;
}

/**
 * The opt-ins a shared file must never grant: read from the user's own settings only, never from a
 * workspace's .vscode/settings.json (which came with the repository).
 */
function userOnlySettings(
  config: vscode.WorkspaceConfiguration,
): Pick<EditorSettings, 'allowEnvInCommands' | 'allowAdminCommands' | 'allowDestructiveCommands' | 'maxMemory' | 'localServerModules' | 'serverBinaries'> {
  const env = config.inspect<unknown>('allowEnvInCommands')?.globalValue;
  const admin = config.inspect<unknown>('allowAdminCommands')?.globalValue;
  const destructive = config.inspect<unknown>('allowDestructiveCommands')?.globalValue;
  const memory = config.inspect<unknown>('maxMemory')?.globalValue;
  const modules = config.inspect<unknown>('localServer.modules')?.globalValue;
  const size = typeof memory === 'string' && memory.trim() ? parseSize(memory.trim()) : undefined;
  return {
    allowEnvInCommands: Array.isArray(env) ? env.filter((name): name is string => typeof name === 'string') : [],
    allowAdminCommands: admin === true,
    allowDestructiveCommands: destructive === true,
    maxMemory: size?.ok ? size.value : undefined,
    localServerModules: Array.isArray(modules) ? modules.filter((path): path is string => typeof path === 'string' && path.trim() !== '') : [],
    serverBinaries: namedBinaries(config.inspect<unknown>('serverBinaries')?.globalValue),
  };
}

/** `rbench.serverBinaries` as name → path: string paths under names a file may write (`server binary NAME`), nothing else. */
export function namedBinaries(value: unknown): Record<string, string> {
  const named: Record<string, string> = Object.create(null) as Record<string, string>;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return named;
  for (const [name, path] of Object.entries(value as Record<string, unknown>)) {
    if (/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(name) && typeof path === 'string' && path.trim() !== '') named[name] = path;
  }
  return named;
}

/** The first workspace folder: where relative runs folders and recorded scenario paths start. */
export function workspaceRoot(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}
