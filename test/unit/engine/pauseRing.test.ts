// The slow replies a PauseMonitor holds until the pauses around them are known (src/engine/measure/clientPauses.ts):
// a ring that starts small and doubles up to its bound as slow replies need it (issue 46: three rings of 16,384 were
// 384 KB of every engine thread's memory, most loads meeting few slow replies), each reply judged once, in order.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { PauseMonitor } from '../../../src/engine/measure/clientPauses';

interface Inside {
  pause(from: number, to: number): void;
  slowAt: Float64Array;
}

describe('client pauses: the ring of slow replies', () => {
  it('holds a few entries until slow replies come, then grows; every reply judged, none twice', () => {
    const monitor = new PauseMonitor();
    const inside = monitor as unknown as Inside;
    monitor.start();
    try {
      assert.ok(inside.slowAt.length <= 256, `${inside.slowAt.length} entries before any slow reply`);
      const now = performance.now();
      inside.pause(now - 100, now);
      let inPause = 0;
      for (let k = 0; k < 5000; k++) {
        // Even replies sat inside the pause (a 50 ms round trip ending now); odd ones came long after it.
        const count = 1 + (k % 3);
        if (k % 2 === 0) {
          monitor.slowReply(50_000, count, now);
          inPause += count;
        } else monitor.slowReply(2_000, count, now + 10_000);
      }
      assert.ok(inside.slowAt.length >= 5000 && inside.slowAt.length <= 16384, `${inside.slowAt.length} entries for 5,000 replies`);
      const figures = monitor.finish();
      assert.equal(figures.overlappedReplies, inPause);
    } finally {
      monitor.stop();
    }
  });

  it('at its bound, judges its oldest reply to make room: nothing is lost', () => {
    const monitor = new PauseMonitor();
    const inside = monitor as unknown as Inside;
    monitor.start();
    try {
      const now = performance.now();
      inside.pause(now - 100, now);
      for (let k = 0; k < 20_000; k++) monitor.slowReply(50_000, 1, now);
      assert.equal(inside.slowAt.length, 16384);
      assert.equal(monitor.finish().overlappedReplies, 20_000);
    } finally {
      monitor.stop();
    }
  });
});
