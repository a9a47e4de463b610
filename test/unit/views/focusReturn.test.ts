import assert from 'node:assert/strict';
import { FocusReturn, MAX_LOADING_MS, SETTLE_MS } from '../../../src/views/focusReturn';

describe('views: giving focus back after a results panel loads', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 1_000_000));

  it('returns focus to the editor when the loading panel grabs it, every time while loading', () => {
    const focus = new FocusReturn<string>(clock);
    focus.opened('scenario.rbench');
    now += 200;
    assert.equal(focus.returnTo(), 'scenario.rbench');
    focus.ready();
    now += SETTLE_MS - 1;
    assert.equal(focus.returnTo(), 'scenario.rbench', 'the grab right after the load still counts');
  });

  it('leaves focus in the panel once it has loaded (the user clicked it)', () => {
    const focus = new FocusReturn<string>(clock);
    focus.opened('scenario.rbench');
    focus.ready();
    now += SETTLE_MS + 1;
    assert.equal(focus.returnTo(), undefined);
    now += 1;
    assert.equal(focus.returnTo(), undefined);
  });

  it('gives up after a bounded time when the webview never says it is ready', () => {
    const focus = new FocusReturn<string>(clock);
    focus.opened('scenario.rbench');
    now += MAX_LOADING_MS + 1;
    assert.equal(focus.returnTo(), undefined);
  });

  it('does nothing when no editor had focus (a run from the Test Explorer)', () => {
    const focus = new FocusReturn<string>(clock);
    focus.opened(undefined);
    focus.ready();
    assert.equal(focus.returnTo(), undefined);
  });
});
