// `cluster on`: multi-key commands must keep their keys in one hash slot, or `check` says so with the fix.
import assert from 'node:assert/strict';
import { checkText, type Diagnostic } from '../../../src/scenario';
import { clusterKeyDiagnostics, crossSlotRefusal } from '../../../src/scenario/clusterKeys';
import { codeActions } from '../../../src/scenario/features';
import { applyEdits } from '../features/helpers';

const CODE = 'cluster-cross-slot';

function crossSlot(text: string): Diagnostic[] {
  return checkText(text, { env: {} }).diagnostics.filter((d) => d.code === CODE);
}

const cluster = (commands: string) => `### c\ncluster on\nrequests 100\n${commands}\n`;

describe('cluster multi-key commands (same hash slot)', () => {
  it('refuses MSET whose keys have no shared hash tag, at the keys, with the fix in the message', () => {
    const text = cluster('MSET a:__key__ __value__ b:__key__ __value__');
    const [problem, ...others] = crossSlot(text);
    assert.equal(others.length, 0);
    assert.equal(problem.severity, 'error');
    assert.deepEqual(problem.range, { start: { line: 3, character: 5 }, end: { line: 3, character: 34 } });
    assert.match(problem.message, /MSET on a Redis Cluster needs all its keys in one hash slot/);
    assert.match(problem.message, /CROSSSLOT/);
    assert.match(problem.message, /\{__key__\}/);
  });

  it('refuses every multi-key command of the command table across slots', () => {
    const lines = [
      'MGET a:__key__ b:__key__',
      'DEL a b',
      'EXISTS a:__key__ b:__key__',
      'UNLINK x y z',
      'RPOPLPUSH src:__key__ dst',
      'LMOVE l1 l2 LEFT RIGHT',
      'SMOVE s1 s2 m',
      'SINTER s1 s2',
      'SUNIONSTORE d s1 s2',
      'EVAL "return 1" 2 a b',
    ];
    const found = crossSlot(cluster(lines.join('\n'))).map((d) => d.range.start.line - 3);
    assert.deepEqual(
      found,
      lines.map((_, i) => i),
    );
  });

  it('accepts keys sharing one hash tag, the same key twice, one key, and commands without keys', () => {
    const text = cluster(
      [
        'MSET a:{__key__} __value__ b:{__key__} __value__',
        'MGET {user:__client__}:a {user:__client__}:b',
        'RPOPLPUSH {q}src {q}dst',
        'MGET k:__key__ k:__key__',
        'SET k:__key__ __value__',
        'DEL k:__key__',
        'PING',
      ].join('\n'),
    );
    assert.deepEqual(crossSlot(text), []);
  });

  it('refuses different tags, empty tags and tags drawn per argument (__rand_int__)', () => {
    const text = cluster(['MSET {a}x 1 {b}y 2', 'MGET {}a {}b', 'MGET {__rand_int__}a {__rand_int__}b', 'MGET k:__rand_int__ k:__rand_int__'].join('\n'));
    const messages = crossSlot(text).map((d) => d.message);
    assert.equal(messages.length, 4);
    assert.match(messages[0], /different hash tags \(\{a\}, \{b\}\)/);
    assert.match(messages[1], /have no \{hash tag\}/);
    assert.match(messages[2], /changes with every argument/);
    assert.match(messages[3], /have no \{hash tag\}/);
  });

  it('says nothing when the scenario is not a cluster target', () => {
    assert.deepEqual(crossSlot('### c\nrequests 100\nMSET a:__key__ v b:__key__ v\n'), []);
    assert.deepEqual(crossSlot('### c\ncluster off\nrequests 100\nMSET a:__key__ v b:__key__ v\n'), []);
  });

  it('checks a file-level `cluster on` in every scenario, each command line once across sweep points', () => {
    const text = 'cluster on\n### one\nrequests 10\nvalue 10, 100\nMGET a b\n### two\nrequests 10\nMGET c d\n';
    assert.deepEqual(
      crossSlot(text).map((d) => d.range.start.line),
      [4, 7],
    );
  });

  it('quick fix: wraps __key__ in a shared tag; the fixed line checks clean and keeps its keys apart', () => {
    const text = cluster('90% MSET a:__key__ __value__ b:__key__ __value__\n10% GET a:__key__');
    const actions = codeActions(text, { start: { line: 3, character: 12 }, end: { line: 3, character: 12 } }, { env: {} });
    const wrap = actions.find((a) => a.diagnostic.code === CODE && /\{__key__\}/.test(a.title));
    assert.ok(wrap, JSON.stringify(actions.map((a) => a.title)));
    const fixed = applyEdits(text, wrap.edits);
    assert.equal(fixed.split('\n')[3], '90% MSET a:{__key__} __value__ b:{__key__} __value__');
    assert.deepEqual(crossSlot(fixed), []);
  });

  it('quick fix: a literal shared tag when some key has no __key__', () => {
    const text = cluster('RPOPLPUSH src:__key__ dst');
    const actions = codeActions(text, { start: { line: 3, character: 12 }, end: { line: 3, character: 12 } }, { env: {} }).filter(
      (a) => a.diagnostic.code === CODE,
    );
    assert.deepEqual(
      actions.map((a) => a.title),
      ['Prefix every key with the hash tag `{rbench}` (all of them in one slot, on one node)'],
    );
    const fixed = applyEdits(text, actions[0].edits);
    assert.equal(fixed.split('\n')[3], 'RPOPLPUSH {rbench}src:__key__ {rbench}dst');
    assert.deepEqual(crossSlot(fixed), []);
  });

  it("refuses the suite's MSET test at the suite line, saying how to leave it out; the other suite tests pass", () => {
    const problems = crossSlot(cluster('suite default'));
    assert.equal(problems.length, 1);
    assert.equal(problems[0].range.start.line, 3);
    assert.match(problems[0].message, /^MSET on a Redis Cluster needs all its keys in one hash slot/);
    assert.match(problems[0].message, /the suite's MSET \(10 keys\) test: leave it out of the `suite` list/);
    assert.deepEqual(crossSlot(cluster('suite set,get,lpush,lrange_100')), []);
    assert.deepEqual(crossSlot(cluster('MSET (key:{__key__}:__rand_int__ __value__)*10')), []);
  });

  it('offers no fix it cannot place (a key from a variable), but still reports the problem', () => {
    const text = '@other = b\n### c\ncluster on\nrequests 10\nMGET a ${other}\n';
    const [problem] = crossSlot(text);
    assert.ok(problem);
    assert.equal(problem.fixes, undefined);
  });

  it("the runner's check of a plan: no message for a clean plan, the first problem and a count otherwise", () => {
    const plans = checkText('### ok\nrequests 10\nMSET {t}a 1 {t}b 2\n### bad\nrequests 10\nMGET a b\nDEL c d\n', { env: {} }).scenarios;
    assert.deepEqual(clusterKeyDiagnostics(plans[0]), []);
    assert.equal(crossSlotRefusal(plans[0], 'the profile "prod"'), undefined);
    const refusal = crossSlotRefusal(plans[1], 'the profile "prod"');
    assert.match(
      refusal ?? '',
      /^the profile "prod" is a Redis Cluster, but "bad" has a request whose keys can fall in different hash slots — line 6: MGET on a Redis Cluster/,
    );
    assert.match(refusal ?? '', /\(and 1 more\)$/);
  });

  it('accepts a group whose unit stays in one slot: the same key in every command, a shared tag, no key at all', () => {
    const text =
      'cluster on\n### g\nrequests 10\ngroup sgd\n  SET k:__key__ __value__\n  GET k:__key__\n  DEL k:__key__\nend\n' +
      'group tx\n  MULTI\n  SET {__key__}:v __value__\n  INCR {__key__}:n\n  EXEC\nend\ngroup ping\n  PING\n  ECHO x\nend\n';
    assert.deepEqual(crossSlot(text), []);
  });

  it('refuses a group whose keys can straddle slots, at its group line, saying why, with the fixes', () => {
    const text = 'cluster on\n### g\nrequests 10\ngroup pair\n  SET a:__key__ x\n  GET b:__key__\nend\n';
    const found = crossSlot(text);
    assert.equal(found.length, 1);
    assert.equal(found[0].range.start.line, 3);
    assert.match(found[0].message, /^group pair: on a Redis Cluster a unit goes whole to the master of its hash slot/);
    assert.match(found[0].message, /CROSSSLOT: `a:__key__`, `b:__key__` have no \{hash tag\}/);
    assert.match(found[0].message, /a:\{__key__\}/);
    assert.deepEqual(crossSlot(text.replace('cluster on', 'cluster off')), []);
    const actions = codeActions(text, { start: { line: 3, character: 2 }, end: { line: 3, character: 2 } }, { env: {} }).filter(
      (a) => a.diagnostic.code === CODE,
    );
    assert.deepEqual(
      actions.map((a) => a.title),
      [
        'Put `__key__` in a shared hash tag `{__key__}` (each request in one slot, requests over all slots)',
        'Prefix every key with the hash tag `{rbench}` (all of them in one slot, on one node)',
      ],
    );
    const wrapped = applyEdits(text, actions[0].edits);
    assert.deepEqual(wrapped.split('\n').slice(4, 6), ['  SET a:{__key__} x', '  GET b:{__key__}']);
    assert.deepEqual(crossSlot(wrapped), []);
    const prefixed = applyEdits(text, actions[1].edits);
    assert.deepEqual(prefixed.split('\n').slice(4, 6), ['  SET {rbench}a:__key__ x', '  GET {rbench}b:__key__']);
    assert.deepEqual(crossSlot(prefixed), []);
  });

  it('refuses a transaction whose keys differ (a constant key beside __key__), and a group key drawn per argument', () => {
    const tx = crossSlot('cluster on\n### g\nrequests 10\ngroup tx\n  MULTI\n  SET k:__key__ v\n  INCR counter\n  EXEC\nend\n');
    assert.equal(tx.length, 1);
    assert.match(tx[0].message, /^group tx: .*have no \{hash tag\}/);
    const drawn = crossSlot('cluster on\n### g\nrequests 10\ngroup r\n  SET k:__rand_int__ v\n  GET k:__rand_int__\nend\n');
    assert.equal(drawn.length, 1);
  });
});
