// `rbench run` against a Sentinel-managed primary: `--url redis-sentinel://…` and `target redis-sentinel://…`,
// load, INFO sampling and clean-up on the primary, a wrong primary name, and a failover during a run.
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import type { LocalServer } from '../../../src/redis/localServer';
import { runCli, startCli, useScratch } from '../../helpers/cli';
import { commandCalls } from '../../helpers/redis';
import { PRIMARY_NAME, useSentinelSet } from '../../helpers/sentinel';

async function onServer<T>(server: LocalServer, fn: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ host: server.host, port: server.port, lazyConnect: true });
  try {
    await redis.connect();
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

describe('rbench run with a Sentinel target', function () {
  this.timeout(90_000);
  const set = useSentinelSet();
  const scratch = useScratch();

  it('runs `--url redis-sentinel://…` on the primary, with INFO sampled and clean-up done there', async () => {
    const primary = await set().primary();
    const replica = set().servers.find((server) => server !== primary)!;
    const before = await onServer(primary, (r) => commandCalls(r, 'set'));
    const file = scratch.write(
      'ha.rbench',
      '### via sentinel\nclients 3\npipeline 4\nrequests 3000\ncleanup sentinel-cli:*\nSET sentinel-cli:__key__ __value__\n',
    );
    const result = await runCli(['run', '--yes', '--url', set().url, file], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stderr);
    const [run] = scratch.runFiles();
    assert.equal(run.status, 'complete');
    assert.equal(run.target.display, set().url);
    assert.deepEqual(run.target.primaries, [`127.0.0.1:${primary.port}`], 'the run file names the primary measured');
    assert.match(result.stdout + result.stderr, new RegExp(`^sentinel primary: 127\\.0\\.0\\.1:${primary.port}$`, 'm'));
    assert.equal(run.points[0].repeats[0][0].total.requests, 3000);
    assert.equal((await onServer(primary, (r) => commandCalls(r, 'set'))) - before, 3000, 'every SET reached the primary');
    assert.ok(run.server.before && run.server.before.totalCommandsProcessed > 0, 'INFO was read from a data node');
    assert.ok((run.cleanedUpKeys ?? 0) > 0, 'the clean-up deleted the keys');
    assert.equal(await onServer(primary, (r) => r.exists('sentinel-cli:000000000001')), 0);
    assert.match(await onServer(replica, (r) => r.info('replication')), /role:slave/, 'the replica stayed a replica');
  });

  it('says when the sentinels know no such primary, with exit code 3', async () => {
    const file = scratch.write('wrong.rbench', `### wrong name\ntarget redis-sentinel://127.0.0.1:${set().sentinels[0].port}/nope\nrequests 10\nPING\n`);
    const result = await runCli(['run', '--yes', file], { cwd: scratch.dir });
    assert.equal(result.code, 3, result.stdout + result.stderr);
    assert.match(result.stdout + result.stderr, /know no primary named "nope"/);
    assert.doesNotMatch(result.stdout + result.stderr, /\n\s+at /, 'no stack trace');
  });

  it('says so when a redis:// target is a sentinel, rather than loading it with unknown commands', async () => {
    const port = set().sentinels[0].port;
    const file = scratch.write('direct.rbench', `### at the sentinel\ntarget redis://127.0.0.1:${port}\nrequests 10\nSET k v\n`);
    const result = await runCli(['run', '--yes', file], { cwd: scratch.dir });
    assert.notEqual(result.code, 0);
    assert.match(
      result.stdout + result.stderr,
      new RegExp(`127\\.0\\.0\\.1:${port} is a sentinel, not a data node: .*redis-sentinel://127\\.0\\.0\\.1:${port}/NAME`),
    );
    const [run] = scratch.runFiles();
    assert.equal(run?.points.length ?? 0, 0, 'no load was run');
  });

  it('follows a SENTINEL FAILOVER during a duration run: the run completes on the new primary', async () => {
    await set().readyForFailover();
    const old = await set().primary();
    const file = scratch.write(
      'failover.rbench',
      `### through a failover\ntarget ${set().url}\nclients 4\nduration 8s\nSET sentinel-failover:__key__ __value__\n`,
    );
    const cli = startCli(['run', '--yes', file], { cwd: scratch.dir });
    await cli.waitFor(/through a failover/, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const promoted = await set().failover();
    assert.notEqual(promoted.port, old.port);
    const atSwitch = await onServer(promoted, (r) => commandCalls(r, 'set'));
    const result = await cli.done;
    assert.ok(result.code === 0 || result.code === 1, `exit ${result.code}: ${result.stderr}`);
    const [run] = scratch.runFiles();
    assert.ok(run.status === 'complete' || run.status === 'complete-with-errors', `${run.status}: ${run.error}`);
    const load = run.points[0].repeats[0][0];
    assert.ok(load.connections.reconnects > 0);
    assert.ok((await onServer(promoted, (r) => commandCalls(r, 'set'))) - atSwitch > 100, 'the load went on on the new primary');
    const last = run.server.samples[run.server.samples.length - 1];
    assert.ok(last && last.t > 5000, 'INFO sampling went on after the failover');
    assert.match(run.target.display, new RegExp(`/${PRIMARY_NAME}$`));
    // The run file names both primaries measured, in order, and so does the summary.
    const [was, now] = [`127.0.0.1:${old.port}`, `127.0.0.1:${promoted.port}`];
    assert.deepEqual(run.target.primaries, [was, now]);
    assert.ok((result.stdout + result.stderr).includes(`sentinel primary: ${was}, then ${now} after a failover`), result.stdout + result.stderr);
  });
});
