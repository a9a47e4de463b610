// A scenario run end to end against a real Redis Cluster: the cluster is detected when the target did not
// declare it, a prefill and the measured phase are routed per slot, and clean-up reaches every master.
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

  it('detects a cluster the target did not declare, loads every master, samples INFO and cleans up on every master', async () => {
    const c = cluster();
    // 2000 keys the scenario does not touch, spread over the masters: the INFO samples must count them all.
    const seed = { host: '127.0.0.1', port: c.nodes[0].port };
    const old = await runLoad(
      loadRequest(seed, { test: singleTest('SET old:__key__ __value__'), load: { requests: 2000 }, keys: { space: 2000, distribution: 'sequential' }, connection: { cluster: true } }),
    );
    assert.equal(old.total.errors, 0);
    const text = '### detect\nclients 4\nkeys 3000 sequential\ncleanup pre:*\nprefill\nrequests 3000\nSET pre:__key__ __value__\nphase main\nrequests 6000\nGET pre:__key__\n';
    const run = await runScenario(planOf(text), {
      connection: { host: '127.0.0.1', port: c.nodes[0].port, resp: 2, connectTimeoutMs: 2000 },
      targetDisplay: c.url,
      local: false,
      source: text,
    });
    assert.equal(run.status, 'complete', run.error);
    const load = run.points[0].repeats[0][0];
    assert.equal(load.total.errors, 0, JSON.stringify(load.total.errorExamples));
    assert.equal(load.cluster?.detected, true, 'the cluster was detected');
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
    assert.ok(run.server.samples.length > 0 && run.server.samples.every((s) => s.keys >= 2000), `keys sampled: ${run.server.samples.map((s) => s.keys).join(', ')}`);
  });
});
