// "RBench: Select Target" with a fake UI standing in for VS Code's quick pick, input box and settings.
import assert from 'node:assert/strict';
import { pickTarget, SCOPE_ITEMS, userSettingsSaver, type InputRequest, type SettingsLike, type TargetPickerUi } from '../../../src/editor/targetPicker';
import { parseActiveTarget } from '../../../src/runner/targets';
import {
  settingsProvenance,
  targetUrlFromInput,
  validateProfileName,
  validateTargetUrl,
  type InspectedSetting,
  type TargetPickItem,
} from '../../../src/editor/targetChoices';
import type { ConnectionProfile } from '../../../src/redis/types';

/** Picks the item with `label` and answers input boxes in order; records what was asked and saved. */
function fakeUi(label: string, answers: string[]) {
  const asked: InputRequest[] = [];
  const saved: { target?: string; profiles: Record<string, ConnectionProfile> } = { profiles: {} };
  const ui: TargetPickerUi = {
    pick: async (items: TargetPickItem[]) => items.find((item) => item.label === label),
    input: async (request) => {
      asked.push(request);
      const answer = answers.shift();
      // As the input box does: an answer its validation refuses cannot be accepted.
      if (answer !== undefined) assert.equal(request.validate(answer), undefined, `the input box refused "${answer}"`);
      return answer;
    },
    setTarget: async (value) => void (saved.target = value),
    addProfile: async (name, profile) => void (saved.profiles[name] = profile),
  };
  return { ui, asked, saved };
}

describe('editor: Select Target', () => {
  it('accepts localhost:6399 (and a host alone) as a redis:// URL', () => {
    assert.equal(validateTargetUrl('localhost:6399'), undefined);
    assert.equal(targetUrlFromInput(' localhost:6399 '), 'redis://localhost:6399');
    assert.equal(targetUrlFromInput('cache.internal'), 'redis://cache.internal');
    assert.equal(targetUrlFromInput('[::1]:6380/2'), 'redis://[::1]:6380/2');
    assert.equal(targetUrlFromInput('rediss://cache:6380'), 'rediss://cache:6380');
    assert.match(validateTargetUrl('http://10.0.0.5') ?? '', /only redis:\/\/ and rediss:\/\//);
    assert.deepEqual(parseActiveTarget('localhost:6399', {}), { kind: 'url', url: 'redis://localhost:6399' });
  });

  it('prefills redis:// and saves host:port as a URL', async () => {
    const { ui, asked, saved } = fakeUi('Enter a URL…', ['localhost:6399']);
    assert.equal(await pickTarget(ui, { profiles: {} }), 'redis://localhost:6399');
    assert.equal(asked[0].value, 'redis://');
    assert.equal(saved.target, 'redis://localhost:6399');
  });

  it('adds a connection profile (name, then URL) and selects it', async () => {
    const { ui, asked, saved } = fakeUi('Add connection profile…', ['staging', '10.0.0.5:6380']);
    assert.equal(await pickTarget(ui, { profiles: { prod: { url: 'redis://prod:6379' } } }), 'staging');
    assert.deepEqual(saved, { target: 'staging', profiles: { staging: { url: 'redis://10.0.0.5:6380' } } });
    assert.equal(asked[1].value, 'redis://');
    assert.match(asked[0].validate('prod') ?? '', /exists already/);
  });

  it('asks where to save (the user settings first) and says where it went', async () => {
    for (const where of ['user', 'workspace'] as const) {
      const { ui } = fakeUi('Enter a URL…', ['localhost:6399']);
      const scopes: string[] = [];
      const told: string[] = [];
      const { settings, updates } = fakeSettings();
      const saver = userSettingsSaver(
        () => settings,
        () => undefined,
      );
      const value = await pickTarget(
        { ...ui, ...saver, where: async () => (scopes.push(SCOPE_ITEMS.map((item) => item.scope).join(',')), where), saved: (message) => told.push(message) },
        { profiles: {} },
      );
      assert.equal(value, 'redis://localhost:6399');
      assert.deepEqual(scopes, ['user,workspace'], 'the user settings are the first choice');
      assert.deepEqual(updates, [{ section: 'target', value: 'redis://localhost:6399', scope: where === 'user' }]);
      assert.deepEqual(told, [
        where === 'user'
          ? 'RBench: target "redis://localhost:6399" saved in your user settings (rbench.target, for every workspace).'
          : 'RBench: target "redis://localhost:6399" saved in this workspace\'s settings (rbench.target in .vscode/settings.json).',
      ]);
    }
    // Backing out of "where" saves nothing.
    const { ui, saved } = fakeUi('Enter a URL…', ['localhost:6399']);
    assert.equal(await pickTarget({ ...ui, where: async () => undefined }, { profiles: {} }), undefined);
    assert.deepEqual(saved, { profiles: {} });
  });

  it('saves nothing when the user backs out of a step', async () => {
    const { ui, saved } = fakeUi('Add connection profile…', ['staging']);
    assert.equal(await pickTarget(ui, { profiles: {} }), undefined);
    assert.deepEqual(saved, { profiles: {} });
  });

  it('refuses profile names that cannot work', () => {
    assert.match(validateProfileName('', {}) ?? '', /name/);
    assert.match(validateProfileName('local', {}) ?? '', /throwaway/);
    assert.match(validateProfileName('localhost:6399', {}) ?? '', /reads as an address/);
    assert.match(validateProfileName('my cache', {}) ?? '', /letters, digits/);
    assert.equal(validateProfileName('staging-2', {}), undefined);
  });
});

/** `WorkspaceConfiguration` as far as saving goes: values per scope; `update(…, true)` writes the user's (global) settings. */
function fakeSettings(workspace: Record<string, unknown> = {}, global: Record<string, unknown> = {}) {
  const updates: { section: string; value: unknown; scope: unknown }[] = [];
  const settings: SettingsLike = {
    inspect: (section): InspectedSetting => ({ globalValue: global[section], workspaceValue: workspace[section] }),
    update: async (section, value, scope) => {
      updates.push({ section, value, scope });
      if (scope === true) global[section] = value;
      else workspace[section] = value;
    },
  };
  return { settings, updates, global };
}

describe("editor: Select Target saves into the user's settings (seen 10)", () => {
  it('writes rbench.target with the global scope, never into the workspace', async () => {
    const { settings, updates } = fakeSettings();
    const warnings: string[] = [];
    await userSettingsSaver(
      () => settings,
      (message) => warnings.push(message),
    ).setTarget('staging');
    assert.deepEqual(updates, [{ section: 'target', value: 'staging', scope: true }]);
    assert.deepEqual(warnings, []);
  });

  it("says so when the workspace's own rbench.target still wins, naming it", async () => {
    const { settings } = fakeSettings({ target: 'committed' });
    const warnings: string[] = [];
    const saver = userSettingsSaver(
      () => settings,
      (message) => warnings.push(message),
    );
    await saver.setTarget('mine');
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0],
      /^Saved "mine" in your user settings, but this workspace's settings set rbench\.target to "committed", which wins there: remove rbench\.target from the workspace settings/,
    );
    await saver.setTarget('committed');
    assert.equal(warnings.length, 1, 'no warning when both say the same');
  });

  it('a folder value wins as well', async () => {
    const warnings: string[] = [];
    const settings: SettingsLike = { inspect: () => ({ workspaceFolderValue: 'folder' }), update: async () => undefined };
    await userSettingsSaver(
      () => settings,
      (message) => warnings.push(message),
    ).setTarget('mine');
    assert.match(warnings[0] ?? '', /set rbench\.target to "folder"/);
  });

  it("adds a profile next to the user's own profiles, leaving the workspace's out", async () => {
    const { settings, updates } = fakeSettings({ profiles: { theirs: { url: 'redis://w:1' } } }, { profiles: { mine: { url: 'redis://m:1' } } });
    await userSettingsSaver(
      () => settings,
      () => undefined,
    ).addProfile('new', { url: 'redis://n:1' });
    assert.deepEqual(updates, [{ section: 'profiles', value: { mine: { url: 'redis://m:1' }, new: { url: 'redis://n:1' } }, scope: true }]);
    const empty = fakeSettings({}, { profiles: 'not an object' });
    await userSettingsSaver(
      () => empty.settings,
      () => undefined,
    ).addProfile('new', { url: 'redis://n:1' });
    assert.deepEqual(empty.updates[0].value, { new: { url: 'redis://n:1' } });
    const list = fakeSettings({}, { profiles: ['x'] });
    await userSettingsSaver(
      () => list.settings,
      () => undefined,
    ).addProfile('new', { url: 'redis://n:1' });
    assert.deepEqual(list.updates[0].value, { new: { url: 'redis://n:1' } });
  });
});

