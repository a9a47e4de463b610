// Typed access to RBench's settings (see `contributes.configuration` in package.json).
import * as vscode from 'vscode';
import type { ConnectionProfile } from '../redis/types';
import { parseSize } from '../scenario/units';
import { readProfiles } from './targets';

export const SECTION = 'rbench';

export interface EditorSettings {
  profiles: Record<string, ConnectionProfile>;
  /** Problems with `rbench.profiles` (a profile without a URL…), for the output channel. */
  profileProblems: string[];
  /** `rbench.target`: a profile name, `local`, or a URL. */
  target: string | undefined;
  codeLensEnabled: boolean;
  /** `rbench.runsFolder` as written (resolve it with resolveRunsFolder). */
  runsFolder: string | undefined;
  /** `rbench.allowEnvInCommands`: environment variables the user lets into commands (user settings only). */
  allowEnvInCommands: string[];
  /** `rbench.allowAdminCommands`: scenarios may send admin commands (user settings only). */
  allowAdminCommands: boolean;
  /** `rbench.maxMemory` in bytes: what a scenario may ask for on the server and in rbench (user settings only). */
  maxMemory: number | undefined;
}

/** Settings as they apply to `scope` (profiles and target are resource-scoped: folders may differ). */
export function readSettings(scope?: vscode.Uri): EditorSettings {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  const { profiles, problems } = readProfiles(config.get<unknown>('profiles'));
  return {
    profiles,
    profileProblems: problems,
    target: config.get<string>('target'),
    codeLensEnabled: config.get<boolean>('codeLens.enabled', true),
    runsFolder: config.get<string>('runsFolder'),
    ...userOnlySettings(config),
  };
}

/**
 * The opt-ins a shared file must never grant: read from the user's own settings only, never from a
 * workspace's .vscode/settings.json (which came with the repository).
 */
function userOnlySettings(config: vscode.WorkspaceConfiguration): Pick<EditorSettings, 'allowEnvInCommands' | 'allowAdminCommands' | 'maxMemory'> {
  const env = config.inspect<unknown>('allowEnvInCommands')?.globalValue;
  const admin = config.inspect<unknown>('allowAdminCommands')?.globalValue;
  const memory = config.inspect<unknown>('maxMemory')?.globalValue;
  const size = typeof memory === 'string' && memory.trim() ? parseSize(memory.trim()) : undefined;
  return {
    allowEnvInCommands: Array.isArray(env) ? env.filter((name): name is string => typeof name === 'string') : [],
    allowAdminCommands: admin === true,
    maxMemory: size?.ok ? size.value : undefined,
  };
}

/** The first workspace folder: where relative runs folders and recorded scenario paths start. */
export function workspaceRoot(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/** Where a new `rbench.target` is saved: the workspace when one is open, else the user settings. */
export function targetSettingScope(): vscode.ConfigurationTarget {
  return vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
}
