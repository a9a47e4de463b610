// The silence lists: per thread bounded and joined when connections went quiet together; across threads
// joined into the load's stalls, kept only past max(100 ms, 10 × p99).
import assert from 'node:assert/strict';
import { addSilence, joinSilences, MAX_SILENCES, SilenceWatch, type Silence } from '../../../src/engine/measure/silences';

describe('silences and stalls', () => {
  it('connections quiet over the same stretch join into one entry, narrowed to what all were silent through', () => {
    const list: Silence[] = [];
    addSilence(list, 2500, 4500, 1);
    addSilence(list, 2502, 4501, 1);
    addSilence(list, 6000, 6200, 1);
    assert.deepEqual(list, [
      { fromMs: 2502, toMs: 4500, connections: 2 },
      { fromMs: 6000, toMs: 6200, connections: 1 },
    ]);
  });

  it('a full list keeps the longest stretches: memory stays flat', () => {
    const list: Silence[] = [];
    for (let i = 0; i < MAX_SILENCES * 3; i++) addSilence(list, i * 1000, i * 1000 + 100 + (i % 7), 1);
    addSilence(list, 900_000, 905_000, 1);
    assert.equal(list.length, MAX_SILENCES);
    assert.ok(list.some((s) => s.fromMs === 900_000));
  });

  it('threads’ lists join across threads; stalls shorter than 10 × p99 are dropped', () => {
    const a: Silence[] = [{ fromMs: 2500, toMs: 4500, connections: 5 }];
    const b: Silence[] = [
      { fromMs: 2501, toMs: 4499, connections: 5 },
      { fromMs: 5000, toMs: 5150, connections: 1 },
    ];
    assert.deepEqual(joinSilences([a, b], 10, 1000), [
      { fromMs: 2501, toMs: 4499, connections: 10, of: 10 },
      { fromMs: 5000, toMs: 5150, connections: 1, of: 10 },
    ]);
    // p99 20 ms: a 150 ms silence is within 10 × p99, no stall.
    assert.deepEqual(
      joinSilences([a, b], 10, 20_000).map((s) => s.fromMs),
      [2501],
    );
  });

  it('the watch: a reply after 100 ms of quiet is a silence; an idle connection (nothing outstanding) is not', () => {
    const watch = new SilenceWatch(2);
    watch.begin(1000);
    watch.heard(0, 1010);
    watch.heard(0, 1300); // 290 ms quiet with a request outstanding (closed loop)
    watch.sending(1, 1400); // nothing outstanding until now
    watch.heard(1, 1450);
    watch.close(2000, (slot) => (slot === 1 ? 1 : 0)); // slot 1 waits from 1450 to the end
    assert.deepEqual(watch.silences, [
      { fromMs: 10, toMs: 300, connections: 1 },
      { fromMs: 450, toMs: 1000, connections: 1 },
    ]);
    watch.heard(1, 2500);
    assert.equal(watch.silences.length, 2, 'after the window nothing more is noted');
  });

  it('a silence the client made (its thread paused through most of it) is dropped', () => {
    const watch = new SilenceWatch(1);
    watch.begin(0);
    watch.heard(0, 10);
    watch.heard(0, 160); // 150 ms quiet
    watch.heard(0, 2160); // 2 s quiet
    const pausedWithin = (from: number, to: number) => Math.max(0, Math.min(to, 150) - Math.max(from, 20)); // the thread paused 20–150 ms
    assert.deepEqual(
      watch.heardSilences(pausedWithin).map((s) => [s.fromMs, s.toMs]),
      [[160, 2160]],
    );
  });
});
