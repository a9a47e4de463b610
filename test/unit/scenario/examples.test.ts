import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { check, repoRoot } from './helpers';
import { NOT_BUILT_IN } from '../../../src/scenario/commandCheck';
import { runCli, useScratch } from '../../helpers/cli';
import { REDISEARCH } from '../../helpers/modules';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';

describe('examples', () => {
  const folder = path.join(repoRoot(), 'examples');
  const files = readdirSync(folder).filter((file) => file.endsWith('.rbench'));

  it('ships the four documented examples', () => {
    for (const name of ['redis-benchmark-default.rbench', 'write-748b-threads.rbench', 'list-push-pop.rbench', 'size-sweeps.rbench']) {
      assert.ok(files.includes(name), `${name} is missing`);
    }
  });

  for (const file of files) {
    it(`${file} resolves with zero diagnostics`, () => {
      const resolved = check(readFileSync(path.join(folder, file), 'utf8'), { baseDir: folder });
      // A module's commands (redisearch.rbench's FT.*) are checked against the server when the run starts: offline, a warning each.
      const offline = resolved.diagnostics.filter((d) => !(d.severity === 'warning' && d.message.endsWith(NOT_BUILT_IN)));
      assert.deepEqual(offline, []);
      if (file === 'redisearch.rbench') assert.equal(resolved.diagnostics.length, 4, JSON.stringify(resolved.diagnostics));
      assert.ok(resolved.scenarios.length > 0);
    });
  }

  it('write-748b-threads sweeps 3 client counts over 3 key spaces of 748-byte SETs', () => {
    const [sweep, snapshot] = check(readFileSync(path.join(folder, 'write-748b-threads.rbench'), 'utf8')).scenarios;
    assert.equal(sweep.points.length, 9);
    assert.equal(sweep.points[8].label, 'clients=6 keys=3000000');
    assert.deepEqual(sweep.points[0].phases[0].value, { kind: 'fixed', size: 748 });
    assert.deepEqual(snapshot.server, [{ name: 'save', args: ['5', '1000'] }]);
  });

  it('list-push-pop sizes its phases from @values and takes --var overrides', () => {
    const text = readFileSync(path.join(folder, 'list-push-pop.rbench'), 'utf8');
    const phases = (vars = {}) => check(text, { vars }).scenarios[1].points[0].phases;
    assert.deepEqual(
      phases().map((phase) => [phase.name, phase.measured, phase.load.requests]),
      [
        ['empty', false, 1],
        ['push', true, 10_000],
        ['pop', true, 10_000],
      ],
    );
    assert.equal(phases({ values: '100M' })[1].load.requests, 1_000_000);
    assert.deepEqual(phases()[1].tests[0].commands[0].command.args[0], ['rbench:lists:', { placeholder: 'client' }]);
    assert.equal(phases()[1].tests[0].commands[0].command.args.length, 101);
  });

  it('hash-from-csv writes its shipped CSV rows as hashes (issue 23)', () => {
    const [profiles] = check(readFileSync(path.join(folder, 'hash-from-csv.rbench'), 'utf8'), { baseDir: folder }).scenarios;
    const [load] = profiles.points[0].phases;
    assert.deepEqual([load.fields?.file, load.fields?.count, load.fields?.names?.slice(0, 3)], ['data/users.csv', 200, ['id', 'name', 'email']]);
    assert.deepEqual(load.tests[0].commands[0].command.args[1], [{ placeholder: 'fields' }]);
  });

  it('ttl-cache gives its writes an expiry of 1 to 10 seconds (issue 23)', () => {
    const [cache, sessions] = check(readFileSync(path.join(folder, 'ttl-cache.rbench'), 'utf8')).scenarios;
    const mix = cache.points[0].phases[1];
    assert.deepEqual(mix.ttl, { min: 1, max: 10, unit: 's' });
    assert.deepEqual(mix.tests[0].commands[1].command.args.slice(2), [['EX'], [{ placeholder: 'ttl' }]]);
    assert.deepEqual(
      sessions.points[0].phases[0].tests[0].commands.map(({ command }) => command.name),
      ['HSET', 'EXPIRE'],
    );
  });

  it('the default-suite example runs redis-benchmark tests', () => {
    const scenarios = check(readFileSync(path.join(folder, 'redis-benchmark-default.rbench'), 'utf8')).scenarios;
    assert.equal(scenarios[0].points[0].phases[0].tests.length, 20);
    assert.deepEqual(
      scenarios[2].points[0].phases[0].tests.map((test) => test.name),
      ['SET', 'GET'],
    );
    assert.equal(scenarios[2].points[0].phases[0].load.pipeline, 10);
  });
});

