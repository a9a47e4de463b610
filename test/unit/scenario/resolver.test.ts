import assert from 'node:assert/strict';
import { formatDiagnostic, type ArgTemplate } from '../../../src/scenario';
import { check, clean, codes, errors, only, span } from './helpers';

const phase = (text: string, options = {}) => clean(text, options).scenarios[0].points[0].phases[0];

describe('resolver: defaults and settings', () => {
  it('applies redis-benchmark-like defaults', () => {
    const resolved = clean('### s\nGET k');
    const scenario = resolved.scenarios[0];
    const main = scenario.points[0].phases[0];
    assert.deepEqual(main.load, { clients: 50, threads: 'auto', pipeline: 1, warmupMs: 0, requests: 100_000 });
    assert.deepEqual(main.keys, { space: 1, distribution: 'uniform', zipfExponent: 0.99, gaussianStddev: 1 / 6, size: 12 });
    assert.deepEqual(main.value, { kind: 'fixed', size: 3 });
    assert.deepEqual(scenario.target, { cluster: false, resp: 2, client: 'fast', connectTimeoutMs: 5000 });
    assert.equal(scenario.repeat, 1);
    assert.deepEqual(
      scenario.points.map((point) => point.label),
      [''],
    );
    assert.equal(scenario.writes, false);
    assert.equal(main.name, 'main');
    assert.equal(main.measured, true);
  });

  it('normalises units and inherits file-level settings', () => {
    const main = phase(
      'clients 8\nthreads 2\n### s\npipeline 16\nduration 1m\nwarmup 500ms\nrate 20k/s\nkeys 1M zipf 1.2\nkey-size 16\nseed 7\nvalue 64 80%, 1KB 20%\nGET k',
    );
    assert.deepEqual(main.load, { clients: 8, threads: 2, pipeline: 16, warmupMs: 500, durationMs: 60_000, rate: 20_000 });
    assert.deepEqual(main.keys, { space: 1_000_000, distribution: 'zipf', zipfExponent: 1.2, gaussianStddev: 1 / 6, size: 16, seed: 7 });
    assert.deepEqual(main.value, {
      kind: 'weighted',
      choices: [
        { size: 64, weight: 0.8 },
        { size: 1024, weight: 0.2 },
      ],
    });
  });

  it('reads value ranges and equal-weight lists', () => {
    assert.deepEqual(phase('### s\nvalue 100..1000\nGET k').value, { kind: 'range', min: 100, max: 1000 });
    assert.deepEqual(phase('### s\nvalue 64, 1KB\nGET k').value, {
      kind: 'weighted',
      choices: [
        { size: 64, weight: 0.5 },
        { size: 1024, weight: 0.5 },
      ],
    });
    assert.deepEqual(phase('### s\nkeys 10 gaussian 0.1\nGET k').keys.gaussianStddev, 0.1);
  });

  it('lets a narrower scope replace an inherited requests or duration', () => {
    const text = 'duration 10s\n### s\nrequests 5k\nGET k\n### t\nGET k\nphase p\nrequests 7\nGET k';
    const [first, second] = clean(text).scenarios;
    assert.deepEqual([first.points[0].phases[0].load.requests, first.points[0].phases[0].load.durationMs], [5000, undefined]);
    assert.deepEqual([second.points[0].phases[0].load.requests, second.points[0].phases[0].load.durationMs], [undefined, 10_000]);
    assert.deepEqual([second.points[0].phases[1].load.requests, second.points[0].phases[1].load.durationMs], [7, undefined]);
  });

  it('refuses requests and duration in the same scope', () => {
    const resolved = check('### s\nrequests 1M\nduration 10s\nGET k');
    assert.deepEqual(span(only(resolved, 'requests-and-duration')), [2, 0, 8]);
  });

  it('reports a wrong value at its range, naming the expected form', () => {
    const resolved = check('### s\npipeline lots\nGET k');
    const diagnostic = only(resolved, 'invalid-value');
    assert.deepEqual(span(diagnostic), [1, 9, 13]);
    assert.equal(
      formatDiagnostic('f.rbench', diagnostic),
      'f.rbench:2:10: error: `pipeline`: `lots` is not a count — write a whole number such as `100`, `100k`, `2.5M` or `1_000_000`',
    );
  });

  it('suggests allowed words with a fix', () => {
    const diagnostic = only(check('### s\nclient fsat\nGET k'), 'invalid-value');
    assert.match(diagnostic.message, /did you mean `fast`\?/);
    assert.deepEqual(diagnostic.fixes?.[0], { title: 'Change to `fast`', range: diagnostic.range, newText: 'fast' });
    assert.match(only(check('### s\nkeys 10 zipff\nGET k'), 'invalid-value').message, /did you mean `zipf`/);
    assert.match(only(check('### s\ncluster yes\nGET k'), 'invalid-value').message, /did you mean `on`/);
  });

  it('hints at the upper-case command when a lower-case setting name was meant as one', () => {
    assert.match(only(check('### s\nkeys *\nGET k'), 'invalid-value').message, /write it in upper case/);
  });

  it('checks bounds and settings in the wrong scope', () => {
    assert.equal(only(check('### s\nclients 0\nGET k'), 'out-of-range').message, '`clients` must be at least 1');
    const scoped = check('sweep value 1, 2\n### s\nGET k\nphase p\ntarget redis://h\nexpect p99 < 1ms\nGET k');
    assert.deepEqual(
      scoped.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.range.start.line]),
      [
        ['wrong-scope', 0],
        ['wrong-scope', 4],
        ['wrong-scope', 5],
      ],
    );
  });

  it('warns about a setting written twice in one scope', () => {
    const resolved = check('### s\npipeline 1\npipeline 2\nGET k');
    assert.equal(only(resolved, 'duplicate-setting').severity, 'warning');
    assert.equal(resolved.scenarios[0].points[0].phases[0].load.pipeline, 2);
  });

  it('checks that key-size fits the key space', () => {
    const diagnostic = only(check('### s\nkeys 1M\nkey-size 5\nGET k'), 'key-size-too-small');
    assert.deepEqual(span(diagnostic), [2, 9, 10]);
    assert.match(diagnostic.message, /use `key-size 6` or more/);
  });

  it('collects server directives, cleanup and repeat', () => {
    const scenario = clean('server save 60 10000\n@p = b\n### s\nserver appendonly yes\ncleanup {{p}}:*\nrepeat 3\nGET k').scenarios[0];
    assert.deepEqual(scenario.server, [
      { name: 'save', args: ['60', '10000'] },
      { name: 'appendonly', args: ['yes'] },
    ]);
    assert.equal(scenario.cleanup, 'b:*');
    assert.equal(scenario.repeat, 3);
    assert.equal(only(check('### s\nserver port 1\nGET k'), 'managed-directive').severity, 'error');
  });
});

