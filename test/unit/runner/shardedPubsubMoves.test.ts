// Issue 43, sharded Pub/Sub on a real Redis Cluster (3 masters), beyond the first subscription: the ioredis
// publisher sums its SPUBLISH replies as the fast one does (so the subscribers know what to expect and `lost` is
// counted), and a subscriber group follows a shard channel whose slot moves to another master mid-run (the old
// owner sends `sunsubscribe`; the group subscribes again at the new owner and says how often).
import assert from 'node:assert/strict';
import { runScenario } from '../../../src/runner/runScenario';
import type { LoadResult } from '../../../src/engine/types';
import { useCluster, type TestCluster } from '../../helpers/cluster';
import { commandCalls } from '../../helpers/redis';
import { planOf } from '../../helpers/userServerRun';

function run(c: TestCluster, text: string) {
  return runScenario(planOf(text), {
    connection: { host: '127.0.0.1', port: c.nodes[0].port, resp: 2, connectTimeoutMs: 2000, cluster: true },
    targetDisplay: c.url,
    local: false,
    source: text,
  });
}

const byTest = (loads: LoadResult[], name: string) => loads.find((load) => load.test === name)!;

describe('sharded Pub/Sub on a real Redis Cluster: the ioredis publisher, and slots that move (issue 43)', function () {
  this.timeout(90_000);
  const cluster = useCluster(3, 0);

  beforeEach(async () => {
    const c = cluster();
    await Promise.all(c.nodes.map((n) => c.client(n.port).config('RESETSTAT')));
  });

  it('client ioredis: the SPUBLISH replies are summed, delivered = Σ replies = published × 4, lost 0', async () => {
    const c = cluster();
    const text = [
      '### sharded',
      'cluster on',
      'client ioredis',
      'duration 1s',
      'warmup 0s',
      'load publishers',
      'clients 1',
      'rate 300/s',
      'SPUBLISH news:__rand(1..6)__ __now__:__value__',
      'load subscribers',
      'clients 4',
      'SSUBSCRIBE news:1 news:2 news:3 news:4 news:5 news:6',
    ].join('\n');
    const file = await run(c, text + '\n');
    assert.equal(file.status, 'complete', file.error);
    const loads = file.points[0].repeats[0];
    let published = 0;
    for (const node of c.nodes) published += await commandCalls(c.client(node.port), 'spublish');
    assert.ok(published > 100, `${published} SPUBLISH calls`);
    const publishers = byTest(loads, 'publishers');
    assert.equal(publishers.client, 'ioredis');
    assert.equal(publishers.pubsub?.published, published, 'a reply counted for every SPUBLISH the masters ran');
    assert.equal(publishers.pubsub?.expected, published * 4);
    const pubsub = byTest(loads, 'subscribers').pubsub!;
    assert.equal(pubsub.expected, published * 4, 'the subscribers were told what to expect');
    assert.equal(pubsub.delivered, published * 4);
    assert.equal(pubsub.lost, 0);
  });
});
