import assert from 'node:assert/strict';
import { check, clean, only } from './helpers';

const tests = (text: string) => clean(text).scenarios[0].points[0].phases[0].tests;

describe('suites', () => {
  it('expands `suite default` to redis-benchmark 7.0 tests in its order', () => {
    assert.deepEqual(
      tests('### s\nsuite default').map((test) => test.name),
      [
        'PING_INLINE',
        'PING_MBULK',
        'SET',
        'GET',
        'INCR',
        'LPUSH',
        'RPUSH',
        'LPOP',
        'RPOP',
        'SADD',
        'HSET',
        'SPOP',
        'ZADD',
        'ZPOPMIN',
        'LPUSH (needed to benchmark LRANGE)',
        'LRANGE_100 (first 100 elements)',
        'LRANGE_300 (first 300 elements)',
        'LRANGE_500 (first 450 elements)',
        'LRANGE_600 (first 600 elements)',
        'MSET (10 keys)',
      ],
    );
  });

  it('uses redis-benchmark key names, payloads and labels', () => {
    const byName = new Map(tests('### s\nsuite default').map((test) => [test.name, test.commands[0].command]));
    assert.deepEqual(byName.get('PING_INLINE'), { name: 'PING', label: 'PING_INLINE', args: [], inline: true, source: byName.get('PING_INLINE')!.source });
    assert.equal(byName.get('PING_MBULK')!.inline, undefined);
    assert.deepEqual(byName.get('SET')!.args, [['key:', { placeholder: 'rand_int' }], [{ placeholder: 'value' }]]);
    assert.deepEqual(byName.get('INCR')!.args, [['counter:', { placeholder: 'rand_int' }]]);
    assert.deepEqual(byName.get('SADD')!.args, [['myset'], ['element:', { placeholder: 'rand_int' }]]);
    assert.deepEqual(byName.get('HSET')!.args, [['myhash'], ['element:', { placeholder: 'rand_int' }], [{ placeholder: 'value' }]]);
    assert.deepEqual(byName.get('ZADD')!.args, [['myzset'], ['0'], ['element:', { placeholder: 'rand_int' }]]);
    assert.deepEqual(byName.get('LRANGE_500 (first 450 elements)')!.args, [['mylist'], ['0'], ['449']]);
    assert.equal(byName.get('LRANGE_500 (first 450 elements)')!.label, 'LRANGE_500');
    const mset = byName.get('MSET (10 keys)')!;
    assert.equal(mset.label, 'MSET');
    assert.equal(mset.args.length, 20);
    assert.deepEqual(mset.args.slice(0, 2), [['key:', { placeholder: 'rand_int' }], [{ placeholder: 'value' }]]);
  });

  it('selects by -t names, case-insensitive, in redis-benchmark order whatever the order written', () => {
    assert.deepEqual(
      tests('### s\nsuite GET,set').map((test) => test.name),
      ['SET', 'GET'],
    );
    assert.deepEqual(
      tests('### s\nsuite ping').map((test) => test.name),
      ['PING_INLINE', 'PING_MBULK'],
    );
    assert.deepEqual(
      tests('### s\nsuite lrange_300, mset').map((test) => test.name),
      ['LPUSH (needed to benchmark LRANGE)', 'LRANGE_300 (first 300 elements)', 'MSET (10 keys)'],
    );
    assert.equal(tests('### s\nsuite lrange').length, 5);
  });

  it('scores ZADD with __rand_int__ when a key space is set, like -r', () => {
    const zadd = tests('### s\nkeys 1000\nsuite zadd')[0].commands[0].command;
    assert.deepEqual(zadd.args[1], [{ placeholder: 'rand_int' }]);
    const swept = clean('### s\nsweep keys 10, 20\nsuite zadd').scenarios[0].points[0].phases[0].tests[0].commands[0].command;
    assert.deepEqual(swept.args[1], [{ placeholder: 'rand_int' }]);
  });

  it('combines with the scenario settings and marks writes', () => {
    const scenario = clean('### s\nsuite set,get\nrequests 1M\npipeline 10').scenarios[0];
    const main = scenario.points[0].phases[0];
    assert.deepEqual([main.load.requests, main.load.pipeline], [1_000_000, 10]);
    assert.equal(scenario.writes, true);
    assert.equal(clean('### s\nsuite get').scenarios[0].writes, false);
  });

  it('suggests the nearest test name with a fix', () => {
    const diagnostic = only(check('### s\nsuite set,gett'), 'unknown-suite-test');
    assert.deepEqual([diagnostic.range.start.character, diagnostic.range.end.character], [10, 14]);
    assert.match(diagnostic.message, /did you mean `get`/);
    assert.equal(diagnostic.fixes?.[0].newText, 'get');
  });

  it('cannot share a phase with weighted commands', () => {
    assert.equal(only(check('### s\n50% GET k\nsuite set'), 'mixed-weights').range.start.line, 2);
  });
});