describe('resolver: interpolation', () => {
  it('substitutes variables, scenario over file, in any order, and CLI values over both', () => {
    const text = '@prefix = file\n@key = {{prefix}}:__key__\n### a\nGET {{key}}\n### b\n@prefix = b\nGET {{key}}\nrequests {{n}}\n@n = 10';
    const [a, b] = clean(text).scenarios;
    assert.deepEqual(a.points[0].phases[0].tests[0].commands[0].command.args, [['file:', { placeholder: 'key' }]]);
    assert.deepEqual(b.points[0].phases[0].tests[0].commands[0].command.args, [['b:', { placeholder: 'key' }]]);
    assert.equal(b.points[0].phases[0].load.requests, 10);
    const overridden = clean(text, { vars: { prefix: 'cli', n: '1M' } }).scenarios[1];
    assert.deepEqual(overridden.points[0].phases[0].tests[0].commands[0].command.args, [['cli:', { placeholder: 'key' }]]);
    assert.equal(overridden.points[0].phases[0].load.requests, 1_000_000);
  });

  it('substitutes textually, so a value may hold several arguments', () => {
    const main = phase('@pair = a "b c"\n### s\nMSET {{pair}} x y');
    assert.deepEqual(main.tests[0].commands[0].command.args, [['a'], ['b c'], ['x'], ['y']]);
  });

  it('reads environment variables, with and without defaults', () => {
    const text = '### s\n@host = ${env:HOST:-localhost}\ntarget redis://{{host}}:${env:PORT}\nGET k';
    // Allowed by the user: a file alone cannot put environment values into the target (the environment rule).
    const allowEnv = ['PORT', 'HOST'];
    assert.equal(clean(text, { env: { PORT: '7000' }, allowEnv }).scenarios[0].target.url, 'redis://localhost:7000');
    assert.equal(clean(text, { env: { PORT: '7000', HOST: 'h' }, allowEnv }).scenarios[0].target.url, 'redis://h:7000');
    const unset = check(text);
    const diagnostic = only(unset, 'unset-env');
    assert.deepEqual(span(diagnostic), [2, 24, 35]);
    assert.equal(diagnostic.message, 'environment variable `PORT` is not set — set it, or give a default: `${env:PORT:-value}`');
  });

  it('reports unknown variables with a did-you-mean fix at the reference', () => {
    const diagnostic = only(check('@prefix = b\n### s\nGET {{prefx}}:k'), 'unknown-variable');
    assert.deepEqual(span(diagnostic), [2, 6, 11]);
    assert.equal(diagnostic.message, 'unknown variable `prefx` — did you mean `prefix`?');
    assert.equal(diagnostic.fixes?.[0].newText, 'prefix');
  });

  it('maps a problem in a substituted value back to the reference', () => {
    const diagnostic = only(check('@n = lots\n### s\nrequests   {{n}}\nGET k'), 'invalid-value');
    assert.deepEqual(span(diagnostic), [2, 11, 16]);
    assert.match(diagnostic.message, /`lots` is not a count/);
  });

  it('reports variable cycles without hanging', () => {
    const resolved = check('@a = {{b}}\n@b = {{a}}\n### s\nGET {{a}}');
    assert.ok(codes(resolved).includes('variable-cycle'));
  });

  it('reports unterminated interpolation without crashing', () => {
    const resolved = check('### s\nGET {{prefix\nSET ${env:X k v');
    assert.deepEqual(
      errors(resolved).map((diagnostic) => [diagnostic.code, ...span(diagnostic)]),
      [
        ['unterminated-variable', 1, 4, 12],
        ['unterminated-env', 2, 4, 15],
      ],
    );
  });
});

