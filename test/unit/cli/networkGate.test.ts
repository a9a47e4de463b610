// `rbench run` and the network gate: a server claiming to be a cluster node that announces a node on another
// host stops the run with the fix; `--cluster` declares the target (the other host is still refused);
// `--allow-host` approves that host, and the run then loads both nodes.
import assert from 'node:assert/strict';
import { runCli, useScratch } from '../../helpers/cli';
import { CLUSTER_INFO, clusterAnswers, startFakeRedis, type FakeServer } from '../../helpers/fakeRedis';

describe('rbench run: which nodes it contacts', function () {
  this.timeout(60_000);
  const scratch = useScratch();
  let seed: FakeServer | undefined;
  let other: FakeServer | undefined;

  beforeEach(async () => {
    const seedAddress = { host: '127.0.0.1', port: 0 };
    const otherAddress = { host: '127.0.0.2', port: 0 };
    other = await startFakeRedis('127.0.0.2', { info: CLUSTER_INFO, answer: (args) => clusterAnswers(seedAddress, otherAddress)(args) });
    otherAddress.port = other.port;
    seed = await startFakeRedis('127.0.0.1', { info: CLUSTER_INFO, answer: (args) => clusterAnswers(seedAddress, otherAddress)(args) });
    seedAddress.port = seed.port;
  });

  afterEach(async () => {
    await seed?.close();
    await other?.close();
  });

  const scenario = '### set\nclients 2\nrequests 400\nkeys 400 sequential\nSET key:__key__ __value__\n';

  it('stops an undeclared cluster, then a declared one on another host, and runs once the host is allowed', async () => {
    const file = scratch.write('set.rbench', scenario);
    const url = `redis://127.0.0.1:${seed!.port}`;
    const undeclared = await runCli(['run', '--yes', file, '--url', url], { cwd: scratch.dir });
    assert.notEqual(undeclared.code, 0);
    assert.match(
      undeclared.stderr + undeclared.stdout,
      /says it is a Redis Cluster node .*declare it: `cluster on` in the scenario, `--cluster` on the command line/s,
    );
    assert.equal(other!.connections, 0);

    const declared = await runCli(['run', '--yes', file, '--url', url, '--cluster'], { cwd: scratch.dir });
    assert.notEqual(declared.code, 0);
    assert.match(
      declared.stderr + declared.stdout,
      new RegExp(`announces 127\\.0\\.0\\.2:${other!.port} \\(not on 127\\.0\\.0\\.1, the host the target names\\)`),
    );
    assert.equal(other!.connections, 0);

    const allowed = await runCli(['run', '--yes', file, '--url', url, '--cluster', '--allow-host', '127.0.0.2'], { cwd: scratch.dir });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.ok(other!.commands.filter((c) => c[0] === 'SET').length > 0, 'the allowed node took load');
  });

  it('refuses an --allow-host that is not a host', async () => {
    const file = scratch.write('set.rbench', scenario);
    const result = await runCli(['run', file, '--url', `redis://127.0.0.1:${seed!.port}`, '--allow-host', '127.0.0.2:6379'], { cwd: scratch.dir });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /--allow-host: "127\.0\.0\.2:6379" is not a host name or address: give the host alone/);
    assert.equal(seed!.connections, 0, 'nothing was contacted');
  });
});
