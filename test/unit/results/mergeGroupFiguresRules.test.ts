// The rules of `rbench merge` for group figures that live runs do not reach easily, on crafted parts: channels stay
// within the run file's bound, the queue left is the read of the part that stopped last, the clock is several
// machines' when the parts' machines differ, and an expected count some part did not know is left unknown.
import assert from 'node:assert/strict';
import { MAX_PUBSUB_CHANNELS, type ConsumerResult, type LoadResult, type PubSubResult } from '../../../src/engine/types';
import { mergeHistograms } from '../../../src/results/merge';
import { mergeConsumers, mergePubSub } from '../../../src/results/mergeGroupFigures';

function consumerLoad(startMs: number, durationMs: number, consumer: Partial<ConsumerResult>): LoadResult {
  const full: ConsumerResult = {
    consumers: 2,
    pops: 10,
    jobs: 8,
    emptyReturns: 2,
    wakeUp: mergeHistograms([]),
    idleMs: 100,
    idleConsumers: 0.1,
    drainMs: 50,
    ended: 'drained',
    queueLeft: [],
    ...consumer,
  };
  return { measuredFrom: new Date(startMs).toISOString(), startedAt: new Date(startMs).toISOString(), durationMs, consumer: full } as unknown as LoadResult;
}

const subscriberLoad = (pubsub: Omit<PubSubResult, 'role'>) => ({ pubsub: { role: 'subscriber', ...pubsub } }) as unknown as LoadResult;

describe('merge rules for group figures (crafted parts)', () => {
  it('the queue left is what the part that stopped last read; the worst end and the longest drain win', () => {
    const early = consumerLoad(0, 1000, { queueLeft: [{ key: 'q', command: 'LLEN', length: 40 }], drainMs: 10, ended: 'drain-limit' });
    const late = consumerLoad(200, 1000, { queueLeft: [{ key: 'q', command: 'EXISTS', length: 0 }], drainMs: 30 });
    for (const order of [
      [early, late],
      [late, early],
    ]) {
      const merged = mergeConsumers(order, mergeHistograms)!;
      assert.deepEqual(merged.queueLeft, [{ key: 'q', command: 'EXISTS', length: 0 }]);
      assert.equal(merged.ended, 'drain-limit');
      assert.equal(merged.drainMs, 30);
      assert.deepEqual([merged.consumers, merged.pops, merged.jobs, merged.emptyReturns, merged.idleMs], [4, 20, 16, 4, 200]);
    }
  });

  it('channels add per channel and stay within the bound, the rest under …', () => {
    const channels = (prefix: string) => Object.fromEntries(Array.from({ length: MAX_PUBSUB_CHANNELS }, (_, i) => [`${prefix}${i}`, 1]));
    const a = subscriberLoad({ delivered: MAX_PUBSUB_CHANNELS + 5, channels: { ...channels('a'), shared: 2, '…': 3 } });
    const b = subscriberLoad({ delivered: MAX_PUBSUB_CHANNELS + 3, channels: { ...channels('b'), shared: 3 } });
    const merged = mergePubSub([a, b], true)!;
    assert.equal(Object.keys(merged.channels!).length, MAX_PUBSUB_CHANNELS + 1);
    assert.equal(merged.channels!.shared, 5);
    assert.equal(
      Object.values(merged.channels!).reduce((x, y) => x + y, 0),
      merged.delivered,
      'no message is lost from the counts',
    );
  });

  it("lost is read from the sums (a part's own lost compared one machine's promises); unknown when a part's expected is", () => {
    const a = subscriberLoad({ delivered: 100, expected: 60, lost: 0, clock: 'one-machine' });
    const b = subscriberLoad({ delivered: 20, expected: 70, lost: 50, clock: 'one-machine' });
    assert.deepEqual(mergePubSub([a, b], true), { role: 'subscriber', delivered: 120, expected: 130, lost: 10, clock: 'one-machine' });
    assert.equal(mergePubSub([a, b], false)!.clock, 'several-machines', 'machines that differ: several clocks');
    const unknown = mergePubSub([a, subscriberLoad({ delivered: 20 })], true)!;
    assert.equal(unknown.expected, undefined);
    assert.equal(unknown.lost, undefined);
  });
});
