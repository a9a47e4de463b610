// A worker's cluster state passes every node it learns of through the network gate: a layout naming a
// refused node is not taken, a MOVED or ASK to one re-routes nothing, and the refusal says which reply named it.
import assert from 'node:assert/strict';
import { ClusterState } from '../../../src/engine/cluster/clusterState';
import type { ClusterTopology } from '../../../src/redis/clusterTopology';
import { WorkerStats } from '../../../src/engine/measure/stats';
import { ApprovedNodes } from '../../../src/gates/network';
import { ClusterMonitor } from '../../../src/runner/clusterMonitor';

const layout = (hosts: [string, number][]): ClusterTopology => ({
  nodes: hosts.map(([host, port]) => ({ host, port, role: 'master' as const })),
  slots: hosts.map((_, i) => [Math.floor((16384 * i) / hosts.length), Math.floor((16384 * (i + 1)) / hosts.length) - 1, i] as [number, number, number]),
});

function state(topology: ClusterTopology, declared = true): ClusterState {
  const approved = new ApprovedNodes({
    seeds: [{ host: '10.0.0.5', port: 7000 }],
    ...(declared ? { declared: 'cluster' as const } : {}),
    allowHosts: ['10.0.0.6'],
  });
  return new ClusterState({ topology, replicaReads: false, keyArguments: [1], readOnly: [false] }, new WorkerStats(1), approved);
}

describe('network gate: a worker’s cluster state', () => {
  it('takes a layout of approved nodes; a refused one is kept out, the connections told', () => {
    const ok = state(
      layout([
        ['10.0.0.5', 7000],
        ['10.0.0.5', 7001],
        ['10.0.0.6', 7002],
      ]),
    );
    assert.equal(ok.refused, undefined);
    assert.equal(ok.nodes.length, 3);
    const refused = state(
      layout([
        ['10.0.0.5', 7000],
        ['10.0.0.9', 7001],
      ]),
    );
    assert.match(refused.refused ?? '', /^the cluster layout names 10\.0\.0\.9:7001 \(not on 10\.0\.0\.5/);
    assert.equal(refused.nodes.length, 0, 'nothing of the refused layout was taken');
  });

  it('a later layout naming a refused node is not applied: the old one stays', () => {
    const s = state(
      layout([
        ['10.0.0.5', 7000],
        ['10.0.0.5', 7001],
      ]),
    );
    const owner = s.owner[16000];
    assert.match(
      s.apply(
        layout([
          ['10.0.0.5', 7000],
          ['127.0.0.1', 7001],
        ]),
      ) ?? '',
      /127\.0\.0\.1:7001 \(on this machine, while the target is not/,
    );
    assert.equal(s.owner[16000], owner);
    assert.equal(s.nodes.length, 2);
    assert.equal(
      s.apply(
        layout([
          ['10.0.0.5', 7001],
          ['10.0.0.5', 7000],
        ]),
      ),
      undefined,
    );
    assert.equal(s.nodes[s.owner[0]].port, 7001);
  });

  it('MOVED and ASK to an approved node re-route and count; to a refused one, nothing changes', () => {
    const s = state(
      layout([
        ['10.0.0.5', 7000],
        ['10.0.0.5', 7001],
      ]),
    );
    const target = s.redirect(0, 'MOVED', 5, '10.0.0.6', 7005, true);
    assert.equal(typeof target, 'number');
    assert.equal(s.owner[5], target);
    assert.equal(s.moved, 1);
    const refusal = s.redirect(0, 'ASK', 6, '10.0.0.7', 7000, true);
    assert.equal(
      refusal,
      'an ASK reply from 10.0.0.5:7000 names 10.0.0.7:7000 (not on 10.0.0.5, the host the target names, nor an allowed host (10.0.0.6)), which RBench may not contact: ' +
        'it connects only to servers you named, and sent nothing there. To reach them, allow their hosts with `--allow-host HOST` (once per host) or `"allowHosts": ["HOST", …]` in the connection profile.',
    );
    assert.equal(s.ask, 0);
    assert.equal(s.nodes.length, 3, 'the refused node is not known');
    assert.match(String(s.redirect(1, 'MOVED', 7, '10.0.0.5', 7009, false)), /^\d+$/);
  });

  it('an undeclared cluster: even a node on the seed host is refused', () => {
    const s = state(layout([['10.0.0.5', 7000]]), false);
    assert.equal(s.refused, undefined);
    assert.match(
      String(s.redirect(0, 'MOVED', 1, '10.0.0.5', 7001, true)),
      /^a MOVED reply from 10\.0\.0\.5:7000 names 10\.0\.0\.5:7001 \(the target 10\.0\.0\.5:7000 was not declared a cluster/,
    );
  });
});

describe('network gate: INFO sampling of a cluster', () => {
  it('opens no monitor when a master is refused', async () => {
    const seed = { host: '10.0.0.5', port: 7000, resp: 2 as const, connectTimeoutMs: 500, cluster: true };
    const monitor = new ClusterMonitor(seed, [
      { host: '10.0.0.5', port: 7001, role: 'master' },
      { host: '127.0.0.1', port: 7002, role: 'master' },
    ]);
    await assert.rejects(monitor.open(), /^Error: INFO sampling would reach 127\.0\.0\.1:7002 \(on this machine, while the target is not/);
    await monitor.close();
  });
});
