// The CLI with cluster run files (fabricated loads): `rbench merge` keeps each node and each machine,
// `rbench compare` compares node by node; and `--per-node` on a run against one server changes nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunFile } from '../../../src/results/runFile';
import { runCli, useScratch } from '../../helpers/cli';
import { clusterLoad, clusterRun, THREE_MASTERS } from './fixtures';

describe('CLI with cluster results', function () {
  this.timeout(60_000);
  const scratch = useScratch();

  const part = (index: number) => {
    const run = clusterRun(clusterLoad(THREE_MASTERS, { measuredFrom: '2026-11-29T10:00:00.000Z', detected: index === 2 }), { id: `part-${index}` });
    run.plan.shard = { index, count: 2 };
    return scratch.write(`part-${index}.rbench-run.json`, JSON.stringify(run));
  };

  it('rbench merge: the merged total, each machine, each node, and the cluster line', async () => {
    const result = await runCli(['merge', part(1), part(2), '--out', 'merged.rbench-run.json'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^SET\s+6,022\s.*\s6 \/ 2(?:\s+\S.*)?$/m);
    assert.match(result.stdout, /^ {2}shard 2\/2\s+3,011\s/m);
    assert.match(result.stdout, /^ {2}node 127\.0\.0\.1:7001\s+2,002\s.*\s4 \(CLUSTERDOWN 4\)\s+master\s+5461-10922\s+0 \/ 0$/m);
    assert.match(result.stdout, /^cluster: detected \(the target did not say `cluster on`; INFO cluster did\) · 3 masters took load · MOVED 6, ASK 2$/m);
    const merged = JSON.parse(readFileSync(join(scratch.dir, 'merged.rbench-run.json'), 'utf8')) as RunFile;
    assert.deepEqual(
      merged.points[0].repeats[0][0].cluster?.nodes.map((node) => node.total.requests),
      [1820, 2002, 2200],
    );
  });

  it('rbench compare: each node against the same node of the reference', async () => {
    const result = await runCli(['compare', part(1), part(2)], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    for (const node of ['7000', '7001', '7002']) assert.match(result.stdout, new RegExp(`^SET › node 127\\.0\\.0\\.1:${node}\\s+ops/s\\s`, 'm'));
  });

  it("rbench check: a cluster scenario's MSET without a shared hash tag is an error at its keys (exit 2)", async () => {
    const file = scratch.write('mset.rbench', '### mset\ncluster on\nrequests 10\nMSET a:__key__ v b:__key__ v\n');
    const result = await runCli(['check', file], { cwd: scratch.dir });
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(result.stdout + result.stderr, /mset\.rbench:4:6: error: MSET on a Redis Cluster needs all its keys in one hash slot/);
    const tagged = scratch.write('tagged.rbench', '### mset\ncluster on\nrequests 10\nMSET a:{__key__} v b:{__key__} v\n');
    assert.equal((await runCli(['check', tagged], { cwd: scratch.dir })).code, 0);
  });

  it('rbench run --per-node against one server: accepted, and the table is the plain one', async () => {
    const file = scratch.write('set.rbench', '### set\nrequests 200\nclients 2\nSET k:__key__ v\n');
    const result = await runCli(['run', file, '--per-node', '--csv', 'out.csv'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^SET\s+200\s+2\s/m);
    assert.doesNotMatch(result.stdout, /MOVED|node |^cluster/m);
    assert.deepEqual(readFileSync(join(scratch.dir, 'out.csv'), 'utf8').trim().split('\n').length, 2);
  });
});
