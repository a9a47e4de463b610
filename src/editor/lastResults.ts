// "RBench: Show Last Results": reopens the run file of the workspace's last finished run in its one tab.
// The file is remembered in the workspace state (it outlives a window reload); the command shows in the
// palette only while there is one (`rbench.hasLastResults`).
import * as vscode from 'vscode';
import { isReadable } from '../gates/files';

export const SHOW_LAST_RESULTS_COMMAND = 'rbench.showLastResults';
/** The palette's `when` clause: set while a last run file is known. */
export const HAS_LAST_RESULTS_CONTEXT = 'rbench.hasLastResults';
const LAST_RUN_FILE_KEY = 'rbench.lastRunFile';

export interface LastResultsPorts {
  /** The workspace state (a Memento). */
  state: Pick<vscode.Memento, 'get' | 'update'>;
  /** Shows a run file in its one tab. */
  showRun(uri: vscode.Uri): unknown;
}

export class LastResults {
  constructor(private readonly ports: LastResultsPorts) {
    void this.path().then((path) => this.setContext(path !== undefined));
  }

  /** The run file remembered, if it is still a readable file (through the file gate). */
  async path(): Promise<string | undefined> {
    const path = this.ports.state.get<string>(LAST_RUN_FILE_KEY);
    return typeof path === 'string' && (await isReadable(path, { userNamed: true })) ? path : undefined;
  }

  /** A run finished and wrote its file (a run whose file could not be written leaves the last one). */
  async remember(path: string | undefined): Promise<void> {
    if (!path) return;
    await this.ports.state.update(LAST_RUN_FILE_KEY, path);
    await this.setContext(true);
  }

  /** The command: the last run file in its tab, or a message saying there is none (and why). */
  async show(): Promise<string | undefined> {
    const path = await this.path();
    if (!path) {
      const gone = this.ports.state.get<string>(LAST_RUN_FILE_KEY) !== undefined;
      await this.setContext(false);
      void vscode.window.showInformationMessage(
        gone
          ? 'The last run file is no longer there (moved or deleted): run a scenario, or open one from the Benchmark Runs view.'
          : 'No results yet: run a scenario first.',
      );
      return undefined;
    }
    await this.ports.showRun(vscode.Uri.file(path));
    return path;
  }

  private async setContext(value: boolean): Promise<void> {
    await vscode.commands.executeCommand('setContext', HAS_LAST_RESULTS_CONTEXT, value);
  }
}
