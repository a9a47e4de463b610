import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redactUrl } from '../../../src/protocol/redisUrl';
import { Redactor, stripUrlPassword } from '../../../src/runner/redact';
import { saveRun } from '../../../src/results/runFileWriter';
import { storedPlan } from '../../../src/runner/session';
import { check } from '../scenario/helpers';
import { loadResult, planOf, runFileOf } from '../editor/fixtures';

describe('secrets never stored', () => {
  it('strips the password from URLs, whatever characters it holds', () => {
    assert.equal(stripUrlPassword('redis://:pw@host:6379/2'), 'redis://host:6379/2');
    assert.equal(stripUrlPassword('rediss://alice:pw@host:6380'), 'rediss://alice@host:6380');
    assert.equal(stripUrlPassword('redis://:p@ss/w:rd@host:1'), 'redis://host:1');
    assert.equal(redactUrl('redis://:p@ss/w:rd@host:notaport'), 'redis://:***@host:notaport');
    assert.equal(stripUrlPassword('redis://host:6379'), 'redis://host:6379');
  });

  it('an invalid URL from the environment is reported without its password', () => {
    const resolved = check('target ${env:U}\n### s\nGET k\n', { env: { U: 'redis://:hunter22@host:notaport' } });
    assert.ok(resolved.diagnostics.length > 0);
    for (const diagnostic of resolved.diagnostics) assert.ok(!diagnostic.message.includes('hunter22'), diagnostic.message);
  });

  it('stores the plan with the target URL stripped and a throwaway server password hidden', () => {
    const plan = check('target ${env:U}\nserver requirepass ${env:P}\n### s\nGET k\n', {
      env: { U: 'redis://:hunter22@10.0.0.1:6379', P: 'hunter22' },
      allowEnv: ['U', 'P'],
    }).scenarios[0];
    const stored = storedPlan(plan);
    assert.equal(stored.target.url, 'redis://10.0.0.1:6379');
    assert.deepEqual(stored.server, [{ name: 'requirepass', args: ['***'] }]);
    assert.ok(!JSON.stringify(stored).includes('hunter22'));
    assert.equal(plan.target.url, 'redis://:hunter22@10.0.0.1:6379', 'the plan used to connect is left as it is');
  });

  it('redacts every string of a run, keys included, and URL-encoded forms', () => {
    const redactor = new Redactor();
    redactor.add('s3cr3t/pw');
    redactor.add('abc'); // too short to be told apart from other text: ignored
    const value = { error: 'WRONGPASS s3cr3t/pw', nested: [{ url: 'redis://:s3cr3t%2Fpw@h' }], 's3cr3t/pw': 1, n: 5 };
    assert.deepEqual(redactor.deep(value), { error: 'WRONGPASS ***', nested: [{ url: 'redis://:***@h' }], '***': 1, n: 5 });
  });
});

describe('saving a run file', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rbench-save-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const run = () => runFileOf(planOf('### s\nrequests 10\nGET k\n'), [loadResult('GET', 1000, 100)]);

  it('writes the file and leaves no temp file', () => {
    const saved = saveRun(join(dir, 'runs'), run());
    assert.ok('path' in saved);
    assert.deepEqual(
      readdirSync(join(dir, 'runs')).filter((name) => name.endsWith('.tmp')),
      [],
    );
  });

  it('turns a failure into a plain message naming the folder and the cause, with nothing left behind', () => {
    writeFileSync(join(dir, 'blocker'), 'x');
    const saved = saveRun(join(dir, 'blocker', 'runs'), run());
    assert.ok('saveError' in saved);
    assert.match(saved.saveError, /could not be saved in .*blocker\/runs: a file stands where a folder is needed \(ENOTDIR\)|EEXIST/);
    assert.deepEqual(readdirSync(dir), ['blocker']);
  });
});
