// The editor's consent modal against a small fake of VS Code's modal message: VS Code makes the first
// button the default (focused; Enter presses it) and adds Cancel itself (Escape). Answers are kept by digest.
import assert from 'node:assert/strict';
import { consentRequest, type RunEffects } from '../../../src/runner/consent';
import {
  consentConfirmer,
  CONSENT_PREFIX,
  DEFAULT_BUTTON,
  forgetRemoteAnswers,
  LEGACY_CONFIRMATION_PREFIX,
  RUN_BUTTON,
  type AnswerStore,
  type Ask,
} from '../../../src/editor/sessionPorts';

class FakeStore implements AnswerStore {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
}

type Key = 'Enter' | 'Escape' | { click: string };

/** VS Code's modal as far as the choice goes: Enter presses the first button, Escape is Cancel (undefined). */
function fakeModal(keys: Key[]) {
  const shown: { message: string; options: { modal: true; detail: string }; buttons: string[] }[] = [];
  const ask: Ask = async (message, options, ...buttons) => {
    shown.push({ message, options, buttons });
    const key = keys.shift() ?? 'Escape';
    if (key === 'Enter') return buttons[0];
    if (key === 'Escape') return undefined;
    assert.ok(buttons.includes(key.click), `no button "${key.click}" in ${buttons.join(', ')}`);
    return key.click;
  };
  return { ask, shown };
}

const effects = (more: Partial<RunEffects> = {}): RunEffects => ({
  file: 'bench.rbench',
  target: { display: 'redis://127.0.0.1:6379', supplier: 'workspace', via: ['the workspace settings select it'] },
  hosts: ['127.0.0.1:6379'],
  credentials: [],
  env: [{ name: 'GITHUB_TOKEN', use: 'password', supplier: 'workspace' }],
  tls: [],
  commands: { read: ['GET'] },
  writePatterns: [],
  destructive: [],
  ...more,
});

describe('editor: the consent modal', () => {
  it('is modal, lists the effects in its detail, and Enter does not run', async () => {
    const store = new FakeStore();
    const modal = fakeModal(['Enter']);
    const request = consentRequest(effects(), 'read `k`');
    assert.equal(await consentConfirmer(store, modal.ask)(request), false);
    assert.equal(modal.shown.length, 1);
    const [shown] = modal.shown;
    assert.equal(shown.options.modal, true);
    assert.equal(shown.message, 'Run "read "k"" from bench.rbench against redis://127.0.0.1:6379?');
    assert.deepEqual(shown.buttons, [DEFAULT_BUTTON, RUN_BUTTON]);
    assert.notEqual(shown.buttons[0], RUN_BUTTON, 'the default button must not run');
    assert.deepEqual(shown.options.detail.split('\n'), [
      ...request.question.lines,
      '',
      'RBench remembers a "Run" for exactly this list: a changed file asks again ("RBench: Forget Remote Target Answers" forgets).',
    ]);
    assert.match(shown.options.detail, /Sends environment variable GITHUB_TOKEN: as the password \(from the workspace settings\)/);
    assert.deepEqual(store.keys(), [], 'a "no" is not remembered');
  });

  it('Escape (Cancel) does not run either; "Run" runs and is remembered under the digest', async () => {
    const store = new FakeStore();
    const modal = fakeModal(['Escape', { click: RUN_BUTTON }]);
    const confirm = consentConfirmer(store, modal.ask);
    const request = consentRequest(effects(), 's');
    assert.equal(await confirm(request), false);
    assert.equal(await confirm(request), true);
    assert.deepEqual(store.keys(), [CONSENT_PREFIX + request.digest]);
    assert.equal(await confirm(request), true);
    assert.equal(modal.shown.length, 2, 'a remembered "Run" asks no more');
  });

  it('a changed file (other effects, other digest) asks again', async () => {
    const store = new FakeStore();
    const modal = fakeModal([{ click: RUN_BUTTON }, 'Escape']);
    const confirm = consentConfirmer(store, modal.ask);
    assert.equal(await confirm(consentRequest(effects(), 's')), true);
    assert.equal(await confirm(consentRequest(effects({ commands: { read: ['GET'], dangerous: ['FLUSHALL'] } }), 's')), false);
    assert.equal(modal.shown.length, 2);
  });

  it('within one batch, equal effects ask once, whatever the answer', async () => {
    const store = new FakeStore();
    const modal = fakeModal(['Escape', { click: RUN_BUTTON }]);
    const asked = new Map<string, boolean>();
    const confirm = consentConfirmer(store, modal.ask, asked);
    const declined = consentRequest(effects(), 'one');
    assert.equal(await confirm(declined), false);
    assert.equal(await confirm(consentRequest(effects(), 'two')), false, 'the same effects in another scenario: the same answer');
    const other = consentRequest(effects({ file: 'other.rbench' }), 'three');
    assert.equal(await confirm(other), true);
    assert.equal(await confirm(other), true);
    assert.equal(modal.shown.length, 2);
    assert.deepEqual(
      [...asked],
      [
        [declined.digest, false],
        [other.digest, true],
      ],
    );
  });

  it('a question VS Code refuses to show (it throws) is a "no"', async () => {
    const store = new FakeStore();
    const confirm = consentConfirmer(store, () => Promise.reject(new Error('DialogService: refused to show dialog in tests')));
    assert.equal(await confirm(consentRequest(effects(), 's')), false);
    assert.deepEqual(store.keys(), []);
  });

  it("forgets this version's answers and older ones, in every store, and nothing else", async () => {
    const global = new FakeStore();
    const workspace = new FakeStore();
    await global.update(`${CONSENT_PREFIX}abc`, true);
    await global.update('rbench.other', 1);
    await workspace.update(`${LEGACY_CONFIRMATION_PREFIX}a.rbench\u0000redis://h:1`, true);
    assert.equal(await forgetRemoteAnswers(global, workspace), 2);
    assert.deepEqual(global.keys(), ['rbench.other']);
    assert.deepEqual(workspace.keys(), []);
    assert.equal(await forgetRemoteAnswers(global), 0);
  });
});