describe('resolver: commands, placeholders and repetition', () => {
  const args = (text: string): ArgTemplate[] => phase(text).tests[0].commands[0].command.args;

  it('splits placeholders out of arguments, also inside quotes', () => {
    assert.deepEqual(args('### s\nset "k:__key__:x" __rand_int____value__ c__client__'), [
      ['k:', { placeholder: 'key' }, ':x'],
      [{ placeholder: 'rand_int' }, { placeholder: 'value' }],
      ['c', { placeholder: 'client' }],
    ]);
  });

  it('expands word and group repetition, each occurrence its own placeholder', () => {
    const rpush = args('### s\nRPUSH list __value__*3');
    assert.deepEqual(rpush, [['list'], [{ placeholder: 'value' }], [{ placeholder: 'value' }], [{ placeholder: 'value' }]]);
    assert.notEqual(rpush[1][0], rpush[2][0], 'occurrences are separate objects');
    const mset = args('### s\nMSET (k:__key__ __value__)*2 tail');
    assert.deepEqual(mset, [['k:', { placeholder: 'key' }], [{ placeholder: 'value' }], ['k:', { placeholder: 'key' }], [{ placeholder: 'value' }], ['tail']]);
    assert.equal(args('### s\nRPUSH l x*1k').length, 1001);
  });

  it('upper-cases command names, records the source and the write flag', () => {
    const scenario = clean('### s\n  set k v  # c\nget k').scenarios[0];
    const [set, get] = scenario.points[0].phases[0].tests;
    assert.deepEqual([set.name, get.name], ['SET', 'GET']);
    assert.deepEqual(set.commands[0].command.source, { start: { line: 1, character: 2 }, end: { line: 1, character: 9 } });
    assert.equal(scenario.writes, true);
  });

  it('reports unbalanced groups, bad repeat counts and huge expansions', () => {
    assert.ok(codes(check('### s\nMSET (a b')).includes('unbalanced-group'));
    assert.ok(codes(check('### s\nMSET a b)')).includes('unbalanced-group'));
    assert.ok(codes(check('### s\nRPUSH l v*1.5')).includes('invalid-repeat'));
    assert.ok(codes(check('### s\nRPUSH l (v)*1G')).includes('too-many-args'));
  });

  it('warns about misspelt placeholders with a fix', () => {
    const diagnostic = only(check('### s\nGET k:__keys__'), 'unknown-placeholder');
    assert.equal(diagnostic.severity, 'warning');
    assert.deepEqual(span(diagnostic), [1, 6, 14]);
    assert.equal(diagnostic.fixes?.[0].newText, '__key__');
  });

  it('names repeated unweighted tests apart', () => {
    assert.deepEqual(
      phase('### s\nGET a\nGET b').tests.map((test) => test.name),
      ['GET', 'GET #2'],
    );
  });
});

