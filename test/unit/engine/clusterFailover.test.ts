// A cluster master killed (SIGKILL) during a run while its replica takes over (short cluster-node-timeout):
// the run goes on, the requests for the dead master's slots fail as counted errors until the slot map,
// read again from the live nodes, sends them to the promoted replica.
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { runLoad } from '../../../src/engine';
import { startCluster, type TestCluster } from '../../helpers/cluster';
import { setTimeout as sleep } from 'node:timers/promises';
import { commandCalls } from '../../helpers/redis';
import { whenServerCalled } from '../../helpers/serverStall';
import { loadRequest, singleTest } from './plans';

async function info(port: number, section: string): Promise<string> {
  const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.info(section)) as string;
  } finally {
    redis.disconnect();
  }
}

describe('a Redis Cluster master killed during a run', function () {
  this.timeout(120_000);
  let cluster: TestCluster | undefined;
  afterEach(async function () {
    this.timeout(30_000);
    await cluster?.stop();
    cluster = undefined;
  });

  for (const client of ['fast', 'ioredis'] as const)
    it(`is survived on the ${client} path: the load goes on against its promoted replica, errors counted on the dead node, node totals adding up`, async () => {
      cluster = await startCluster(3, 1, { nodeTimeoutMs: 1000 });
      const { masters, replicas } = await cluster.roles();
      // Not the seed node: the load reads the layout through it at the start.
      const victim = masters.find((port) => port !== cluster!.nodes[0].port)!;
      let heir: number | undefined;
      for (const port of replicas) if ((await info(port, 'replication')).includes(`master_port:${victim}`)) heir = port;
      assert.ok(heir, `a replica of ${victim} among ${replicas.join(', ')}`);
      const running = runLoad(
        loadRequest(
          { host: '127.0.0.1', port: cluster.nodes[0].port },
          {
            client,
            test: singleTest('SET key:__key__ __value__'),
            load: { clients: 4, pipeline: 4, durationMs: 12_000 },
            keys: { space: 10_000 },
            connection: { cluster: true },
          },
        ),
      );
      // Killed once it has run 1,000 of the load's SETs (not at a wall-clock moment: on a busy machine the load may
      // not have connected by then, and the dead node would have had nothing in flight). Its writes paused first
      // (CLIENT PAUSE WRITE: the load's next SETs wait unrun, in flight), its replica caught up with every SET it ran,
      // then SIGKILL: every SET the cluster ran is then in the surviving nodes' commandstats.
      const victimNode = cluster.nodes.find((n) => n.port === victim)!;
      let ranOnVictim = 0;
      let heirHadAtKill = 0;
      const killed = whenServerCalled({ host: '127.0.0.1', port: victim }, 'set', 1000, running, async (redis) => {
        await redis.call('CLIENT', 'PAUSE', '60000', 'WRITE');
        const offset = Number(/master_repl_offset:(\d+)/.exec((await redis.info('replication')) as string)![1]);
        while (Number(/slave_repl_offset:(\d+)/.exec(await info(heir!, 'replication'))?.[1] ?? -1) < offset) await sleep(10);
        ranOnVictim = await commandCalls(redis, 'set');
        heirHadAtKill = await commandCalls(cluster!.client(heir!), 'set');
        victimNode.process.kill('SIGKILL');
      });
      const result = await running;
      assert.ok(await killed, 'the master was killed while the load ran');

      assert.ok(result.status === 'complete' || result.status === 'complete-with-errors', `${result.status}: ${result.error}`);
      assert.equal(result.windowKind, 'planned-duration', 'the run lasted its duration (no stall on the dead node)');
      assert.match(await info(heir, 'replication'), /role:master/, 'the replica was promoted');
      const nodes = result.cluster!.nodes;
      const promoted = nodes.find((n) => n.node === `127.0.0.1:${heir}`);
      assert.ok(promoted, `the promoted replica is in the breakdown: ${nodes.map((n) => n.node).join(', ')}`);
      const served = await commandCalls(cluster.client(heir), 'set');
      assert.ok(promoted.total.requests > 1000, `the load went on against the promoted replica (${promoted.total.requests} requests)`);
      assert.ok(served >= promoted.total.requests - promoted.total.errors, `it served them (${served} SETs in its commandstats)`);
      const dead = nodes.find((n) => n.node === `127.0.0.1:${victim}`)!;
      assert.equal(heirHadAtKill, ranOnVictim, 'the replica had every SET its master ran');
      // Each request counted once, as a reply or an error. The fast path fails the dead master's requests in flight
      // (the paused SETs). ioredis retries them (maxRedirections 16 × retryDelayOnFailover 100 ms, reading the slot map
      // again) and answers them from the promoted replica when the failover ends inside that window, as errors when not:
      // a race of ioredis's retry window with the failover, so either is accepted there, and the count must add up.
      if (client === 'fast')
        assert.ok(
          dead.total.errors > 0 && (dead.total.errorsByKind.CONNECTION ?? 0) > 0,
          `the dead master's lost requests are errors: ${JSON.stringify(dead.total.errorsByKind)}`,
        );
      const ran = (await Promise.all(masters.filter((port) => port !== victim).map((port) => commandCalls(cluster!.client(port), 'set')))).reduce(
        (a, b) => a + b,
        await commandCalls(cluster.client(heir), 'set'),
      );
      const replies = result.total.requests - result.total.errors;
      // No warm-up: every SET the cluster ran is a request counted, as a reply (each reply is a SET run) or an error
      // (a request lost with the dead node, or retried in vain, may or may not have run).
      assert.ok(
        replies <= ran && ran <= result.total.requests,
        `each request counted once: ${replies} replies + ${result.total.errors} errors, ${ran} SETs run by the surviving nodes`,
      );
      for (const kind of Object.keys(result.total.errorsByKind)) assert.match(kind, /^(CONNECTION|CLUSTERDOWN|TIMEOUT|TRYAGAIN)$/, kind);
      assert.equal(
        nodes.reduce((sum, n) => sum + n.total.requests, 0),
        result.total.requests,
        'per-node requests add up to the total',
      );
      assert.equal(
        nodes.reduce((sum, n) => sum + n.total.errors, 0),
        result.total.errors,
        'per-node errors add up to the total',
      );
      // The gap: the seconds before the promotion are slower than the steady rate after it.
      const buckets = result.timeline.slice(0, -1).map((bucket) => bucket.ops);
      const steady = [...buckets].sort((a, b) => a - b)[Math.floor(buckets.length / 2)];
      assert.ok(Math.min(...buckets) < steady / 2, `the timeline shows the gap: ${JSON.stringify(buckets.map(Math.round))}`);
      console.log(
        `      ${client}: ${result.total.requests} requests, ${result.total.errors} errors ${JSON.stringify(result.total.errorsByKind)}, ` +
          `${promoted.total.requests} on the promoted replica, timeline ${JSON.stringify(buckets.map(Math.round))}`,
      );
    });
});
