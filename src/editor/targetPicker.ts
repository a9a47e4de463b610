// "RBench: Select Target" as a flow over a small UI interface (quick pick, input box, settings), so the
// steps are unit-tested without VS Code; connections.ts supplies the real UI. The choice goes into the
// user's own settings unless the user picks this workspace's (.vscode/settings.json: shared with the folder,
// so runs there ask first); either way the picker says where it went.
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
  /** Saves `rbench.target` in the user's settings (the default) or this workspace's. */
  setTarget(value: string, where?: SettingsScope): Promise<void>;
  /** Adds one profile to `rbench.profiles` (keeping the others as written). */
  addProfile(name: string, profile: ConnectionProfile, where?: SettingsScope): Promise<void>;
  /** Where to save: the user's settings or this workspace's; absent (no folder open): the user's. */
  where?(): PromiseLike<SettingsScope | undefined>;
  /** Tells where the choice was saved. */
  saved?(message: string): void;
}

export type SettingsScope = 'user' | 'workspace';

/** The choices of "where to save", the user's settings first (the default). */
export const SCOPE_ITEMS: readonly { label: string; description: string; scope: SettingsScope }[] = [
  { label: 'Your user settings', description: 'for you, in every workspace', scope: 'user' },
  { label: 'This workspace', description: '.vscode/settings.json: shared with anyone who opens the folder; runs there ask first', scope: 'workspace' },
];

/** `RBench: target "staging" saved in your user settings`. */
export function savedMessage(value: string, where: SettingsScope): string {
  return where === 'user'
    ? `RBench: target "${value}" saved in your user settings (rbench.target, for every workspace).`
    : `RBench: target "${value}" saved in this workspace's settings (rbench.target in .vscode/settings.json).`;
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
    const where = await chooseScope(ui);
    if (!where) return undefined;
    value = name.trim();
    await ui.addProfile(value, { url: targetUrlFromInput(url) }, where);
    await ui.setTarget(value, where);
    ui.saved?.(savedMessage(value, where));
    return value;
  }
  const where = await chooseScope(ui);
  if (!where) return undefined;
  await ui.setTarget(value, where);
  ui.saved?.(savedMessage(value, where));
  return value;
}

function chooseScope(ui: TargetPickerUi): PromiseLike<SettingsScope | undefined> {
  return ui.where ? ui.where() : Promise.resolve('user');
}

/** The part of `vscode.WorkspaceConfiguration` the picker saves through (`true`: the user's global settings). */
export interface SettingsLike {
  inspect(section: string): InspectedSetting | undefined;
  update(section: string, value: unknown, global: boolean): PromiseLike<void>;
}

/**
 * Saves into the user's settings. A workspace value of rbench.target would still win over it: `warn` says
 * so, naming the value, rather than writing into the workspace's files.
 */
export function userSettingsSaver(config: () => SettingsLike, warn: (message: string) => void): Pick<TargetPickerUi, 'setTarget' | 'addProfile'> {
  return {
    setTarget: async (value, where = 'user') => {
      await config().update('target', value, where === 'user');
      const inspected = config().inspect('target');
      const shadow = where === 'user' ? (inspected?.workspaceFolderValue ?? inspected?.workspaceValue) : inspected?.workspaceFolderValue;
      if (shadow !== undefined && shadow !== value) {
        warn(
          `Saved "${value}" in your ${where === 'user' ? 'user' : "workspace's"} settings, but this ${where === 'user' ? 'workspace' : 'folder'}'s settings set rbench.target to "${String(shadow)}", which wins there: ` +
            `remove rbench.target from the ${where === 'user' ? 'workspace' : 'folder'} settings (.vscode/settings.json) to use your choice`,
        );
      }
    },
    addProfile: async (name, profile, where = 'user') => {
      // Next to the profiles already in that scope (as written, even malformed ones).
      const inspected = config().inspect('profiles');
      const current = where === 'user' ? inspected?.globalValue : inspected?.workspaceValue;
      const profiles = current && typeof current === 'object' && !Array.isArray(current) ? current : {};
      await config().update('profiles', { ...profiles, [name]: profile }, where === 'user');
    },
  };
}