describe('resolver: weights and phases', () => {
  it('forms one normalised mix from weighted commands', () => {
    const main = phase('### s\n3% GET k\n1% SET k v');
    assert.equal(main.tests.length, 1);
    assert.equal(main.tests[0].name, 'mix');
    assert.deepEqual(
      main.tests[0].commands.map((command) => [command.command.name, command.weight]),
      [
        ['GET', 0.75],
        ['SET', 0.25],
      ],
    );
  });

  it('refuses weighted and unweighted commands in one phase', () => {
    assert.deepEqual(span(only(check('### s\n80% GET k\nSET k v'), 'mixed-weights')), [2, 0, 7]);
  });

  it('builds phases with their own settings over the scenario', () => {
    const text =
      '### s\nclients 4\nkeys 100 sequential\nprefill load\npipeline 100\nSET k:__key__ v\nphase read\nduration 5s\n50% GET k:__key__\n50% EXISTS k:__key__';
    const phases = clean(text).scenarios[0].points[0].phases;
    assert.deepEqual(
      phases.map((p) => [p.name, p.measured, p.load.clients, p.load.pipeline, p.keys.distribution]),
      [
        ['load', false, 4, 100, 'sequential'],
        ['read', true, 4, 1, 'sequential'],
      ],
    );
    assert.equal(phases[1].tests[0].name, 'read');
    assert.equal(phases[1].load.durationMs, 5000);
  });

  it('puts commands before any phase line into a `main` phase first', () => {
    const phases = clean('### s\nGET k\nprefill\nSET k v').scenarios[0].points[0].phases;
    assert.deepEqual(
      phases.map((p) => p.name),
      ['main', 'prefill'],
    );
  });

  it('reports empty phases, duplicate phase names and scenarios without commands', () => {
    assert.deepEqual(span(only(check('### s\nphase a\nGET k\nphase b\n'), 'empty-phase')), [3, 0, 5]);
    assert.ok(codes(check('### s\nphase a\nGET k\nphase a\nGET k')).includes('duplicate-phase'));
    assert.deepEqual(span(only(check('### lonely\npipeline 1'), 'no-commands')), [0, 4, 10]);
  });
});