describe('editor: which settings came with the workspace', () => {
  it("a workspace, folder or language value of rbench.target makes the target the workspace's", () => {
    assert.equal(settingsProvenance({ globalValue: 'mine' }, undefined).targetSupplier, 'user');
    assert.equal(settingsProvenance(undefined, undefined).targetSupplier, 'user');
    for (const scope of ['workspaceValue', 'workspaceFolderValue', 'workspaceLanguageValue', 'workspaceFolderLanguageValue']) {
      assert.equal(settingsProvenance({ globalValue: 'mine', [scope]: 'theirs' }, undefined).targetSupplier, 'workspace', scope);
    }
  });

  it("every profile a workspace names, even in part, is the workspace's", () => {
    const profiles = {
      globalValue: { mine: { url: 'redis://m:1' }, both: { url: 'redis://b:1' } },
      workspaceValue: { both: { passwordEnv: 'X' }, theirs: { url: 'redis://t:1' } },
      workspaceFolderValue: { folder: {} },
    };
    assert.deepEqual(settingsProvenance(undefined, profiles).workspaceProfiles, ['both', 'folder', 'theirs']);
    assert.deepEqual(settingsProvenance(undefined, { workspaceValue: ['x'] }).workspaceProfiles, []);
    assert.deepEqual(settingsProvenance(undefined, { workspaceValue: null }).workspaceProfiles, []);
    assert.deepEqual(settingsProvenance(undefined, { globalValue: { mine: {} } }).workspaceProfiles, []);
  });
});
