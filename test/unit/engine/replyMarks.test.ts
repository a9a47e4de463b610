// The replies of a read that were nils or empty collections (fast/replyMarks.ts): the cluster path counts a run's
// misses from them (issue 46). Checked against a Set of the same marks, over reads of any length and ranges.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ReplyMarks } from '../../../src/engine/fast/replyMarks';

describe('ReplyMarks: the nils of one read, by reply index', () => {
  it('has and countIn agree with a Set of the marks, however many (growth past the first capacity)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(400), { maxLength: 300 }), fc.nat(420), fc.nat(420), (indexes, a, b) => {
        const sorted = [...indexes].sort((x, y) => x - y);
        const marks = new ReplyMarks();
        for (const reply of sorted) marks.push(reply);
        const set = new Set(sorted);
        assert.equal(marks.length, set.size);
        for (let reply = 0; reply <= 401; reply++) assert.equal(marks.has(reply), set.has(reply), `reply ${reply}`);
        const [from, to] = a <= b ? [a, b] : [b, a];
        assert.equal(marks.countIn(from, to), sorted.filter((r) => r >= from && r < to).length);
        if (to > from) assert.equal(marks.countIn(to, from), 0, 'a reversed range holds none');
      }),
    );
  });

  it('a cleared read keeps nothing of the last one', () => {
    const marks = new ReplyMarks();
    for (let reply = 0; reply < 100; reply += 2) marks.push(reply);
    marks.clear();
    assert.equal(marks.length, 0);
    assert.equal(marks.has(0), false);
    assert.equal(marks.countIn(0, 100), 0);
    marks.push(7);
    assert.equal(marks.countIn(0, 100), 1);
  });
});
