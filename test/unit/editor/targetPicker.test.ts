// "RBench: Select Target" with a fake UI standing in for VS Code's quick pick, input box and settings.
import assert from 'node:assert/strict';
import { pickTarget, type InputRequest, type TargetPickerUi } from '../../../src/editor/targetPicker';
import { parseActiveTarget, targetUrlFromInput, validateProfileName, validateTargetUrl, type TargetPickItem } from '../../../src/editor/targets';
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
