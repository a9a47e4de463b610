// Issue 44, benchmark-spec suites in: a redis-benchmarks-specification test (YAML) as a `.rbench` scenario.
// Without a server: what each memtier / redis-benchmark argument becomes, the YAML reader's bounds against
// hostile files (an alias bomb, deep nesting, a huge file, prototype keys), and that every imported fixture
// checks clean. The runs on a real server are in test/unit/cli/specImport.test.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSpecFile, MAX_SPEC_FILE_BYTES, specFiles } from '../../../src/results/import/spec';
import { memtierLoad } from '../../../src/results/import/spec/memtierArgs';
import { memtierLines } from '../../../src/results/import/spec/memtierLines';
import { specScenario } from '../../../src/results/import/spec/specScenario';
import { parseSpecYaml, SpecReadError } from '../../../src/results/import/spec/specYaml';
import { pickTagged } from '../../../src/runner/selection';
import type { WrittenLine } from '../../../src/scenario/writer';
import { check, errors, repoRoot } from '../scenario/helpers';

const FIXTURES = join(repoRoot(), 'test', 'fixtures', 'benchmark-spec');

/** The scenario lines of a memtier argument line, as text (`requests 105`, `SET memtier-__key__ __value__`). */
function memtier(args: string): string[] {
  const load = memtierLoad(args.split(/\s+/).filter(Boolean));
  if ('refused' in load) throw new Error(load.refused);
  const lines = memtierLines(load);
  return [...lines.scenario, ...lines.phase].map((line: WrittenLine) => {
    if (line.kind === 'setting') return [line.name, ...line.args].join(' ');
    if (line.kind === 'command') return [...(line.weight === undefined ? [] : [`${line.weight}%`]), line.name, ...line.args.map(String)].join(' ');
    return line.kind;
  });
}

/** A spec test (as the YAML's data) with this client line. */
function test(args: string, extra: Record<string, unknown> = {}): unknown {
  return { name: 't', clientconfig: { tool: 'memtier_benchmark', arguments: args }, ...extra };
}

