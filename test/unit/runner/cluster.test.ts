// A scenario run end to end against a real Redis Cluster: a cluster the target did not declare is detected
// and, since it announces other nodes, stopped by the network gate before any of them is contacted; a
// declared one has its prefill and measured phase routed per slot, and clean-up reaches every master.
import assert from 'node:assert/strict';
import { runLoad } from '../../../src/engine';
import { runScenario } from '../../../src/runner/runScenario';
import { checkText, type ScenarioPlan } from '../../../src/scenario';
import { useCluster } from '../../helpers/cluster';
import { loadRequest, singleTest } from '../engine/plans';

function planOf(text: string): ScenarioPlan {
  const resolved = checkText(text);
  assert.deepEqual(
    resolved.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
    [],
  );
  return resolved.scenarios[0];
}

describe('runScenario against a Redis Cluster', function () {
  this.timeout(90_000);
  const cluster = useCluster(3, 0);

  it('stops a cluster the target did not declare: its other nodes are named, and none is contacted', async () => {
    const c = cluster();
    const seedPort = c.nodes[0].port;
    const others = c.nodes.slice(1).map((n) => n.port);
    const connectionsOf = async (port: number) => Number(/total_connections_received:(\d+)/.exec(await c.client(port).info('stats'))?.[1]);
    const before = await Promise.all(others.map(connectionsOf));
    const text = '### undeclared\ncleanup pre:*\nrequests 100\nSET pre:__key__ __value__\n';
    const run = await runScenario(planOf(text), {
      connection: { host: '127.0.0.1', port: seedPort, resp: 2, connectTimeoutMs: 2000 },
      targetDisplay: c.url,
      local: false,
      source: text,
    });
    assert.equal(run.status, 'failed');
    assert.match(run.error ?? '', new RegExp(`^127\\.0\\.0\\.1:${seedPort} says it is a Redis Cluster node \\(redis_mode:cluster\\), and announces `));
    for (const port of others) assert.match(run.error ?? '', new RegExp(`127\\.0\\.0\\.1:${port}[ ,]`));
    assert.match(run.error ?? '', /declare it: `cluster on` in the scenario/);
    assert.equal(run.points.length, 0);
    assert.deepEqual(await Promise.all(others.map(connectionsOf)), before, 'no connection reached the other nodes');
  });

  for (const client of ['fast', 'ioredis'] as const) {
    it(`${client}: a declared cluster loads every master, samples INFO and cleans up on every master`, async () => {
      const c = cluster();
      await Promise.all(c.nodes.map((n) => c.client(n.port).flushall()));
      // 2000 keys the scenario does not touch, spread over the masters: the INFO samples must count them all.
      const seed = { host: '127.0.0.1', port: c.nodes[0].port };
      const old = await runLoad(
        loadRequest(seed, {
          test: singleTest('SET old:__key__ __value__'),
          load: { requests: 2000 },
          keys: { space: 2000, distribution: 'sequential' },
          connection: { cluster: true },
        }),
      );
      assert.equal(old.total.errors, 0);
      const text = `### declared\ncluster on\nclient ${client}\nclients 4\nkeys 3000 sequential\ncleanup pre:*\nprefill\nrequests 3000\nSET pre:__key__ __value__\nphase main\nrequests 6000\nGET pre:__key__\n`;
      const run = await runScenario(planOf(text), {
        connection: { host: '127.0.0.1', port: c.nodes[0].port, resp: 2, connectTimeoutMs: 2000, cluster: true },
        targetDisplay: c.url,
        local: false,
        source: text,
      });
      assert.equal(run.status, 'complete', run.error);
      const load = run.points[0].repeats[0][0];
      assert.equal(load.total.errors, 0, JSON.stringify(load.total.errorExamples));
      assert.equal(load.cluster?.detected, false, 'the cluster was declared');
      assert.equal(load.cluster.nodes.length, 3);
      for (const node of load.cluster.nodes) assert.ok(node.total.requests > 1000, `${node.node}: ${node.total.requests}`);
      // The prefill wrote 3000 distinct keys (sequential over the space) spread over the masters; all are gone.
      assert.equal(run.cleanedUpKeys, 3000);
      const left = await Promise.all(c.nodes.map((n) => c.client(n.port).dbsize()));
      assert.equal(
        left.reduce((a, b) => a + b, 0),
        2000,
        'only the old keys are left',
      );
      // INFO sampled on every master and added up (the seed alone holds about a third of the keys).
      assert.equal(run.server.before?.keys, 2000);
      // The target's key count (run file, panel, CLI) is the cluster's, not the seed's.
      assert.equal(run.target.server?.keys, 2000);
      assert.equal(run.server.after?.keys, 2000);
      assert.ok(
        run.server.samples.length > 0 && run.server.samples.every((s) => s.keys >= 2000),
        `keys sampled: ${run.server.samples.map((s) => s.keys).join(', ')}`,
      );
    });
  }
});