// Issue 45 (11–13): each example does what its comments say. Each runs shortened by --var on a throwaway
// server (or a test server of its own) and the claim is checked against what the server counted.
describe('examples do what they say', function () {
  this.timeout(240_000);
  const folder = path.join(repoRoot(), 'examples');
  const scratch = useScratch();

  it('write-748b-threads "while Redis snapshots": every point is measured while the server forks for an RDB save, over a dataset of every key', async () => {
    const args = ['run', path.join(folder, 'write-748b-threads.rbench'), '--scenario', '2', '--var', 'snapshot_keys=20k', '--var', 'snapshot_duration=9s'];
    const result = await runCli(args, { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const [run] = scratch.runFiles();
    assert.deepEqual(
      run.points.map((point) => point.label),
      ['clients=2', 'clients=4', 'clients=6'],
    );
    for (const point of run.points) {
      const [load] = point.repeats[0];
      // INFO stats total_forks, read before and after the measured window: a save forked inside it.
      assert.ok((load.server?.forks ?? 0) >= 1, `${point.label}: no fork in the measured window (${JSON.stringify(load.server?.forks)})`);
      // The result says so: the verdict names the forks (as the cause, or as a note, whatever the verdict).
      assert.match(load.bottleneck?.why ?? '', /the server forked \d+× during the test/, `${point.label}: ${JSON.stringify(load.bottleneck)}`);
    }
    assert.ok(run.server.events.filter((event) => event.kind === 'bgsave-start').length >= 3, JSON.stringify(run.server.events));
    // The sequential prefill wrote every key of the space: the server held all 20,000 (DBSIZE, sampled each second).
    assert.equal(Math.max(...run.server.samples.map((sample) => sample.keys)), 20_000);
    assert.match(result.stdout, /forked \d+× during the test/);
  });

  it('list-push-pop: values/s for the variadic RPUSH and for LPOP key 100', async () => {
    const result = await runCli(['run', path.join(folder, 'list-push-pop.rbench'), '--var', 'values=20k'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal((result.stdout.match(/^RPUSH: [\d.]+k? commands\/s × 100 values = [\d.]+[kM]? values\/s$/gm) ?? []).length, 2, result.stdout);
    assert.equal((result.stdout.match(/^LPOP: [\d.]+k? commands\/s × 100 values = [\d.]+[kM]? values\/s$/gm) ?? []).length, 2, result.stdout);
  });

  it("hash-from-csv: the value size shown is the file rows' sizes, not the default 3", async () => {
    const [profiles] = check(readFileSync(path.join(folder, 'hash-from-csv.rbench'), 'utf8'), { baseDir: folder }).scenarios;
    const fields = profiles.points[0].phases[0].fields!;
    const sizes = `${fields.minLength}..${fields.maxLength}`;
    assert.notEqual(fields.minLength, fields.maxLength);
    const result = await runCli(['run', path.join(folder, 'hash-from-csv.rbench'), '--var', 'reads=2k'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    for (const test of ['HGETALL', 'HMGET'])
      assert.match(result.stdout, new RegExp(`^\\S+\\s+${test}\\s+2,000\\s+20\\s+4\\s+\\d+\\s+${sizes.replace(/\./g, '\\.')}\\s`, 'm'), result.stdout);
  });

  describe('redisearch on a server with the module', () => {
    const server = useRedisServer({ modules: [REDISEARCH] });

    it('runs twice on the same server: the index it builds is dropped at the end', async () => {
      const url = `redis://127.0.0.1:${server().port}`;
      for (const time of [1, 2]) {
        const result = await runCli(['run', path.join(folder, 'redisearch.rbench'), '--var', 'docs=300', '--url', url, '--yes'], { cwd: scratch.dir });
        assert.equal(result.code, 0, `run ${time}: ${result.stdout}${result.stderr}`);
      }
      const runs = scratch.runFiles().filter((run) => run.scenario.file?.endsWith('redisearch.rbench'));
      assert.deepEqual(
        runs.map((run) => run.status),
        ['complete', 'complete'],
      );
      await withRedis(server(), async (redis) => {
        assert.equal(await commandCalls(redis, 'FT\\.CREATE'), 2);
        assert.doesNotMatch(await redis.info('commandstats'), /cmdstat_FT\.CREATE:.*failed_calls=[1-9]/, 'the second FT.CREATE found no index in its way');
        // Each run's 20k searches (a few more: the run's probes of the command before its load).
        assert.ok((await commandCalls(redis, 'FT\\.SEARCH')) >= 2 * 20_000);
        assert.equal(await redis.dbsize(), 0, 'nothing left behind');
      });
    });
  });
});
