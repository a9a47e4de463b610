// The pause set behind the client-pause figures: sorted, disjoint, bounded; joins report what they added.
import assert from 'node:assert/strict';
import { PauseSet } from '../../../src/engine/measure/pauseSet';

describe('pause set', () => {
  it('joins overlapping pauses (a GC that arrives late into the block it caused) and counts each once', () => {
    const set = new PauseSet(8, 'recent');
    assert.deepEqual(set.add(10, 20), { pauses: 1, ms: 10 });
    assert.deepEqual(set.add(30, 32), { pauses: 1, ms: 2 });
    // A late GC entry covering the first one and part of the gap: no new pause, 5 ms more.
    assert.deepEqual(set.add(8, 23), { pauses: 0, ms: 5 });
    // One bridging both: the two become one.
    assert.deepEqual(set.add(22, 31), { pauses: -1, ms: 7 });
    assert.equal(set.size, 1);
    assert.equal(set.within(0, 100), 24);
    assert.equal(set.within(9, 11), 2);
    assert.equal(set.within(40, 50), 0);
  });

  it('stays bounded: a recent set lets its oldest go, a longest set its shortest', () => {
    const recent = new PauseSet(3, 'recent');
    const longest = new PauseSet(3, 'longest');
    for (const [from, to] of [
      [0, 50],
      [100, 101],
      [200, 210],
      [300, 302],
    ]) {
      recent.add(from, to);
      longest.add(from, to);
    }
    assert.equal(recent.size, 3);
    assert.equal(recent.within(0, 60), 0);
    assert.equal(longest.within(0, 60), 50);
    assert.equal(longest.within(100, 102), 0);
  });
});