describe('benchmark-spec import: memtier_benchmark arguments (issue 44)', () => {
  it('-n counts per connection: clients × threads × n requests, clients × threads connections', () => {
    const lines = memtier('-c 5 -t 3 -n 7 --ratio 1:0');
    assert.ok(lines.includes('clients 15'), lines.join('\n'));
    assert.ok(lines.includes('threads 3'));
    assert.ok(lines.includes('requests 105'));
  });

  it("memtier's defaults: 50 × 4 connections, 10,000 requests each, SET:GET 1:10, 32-byte values, 10M+1 random keys", () => {
    assert.deepEqual(memtier(''), [
      'clients 200',
      'threads 4',
      'requests 2000000',
      'keys 10000001 uniform',
      'key-size 8',
      'value 32',
      '9.0909% SET memtier-__key__ __value__',
      '90.9091% GET memtier-__key__',
    ]);
  });

  it('-n allkeys sends each key of the range once; --test-time is a duration', () => {
    assert.ok(memtier('--key-minimum 1 --key-maximum 1000 -n allkeys --key-pattern P:P --ratio 1:0').includes('requests 1000'));
    assert.ok(memtier('--key-minimum 1 --key-maximum 1000 -n allkeys --key-pattern P:P --ratio 1:0').includes('keys 1000 sequential'));
    const timed = memtier('--test-time 180');
    assert.ok(timed.includes('duration 180s') && !timed.some((line) => line.startsWith('requests')), timed.join('\n'));
  });

  it('key patterns become distributions: R uniform, S and P sequential, G gaussian (stddev as a share), Z zipf', () => {
    assert.ok(memtier('--key-pattern S:S --key-maximum 99').includes('keys 100 sequential'));
    assert.ok(memtier('--key-pattern G:G --key-maximum 999 --key-stddev 100').includes('keys 1000 gaussian 0.1'));
    assert.ok(memtier('--key-pattern Z:Z --key-maximum 999 --key-zipf-exp 1.2').includes('keys 1000 zipf 1.2'));
  });

  it('--command lines keep their words: __key__ with the key prefix, __data__ as the value, --command-ratio as weights', () => {
    const load = memtierLoad([
      '--command',
      'HSET h:__key__ f __data__',
      '--command-ratio',
      '1',
      '--command',
      'HGET h:__key__ f',
      '--command-ratio',
      '3',
      '--key-prefix',
      'k-',
    ]);
    assert.ok(!('refused' in load));
    const phase = memtierLines(load).phase.filter((line) => line.kind === 'command');
    assert.deepEqual(phase, [
      { kind: 'command', name: 'HSET', args: ['h:k-__key__', 'f', '__value__'], weight: 25 },
      { kind: 'command', name: 'HGET', args: ['h:k-__key__', 'f'], weight: 75 },
    ]);
  });

  it('pipeline, expiry range, rate limiting (per connection), db, RESP3 and run count', () => {
    const lines = memtier('-c 2 -t 1 --pipeline 16 --expiry-range 10-60 --rate-limiting 100 --select-db 3 --protocol resp3 -x 3');
    for (const expected of ['pipeline 16', 'ttl 10s..60s', 'rate 200/s', 'db 3', 'resp 3', 'repeat 3'])
      assert.ok(lines.includes(expected), `${expected} in\n${lines.join('\n')}`);
  });

  it('a flag the import does not know, or one that makes another workload, is refused by name', () => {
    assert.match((memtierLoad(['--frobnicate', '3']) as { refused: string }).refused, /`--frobnicate` is not known/);
    assert.match((memtierLoad(['--multi-key-get', '10']) as { refused: string }).refused, /MGET/);
    assert.match((memtierLoad(['--key-pattern', 'X:R']) as { refused: string }).refused, /not a key pattern/);
  });

  it('what a scenario cannot say becomes a note (a comment in the scenario), never silence', () => {
    const scenario = specScenario(test('--key-pattern S:R --reconnect-interval 10 -n 1'), 'x.yml', 'x');
    assert.equal(scenario.notes.length, 2, scenario.notes.join('\n'));
    assert.match(scenario.text!, /^# not imported: SET and GET use different key patterns/m);
    assert.match(scenario.text!, /^# not imported: memtier reconnects every N requests/m);
  });
});

describe('benchmark-spec import: the test around the load (issue 44)', () => {
  it('preload and init commands are prefill phases; keyspacelen is `expect keys` after them; tags from the test', () => {
    const scenario = specScenario(
      test('--ratio 0:1 -n 10', {
        'tested-groups': ['string'],
        'tested-commands': ['get'],
        priority: 7,
        dbconfig: {
          check: { keyspacelen: 500 },
          init_commands: ['"SET" "init" "1"'],
          preload_tool: { tool: 'memtier_benchmark', arguments: '"--ratio" "1:0" "--key-maximum" "499" "-n" "allkeys" "--key-pattern" "P:P"' },
          'configuration-parameters': { save: '""', loadmodule: 'modules/evil.so' },
        },
      }),
      'x.yml',
      'x',
    );
    const text = scenario.text!;
    assert.match(text, /^tags string get priority:7$/m);
    assert.match(text, /^server save ""$/m);
    assert.doesNotMatch(text, /^server loadmodule/m, 'a refused directive is never a server line');
    assert.match(text, /^# not imported: configuration parameter loadmodule/m);
    assert.match(text, /^expect keys = 500$/m);
    assert.match(text, /^prefill init\nclients 1\nrequests 1\nSET init 1\nprefill preload\n/m);
    assert.match(text, /^phase benchmark$/m);
    const resolved = check(text);
    assert.deepEqual(errors(resolved), []);
    assert.deepEqual(resolved.scenarios[0].tags, ['string', 'get', 'priority:7']);
  });

  it('a tool it cannot read, several clientconfigs or no clientconfig: not importable, with the reason', () => {
    assert.match(specScenario({ name: 'p', clientconfig: { tool: 'pubsub-sub-bench', arguments: '' } }, 'p.yml', 'p').refused!, /pubsub-sub-bench/);
    assert.match(specScenario({ name: 'c', clientconfigs: [] }, 'c.yml', 'c').refused!, /several client configurations/);
    assert.match(specScenario(['not', 'a', 'test'], 'l.yml', 'l').refused!, /no test/);
  });

  it('redis-benchmark: its tests as a suite, or the command it ends with; -n is already the total', () => {
    const suite = specScenario({ name: 'rb', clientconfig: { tool: 'redis-benchmark', arguments: '-t set,get -n 1000 -c 10 -P 4' } }, 'rb.yml', 'rb').text!;
    assert.match(suite, /^requests 1000$/m);
    assert.match(suite, /^suite set,get$/m);
    const command = specScenario(
      { name: 'rc', clientconfig: { tool: 'redis-benchmark', arguments: '-n 10 -r 5 LPUSH "l:__rand_int__" x' } },
      'rc.yml',
      'rc',
    ).text!;
    assert.match(command, /^LPUSH l:__rand_int__ x$/m);
    assert.deepEqual(errors(check(command)), []);
  });
});

describe('benchmark-spec import: hostile files (issue 44)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rbench-spec-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an alias bomb is refused by the alias limit, not expanded', () => {
    const scenario = importSpecFile(join(FIXTURES, 'hostile-alias-bomb.yml'));
    assert.match(scenario.refused!, /alias/);
    assert.equal(scenario.text, undefined);
  });

  it('deep nesting is refused with a plain message, not a stack overflow', () => {
    // Flow brackets (refused before parsing), nesting past the depth limit, and block nesting deep enough to
    // exhaust the library's stack (indentation makes it about 1 MB).
    const block = Array.from({ length: 1400 }, (_, i) => `${' '.repeat(i)}-`).join('\n');
    for (const text of [`a: ${'['.repeat(100_000)}`, `a: ${'['.repeat(40)}1${']'.repeat(40)}`, block]) {
      assert.throws(
        () => parseSpecYaml(text, 'deep.yml'),
        (error: unknown) => error instanceof SpecReadError && /^deep\.yml: /.test(error.message),
      );
    }
  });

  it('a file past the size cap is not read', () => {
    const file = join(dir, 'huge.yml');
    writeFileSync(file, `name: huge\ndescription: "${'x'.repeat(MAX_SPEC_FILE_BYTES)}"\n`);
    const scenario = importSpecFile(file);
    assert.match(scenario.refused!, /huge\.yml/);
    assert.match(scenario.refused!, /larger than|too large|limit/i);
  });

  it('__proto__ and constructor keys stay data: nothing reaches a prototype', () => {
    const value = parseSpecYaml('__proto__: {polluted: 1}\nconstructor: {prototype: {polluted: 2}}\nname: x\n', 'p.yml') as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(value), null);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(value.name, 'x');
  });

  it('control characters in the name are shown escaped in the title; a bidi control inside an argument makes the test not importable', () => {
    const shown = importSpecFile(join(FIXTURES, 'hostile-control-characters.yml'));
    assert.match(shown.text!, /^### hostile-\\u001b\[31mred\\u001b\[0m-\\u202ename$/m);
    // The key prefix's ESC and BEL are bytes of the key: escaped inside quotes, never raw in the file.
    assert.match(shown.text!, /^GET "k\\x1b\]52;c;AAAA\\x07-__key__"$/m);
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(shown.text!, /[\u0000-\u0009\u000b-\u001f\u007f\u202e]/);
    assert.deepEqual(errors(check(shown.text!)), []);
    const refused = importSpecFile(join(FIXTURES, 'hostile-bidi-argument.yml'));
    assert.match(refused.refused!, /U\+202E/);
  });

  it('a folder gives its .yml/.yaml regular files, sorted; not its subfolders', () => {
    writeFileSync(join(dir, 'b.yaml'), 'name: b\n');
    writeFileSync(join(dir, 'a.yml'), 'name: a\n');
    writeFileSync(join(dir, 'notes.txt'), 'x');
    assert.deepEqual(
      specFiles(dir).map((file) => file.slice(dir.length + 1)),
      ['a.yml', 'b.yaml'],
    );
  });
});

describe('benchmark-spec import: every fixture that imports checks clean (issue 44)', () => {
  for (const name of readdirSync(FIXTURES).filter((file) => file.endsWith('.yml'))) {
    it(name, () => {
      const scenario = importSpecFile(join(FIXTURES, name));
      if (name.startsWith('hostile-') && name !== 'hostile-control-characters.yml') return assert.ok(scenario.refused);
      if (name.startsWith('pubsub')) return assert.match(scenario.refused!, /pubsub-sub-bench/);
      assert.equal(scenario.refused, undefined);
      const resolved = check(scenario.text!);
      assert.deepEqual(
        resolved.diagnostics.map((d) => `${d.severity}: ${d.message}`),
        [],
      );
    });
  }
});

describe('tags and `expect keys` (issue 44)', () => {
  it('tags are lower-case words, split on spaces and commas; a scenario line replaces the file line', () => {
    const resolved = check('tags Base\n### a\ntags String, GET  priority:1\nGET k\n### b\nGET k\n');
    assert.deepEqual(errors(resolved), []);
    assert.deepEqual(
      resolved.scenarios.map((plan) => plan.tags),
      [['string', 'get', 'priority:1'], ['base']],
    );
    assert.deepEqual(
      pickTagged(resolved.scenarios, ['GET']).map((plan) => plan.name),
      ['a'],
    );
    assert.match(errors(check('### a\ntags "a b"\nGET k\n'))[0].message, /is not a tag/);
  });

  it('`expect keys` takes no command; it needs no prefill (a dataset from --rdb is counted before the first phase)', () => {
    assert.deepEqual(errors(check('### a\nexpect keys = 10\nGET k\n')), []);
    assert.match(errors(check('### a\nexpect GET keys = 10\nprefill load\nSET k v\nphase read\nGET k\n'))[0].message, /not a command/);
    assert.deepEqual(errors(check('### a\nexpect keys = 10\nprefill load\nSET k v\nphase read\nGET k\n')), []);
  });
});
