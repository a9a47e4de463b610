// `rbench check` and `rbench run` with command groups on a real Redis Cluster: a group whose unit stays in
// one slot is accepted and runs with a row per node; one whose keys can straddle slots is refused with the fix.
import assert from 'node:assert/strict';
import { commandCalls } from '../../helpers/redis';
import { useCluster } from '../../helpers/cluster';
import { runCli, useScratch } from '../../helpers/cli';

describe('rbench with command groups on a Redis Cluster', function () {
  this.timeout(90_000);
  const cluster = useCluster(3, 0);
  const scratch = useScratch();

  it('check refuses a group whose keys are in different slots, naming the group line and the fix', async () => {
    const file = scratch.write(
      'pair.rbench',
      `### pair\ntarget ${cluster().url}\ncluster on\nrequests 100\ngroup pair\n  SET a:__key__ x\n  GET b:__key__\nend\n`,
    );
    const checked = await runCli(['check', file], { cwd: scratch.dir });
    assert.notEqual(checked.code, 0, checked.stdout + checked.stderr);
    const output = checked.stdout + checked.stderr;
    assert.match(output, /:5:\d+.*group pair: on a Redis Cluster a unit goes whole to the master of its hash slot/);
    assert.match(output, /a:\{__key__\}/);
  });

  it('check accepts a SET/GET/DEL group and a MULTI … EXEC with a shared tag; run sends every unit whole to one master', async () => {
    const { masters } = await cluster().roles();
    await Promise.all(masters.map((port) => cluster().client(port).config('RESETSTAT')));
    const file = scratch.write(
      'tx.rbench',
      `### tx\ntarget ${cluster().url}\ncluster on\nkeys 10k\nclients 3\npipeline 2\nrequests 1500\ngroup sgd\n  SET k:__key__ __value__\n  GET k:__key__\n  DEL k:__key__\nend\ngroup counter-tx\n  MULTI\n  SET {__key__}:v __value__\n  INCR {__key__}:n\n  EXEC\nend\n`,
    );
    const checked = await runCli(['check', file], { cwd: scratch.dir });
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    const result = await runCli(['run', file, '--yes', '--per-node'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const [run] = scratch.runFiles();
    const tx = run.points[0].repeats[0].find((load) => load.test === 'counter-tx')!;
    assert.equal(tx.total.requests, 1500);
    assert.equal(tx.total.errors, 0);
    const execs = await Promise.all(masters.map((port) => commandCalls(cluster().client(port), 'exec')));
    for (const port of masters) {
      const node = tx.cluster!.nodes.find((n) => n.node.endsWith(`:${port}`))!;
      assert.equal(node.total.requests, execs[masters.indexOf(port)], `master ${port}: its units = its EXEC calls`);
      assert.ok(node.total.requests > 0);
    }
    assert.equal(
      execs.reduce((a, b) => a + b, 0),
      1500,
    );
  });
});
