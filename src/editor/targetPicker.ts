// "RBench: Select Target" as a flow over a small UI interface (quick pick, input box, settings), so the
// steps are unit-tested without VS Code; connections.ts supplies the real UI. The choice goes into the
// user's own settings: one saved into .vscode/settings.json would look like one committed with the repository.
import type { ConnectionProfile } from '../redis/types';
import { targetPickItems, targetUrlFromInput, validateProfileName, validateTargetUrl, type InspectedSetting, type TargetPickItem } from './targetChoices';

export interface InputRequest {
  title: string;
  prompt: string;
  placeHolder?: string;
  /** Prefilled text; the cursor goes to its end. */
  value?: string;
  validate: (text: string) => string | undefined;
}

export interface TargetPickerUi {
  pick(items: TargetPickItem[]): PromiseLike<TargetPickItem | undefined>;
  input(request: InputRequest): PromiseLike<string | undefined>;
  /** Saves `rbench.target`. */
  setTarget(value: string): Promise<void>;
  /** Adds one profile to `rbench.profiles` (keeping the others as written). */
  addProfile(name: string, profile: ConnectionProfile): Promise<void>;
}

const URL_PREFIX = 'redis://';

function askUrl(ui: TargetPickerUi, title: string): PromiseLike<string | undefined> {
  return ui.input({
    title,
    prompt: 'host:port, or redis://[user@]host[:port][/db], or rediss://… for TLS — without a password (use "RBench: Set Password")',
    placeHolder: 'redis://127.0.0.1:6379',
    value: URL_PREFIX,
    validate: validateTargetUrl,
  });
}

/** Returns the new value of `rbench.target`, or undefined when the user backed out. */
export async function pickTarget(ui: TargetPickerUi, settings: { target?: string; profiles: Record<string, ConnectionProfile> }): Promise<string | undefined> {
  const picked = await ui.pick(targetPickItems(settings.profiles, settings.target));
  if (!picked) return undefined;
  let value: string;
  if (typeof picked.value === 'string') {
    value = picked.value;
  } else if ('enterUrl' in picked.value) {
    const url = await askUrl(ui, 'RBench: Redis URL');
    if (url === undefined) return undefined;
    value = targetUrlFromInput(url);
  } else {
    const name = await ui.input({
      title: 'RBench: new connection profile (1/2)',
      prompt: 'A name for the connection; scenarios can select it with a target line',
      placeHolder: 'staging',
      validate: (text) => validateProfileName(text, settings.profiles),
    });
    if (name === undefined) return undefined;
    const url = await askUrl(ui, `RBench: URL of "${name.trim()}" (2/2)`);
    if (url === undefined) return undefined;
    value = name.trim();
    await ui.addProfile(value, { url: targetUrlFromInput(url) });
  }
  await ui.setTarget(value);
  return value;
}

/** The part of `vscode.WorkspaceConfiguration` the picker saves through (`true`: the user's global settings). */
export interface SettingsLike {
  inspect(section: string): InspectedSetting | undefined;
  update(section: string, value: unknown, global: true): PromiseLike<void>;
}

/**
 * Saves into the user's settings. A workspace value of rbench.target would still win over it: `warn` says
 * so, naming the value, rather than writing into the workspace's files.
 */
export function userSettingsSaver(config: () => SettingsLike, warn: (message: string) => void): Pick<TargetPickerUi, 'setTarget' | 'addProfile'> {
  return {
    setTarget: async (value) => {
      await config().update('target', value, true);
      const inspected = config().inspect('target');
      const shadow = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
      if (shadow !== undefined && shadow !== value) {
        warn(
          `Saved "${value}" in your user settings, but this workspace's settings set rbench.target to "${String(shadow)}", which wins there: ` +
            'remove rbench.target from the workspace settings (.vscode/settings.json) to use your choice',
        );
      }
    },
    addProfile: async (name, profile) => {
      // Next to the user's profiles already there (as written, even malformed ones).
      const current = config().inspect('profiles')?.globalValue;
      const profiles = current && typeof current === 'object' && !Array.isArray(current) ? current : {};
      await config().update('profiles', { ...profiles, [name]: profile }, true);
    },
  };
}
