import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { check, repoRoot } from './helpers';
import { NOT_BUILT_IN } from '../../../src/scenario/commandCheck';

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
      if (file === 'redisearch.rbench') assert.equal(resolved.diagnostics.length, 3, JSON.stringify(resolved.diagnostics));
      assert.ok(resolved.scenarios.length > 0);
    });
  }

  it('write-748b-threads sweeps 3 client counts over 3 key spaces of 748-byte SETs', () => {
    const [sweep, snapshot] = check(readFileSync(path.join(folder, 'write-748b-threads.rbench'), 'utf8')).scenarios;
    assert.equal(sweep.points.length, 9);
    assert.equal(sweep.points[8].label, 'clients=6 keys=3000000');
    assert.deepEqual(sweep.points[0].phases[0].value, { kind: 'fixed', size: 748 });
    assert.deepEqual(snapshot.server, [{ name: 'save', args: ['60', '10000'] }]);
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