describe('resolver: sweeps', () => {
  it('forms the cross product in the order written with labels', () => {
    const scenario = clean('### s\nsweep clients 2, 4\nsweep keys 1M, 2M\nvalue 10\nSET k:__key__ __value__').scenarios[0];
    assert.deepEqual(scenario.sweepAxes, ['clients', 'keys']);
    assert.deepEqual(
      scenario.points.map((point) => point.label),
      ['clients=2 keys=1000000', 'clients=2 keys=2000000', 'clients=4 keys=1000000', 'clients=4 keys=2000000'],
    );
    assert.deepEqual(scenario.points[3].sweep, { clients: 4, keys: 2_000_000 });
    assert.deepEqual([scenario.points[3].phases[0].load.clients, scenario.points[3].phases[0].keys.space], [4, 2_000_000]);
  });

  it('expands ranges with additive and geometric steps', () => {
    const values = (line: string) => clean(`### s\n${line}\nGET k`).scenarios[0].points.map((point) => Object.values(point.sweep)[0]);
    assert.deepEqual(values('sweep pipeline 1..64 step x2'), [1, 2, 4, 8, 16, 32, 64]);
    assert.deepEqual(values('sweep clients 1, 2, 4..16 step 4'), [1, 2, 4, 8, 12, 16]);
    assert.deepEqual(values('sweep threads 1..3'), [1, 2, 3]);
    assert.deepEqual(values('sweep value 1KB, 2k'), [1024, 2000]);
  });

  it('overrides the setting in every phase, and requests replaces duration', () => {
    const text = '### s\nsweep value 5, 50\nsweep requests 10\nduration 1s\nGET k\nphase p\nvalue 999\nGET k';
    const point = clean(text).scenarios[0].points[1];
    assert.deepEqual(
      point.phases.map((p) => [p.value, p.load.requests, p.load.durationMs]),
      [
        [{ kind: 'fixed', size: 50 }, 10, undefined],
        [{ kind: 'fixed', size: 50 }, 10, undefined],
      ],
    );
  });

  it('reports bad sweeps', () => {
    assert.match(only(check('### s\nsweep seed 1, 2\nGET k'), 'invalid-value').message, /cannot be swept/);
    assert.match(only(check('### s\nsweep valu 1\nGET k'), 'invalid-value').message, /did you mean `value`/);
    assert.ok(codes(check('### s\nsweep value 1\nsweep value 2\nGET k')).includes('duplicate-sweep'));
    assert.ok(codes(check('### s\nsweep clients 1..100000\nsweep pipeline 1..100\nGET k')).includes('too-many-points'));
    assert.ok(codes(check('### s\nsweep requests 1..1000000000\nGET k')).includes('too-many-points'));
    assert.deepEqual(span(only(check('### s\nsweep key-size 2, 12\nkeys 1000\nGET k:__key__'), 'key-size-too-small')), [1, 15, 16]);
  });
});

describe('resolver: expectations', () => {
  it('reads metrics, operators and values in plan units', () => {
    const scenario = clean(
      'expect errors = 0\n### s\nexpect throughput > 100k/s\nexpect ops>=5k\nexpect p99 < 2ms\nexpect p99.9 <= 500us\nexpect error-rate != 0.1%\nexpect GET mean == 1ms\nGET k',
    ).scenarios[0];
    assert.deepEqual(
      scenario.expects.map((e) => [e.command, e.metric, e.op, e.value]),
      [
        [undefined, 'errors', '=', 0],
        [undefined, 'ops', '>', 100_000],
        [undefined, 'ops', '>=', 5000],
        [undefined, 'p99', '<', 2000],
        [undefined, 'p99.9', '<=', 500],
        [undefined, 'error-rate', '!=', 0.001],
        ['GET', 'mean', '=', 1000],
      ],
    );
    assert.equal(scenario.expects[3].text, 'expect p99 < 2ms');
    assert.deepEqual(scenario.expects[3].range, { start: { line: 4, character: 0 }, end: { line: 4, character: 16 } });
  });

  it('does not take the names of JavaScript object properties for Redis commands', () => {
    for (const word of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      const resolved = check(`### s\n${word} k`);
      assert.ok(errors(resolved).length > 0, `${word} is refused`);
      assert.equal(
        resolved.scenarios.length === 0 || resolved.scenarios[0].points[0].phases.every((phase) => phase.tests.length === 0),
        true,
        `${word} runs nothing`,
      );
    }
  });

  it('requires per-command expectations to name a measured command', () => {
    const diagnostic = only(check('### s\nexpect GTE p99 < 1ms\nGET k'), 'unknown-expect-command');
    assert.deepEqual(span(diagnostic), [1, 7, 10]);
    assert.match(diagnostic.message, /did you mean `GET`/);
    assert.ok(codes(check('### s\nexpect SET p99 < 1ms\nGET k\nprefill\nSET k v')).includes('unknown-expect-command'), 'prefill commands are not measured');
    clean('### s\nexpect LRANGE_100 p99 < 1ms\nsuite lrange_100');
  });

  it('reports malformed expectations', () => {
    assert.ok(codes(check('### s\nexpect p99 2ms\nGET k')).includes('invalid-value'));
    assert.match(only(check('### s\nexpect meen < 2ms\nGET k'), 'invalid-value').message, /did you mean `mean`/);
    assert.match(only(check('### s\nexpect p99 < 2\nGET k'), 'invalid-value').message, /needs a unit/);
  });
});

