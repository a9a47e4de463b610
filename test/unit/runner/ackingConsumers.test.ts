// Issue 43 (stream queues): a consumer group may acknowledge what it reads — a command group of `XREADGROUP … BLOCK
// ms … STREAMS KEY >` and `XACK KEY GROUP __ids__` — each consumer named by its `__client__`. Against a real
// redis-server: every entry XADD appends is read and acked (XPENDING 0), the server's XACK calls are the XACKs the
// consumers report, and each consumer read under its own name (XINFO CONSUMERS).
import assert from 'node:assert/strict';
import { checkText } from '../../../src/scenario';
import { runFileProblem } from '../../../src/results/runFileSchema';
import { runOnUserServer } from '../../helpers/userServerRun';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';

const STREAM_QUEUE = [
  '### stream queue, acked',
  'prefill group',
  'clients 1',
  'requests 1',
  'XGROUP CREATE rbench:acked:s workers $ MKSTREAM',
  'phase work',
  'requests 300',
  'load producers',
  'clients 2',
  'rate 600/s',
  'XADD rbench:acked:s * job __now__:__value__',
  'load workers',
  'clients 3',
  'group consume',
  '  XREADGROUP GROUP workers c__client__ COUNT 5 BLOCK 200 STREAMS rbench:acked:s >',
  '  XACK rbench:acked:s workers __ids__',
  'end',
  '',
].join('\n');

describe('consumer groups that acknowledge: XREADGROUP … BLOCK then XACK __ids__ (issue 43)', function () {
  this.timeout(90_000);
  const server = useRedisServer();

  it('checks clean: the group is a consumer group, `c__client__` allowed as the consumer name', () => {
    const checked = checkText(STREAM_QUEUE);
    assert.deepEqual(
      checked.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
      [],
    );
    const groups = checked.scenarios[0].points[0].phases.at(-1)!.groups!;
    assert.deepEqual(
      groups.map((group) => `${group.name} ${group.kind}`),
      ['producers requests', 'workers consumers'],
    );
  });

  it('still refuses a placeholder in the stream key, and a second command that is not the XACK of the IDs read', () => {
    const errors = (text: string) =>
      checkText(text)
        .diagnostics.filter((d) => d.severity === 'error')
        .map((d) => d.code);
    assert.ok(errors(STREAM_QUEUE.replace('STREAMS rbench:acked:s >', 'STREAMS rbench:acked:__key__ >')).includes('consumer-placeholder'));
    assert.ok(errors(STREAM_QUEUE.replace('XACK rbench:acked:s workers __ids__', 'GET x')).includes('consumer-one-command'));
  });

  it('reads and acks every entry: jobs = XADDs, XPENDING 0, XACK calls = the acks reported, one consumer name per client', async () => {
    const before = await withRedis(server(), (redis) => commandCalls(redis, 'xack'));
    const file = await runOnUserServer(server(), STREAM_QUEUE);
    assert.equal(file.status, 'complete', file.error);
    assert.equal(runFileProblem(JSON.parse(JSON.stringify(file)), 'run'), undefined);
    const [producers, workers] = file.points[0].repeats[0];
    const consumer = workers.consumer!;
    assert.equal(producers.sent!.byLabel.XADD, 300);
    assert.equal(consumer.jobs, 300, 'every entry appended was read');
    assert.equal(consumer.acked, 300, 'every entry read was acknowledged');
    assert.ok(consumer.wakeUp.latency.count === 300, 'each stamped entry gives a wake-up latency');
    assert.deepEqual(consumer.queueLeft, [
      { key: 'rbench:acked:s', command: 'XLEN', length: 300 },
      { key: 'rbench:acked:s', command: 'XPENDING', length: 0 },
    ]);
    const { xack, names, pending } = await withRedis(server(), async (redis) => ({
      xack: (await commandCalls(redis, 'xack')) - before,
      names: ((await redis.call('XINFO', 'CONSUMERS', 'rbench:acked:s', 'workers')) as unknown[][]).map((fields) => String(fields[1])).sort(),
      pending: (await redis.call('XPENDING', 'rbench:acked:s', 'workers')) as unknown[],
    }));
    assert.equal(xack, consumer.acks, 'the server saw the XACKs the consumers report');
    assert.equal(workers.sent!.byLabel[Object.keys(workers.sent!.byLabel).find((label) => label.includes('XACK'))!], xack);
    assert.equal(pending[0], 0);
    assert.deepEqual(names, ['c0', 'c1', 'c2']);
  });
});
