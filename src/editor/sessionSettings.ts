// The run session's settings from the editor's: one place, so every way the editor starts a session (a run, a
// batch, several targets) applies the same rules and limits.
import * as vscode from 'vscode';
import type { SessionSettings } from '../runner/session';
import type { RunsFolderPlace } from './runsIndex';
import type { EditorSettings } from './settings';

export function editorSessionSettings(settings: EditorSettings, runs: RunsFolderPlace, userTarget: SessionSettings['userTarget']): SessionSettings {
  return {
    env: process.env,
    allowEnv: settings.allowEnvInCommands,
    allowAdmin: settings.allowAdminCommands,
    allowDestructive: settings.allowDestructiveCommands,
    maxMemory: settings.maxMemory,
    modules: settings.localServerModules,
    serverBinaries: settings.serverBinaries,
    trusted: vscode.workspace.isTrusted,
    userTarget,
    profiles: settings.profiles,
    workspaceProfiles: settings.workspaceProfiles,
    runsFolder: runs.folder,
    runsFolderRoot: runs.root,
  };
}