describe('resolver: target and password', () => {
  it('reads URLs, profiles and connection settings', () => {
    const text =
      '### s\ntarget rediss://bench@cache:6380/2\nuser u\npassword env:PW\ndb 3\ntls-ca ca.pem\ntls-servername c\ncluster on\nresp 3\nclient ioredis\nconnect-timeout 10s\nGET k';
    const target = clean(text, { baseDir: '/srv/x' }).scenarios[0].target;
    assert.deepEqual(target, {
      url: 'rediss://bench@cache:6380/2',
      user: 'u',
      passwordEnv: 'PW',
      db: 3,
      tls: { enabled: true, ca: '/srv/x/ca.pem', servername: 'c' },
      cluster: true,
      resp: 3,
      client: 'ioredis',
      connectTimeoutMs: 10_000,
    });
    assert.deepEqual(clean('target staging\n### s\npassword secret\nGET k').scenarios[0].target.profile, 'staging');
    assert.equal(clean('target staging\n### s\npassword secret\nGET k').scenarios[0].target.passwordSecret, true);
  });

  it('refuses a password written in the URL, with a fix that removes it', () => {
    const diagnostic = only(check('### s\ntarget redis://u:hunter2@h:6379/0\nGET k'), 'literal-password');
    assert.match(diagnostic.message, /password env:NAME/);
    assert.deepEqual(span(diagnostic), [1, 7, 33]);
    assert.equal(diagnostic.fixes?.[0].newText, 'redis://u@h:6379/0');
    assert.ok(codes(check('@pw = x\n### s\ntarget redis://:{{pw}}@h\nGET k')).includes('literal-password'), 'a file variable is still in the file');
    assert.ok(codes(check('### s\ntarget ${env:U:-redis://:pw@h}\nGET k')).includes('literal-password'), 'an env default is in the file');
  });

  it('accepts a password that comes from the environment (the user allowing the variable into the target)', () => {
    const env = { REDIS_URL: 'redis://:s3cret@h:6379', PW: 's3cret' };
    const allowEnv = ['REDIS_URL', 'PW'];
    assert.equal(clean('### s\ntarget ${env:REDIS_URL}\nGET k', { env, allowEnv }).scenarios[0].target.url, 'redis://:s3cret@h:6379');
    assert.equal(clean('### s\ntarget redis://:${env:PW}@h\nGET k', { env, allowEnv }).scenarios[0].target.url, 'redis://:s3cret@h');
  });

  it('names both password forms for anything else', () => {
    const diagnostic = only(check('### s\npassword hunter2\nGET k'), 'literal-password');
    assert.match(diagnostic.message, /`password env:NAME`.*`password secret`/);
  });

  it('reports invalid targets, with a fix adding the scheme to host:port', () => {
    const diagnostic = only(check('### s\ntarget 127.0.0.1:6379\nGET k'), 'invalid-target');
    assert.equal(diagnostic.fixes?.[0].newText, 'redis://127.0.0.1:6379');
    assert.ok(codes(check('### s\ntarget http://h\nGET k')).includes('invalid-target'));
    assert.ok(codes(check('### s\ntarget redis://h/x\nGET k')).includes('invalid-target'));
    assert.ok(codes(check('### s\ntarget rediss://h\ntls off\nGET k')).includes('tls-conflict'));
    assert.ok(codes(check('### s\ntls-cert c.pem\nGET k')).includes('tls-client-pair'));
  });
});
