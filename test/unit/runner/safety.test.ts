import assert from 'node:assert/strict';
import { classifyCommand } from '../../../src/scenario/commands';
import { adminRefusal, describeActions, readOnlyRefusal, scenarioActions } from '../../../src/runner/safety';
import { planOf } from '../editor/fixtures';

const classes = (name: string, sub?: string) => [...classifyCommand(name, sub)].sort();

describe('command classes', () => {
  it('come from the command table and container subcommands', () => {
    assert.deepEqual(classes('GET'), ['read']);
    assert.deepEqual(classes('SET'), ['write']);
    assert.deepEqual(classes('BLPOP'), ['blocking', 'write']);
    assert.deepEqual(classes('FLUSHALL'), ['dangerous', 'write']);
    assert.deepEqual(classes('EVAL'), ['scripting']);
    assert.deepEqual(classes('EVAL_RO'), ['read']);
    assert.deepEqual(classes('FCALL'), ['scripting']);
    for (const [name, sub] of [
      ['CONFIG', 'SET'],
      ['CONFIG', 'GET'],
      ['SHUTDOWN'],
      ['DEBUG', 'SLEEP'],
      ['MODULE', 'LOAD'],
      ['ACL', 'SETUSER'],
      ['REPLICAOF'],
      ['CLIENT', 'KILL'],
      ['SCRIPT', 'FLUSH'],
      ['FUNCTION', 'FLUSH'],
      ['MONITOR'],
      ['SAVE'],
    ]) {
      assert.ok(classes(name, sub).includes('admin'), `${name} ${sub ?? ''}`);
    }
    assert.deepEqual(classes('CLIENT', 'SETNAME'), ['read']);
    assert.deepEqual(classes('SCRIPT', 'LOAD'), ['scripting']);
    assert.deepEqual(classes('PING'), ['read']);
  });
});

describe('run safety rules', () => {
  it('lists what a scenario does, with an example per class', () => {
    const actions = scenarioActions(planOf('cleanup bench:*\n### s\nGET k\nSET k v\nEVAL "return 1" 0\n'));
    assert.equal(describeActions(actions), 'reads, writes (SET), runs scripts (EVAL)');
  });

  it('refuses admin commands unless the user allows them', () => {
    const plan = planOf('### s\nCONFIG SET maxmemory 1\n');
    assert.match(adminRefusal(plan, scenarioActions(plan), false) ?? '', /CONFIG SET, an admin command/);
    assert.equal(adminRefusal(plan, scenarioActions(plan), true), undefined);
  });

  it('credentials written in a file need --allow-admin (issue 42, seen 6a): AUTH, HELLO … AUTH, MIGRATE … AUTH2, computed or literal', () => {
    for (const line of [
      'AUTH user pw__key__',
      'auth pw',
      'HELLO 3 AUTH default pw__key__',
      'HELLO 3 __value__',
      'MIGRATE 10.0.0.9 6379 k 0 1000 AUTH2 u p',
      'MIGRATE 10.0.0.9 6379 k 0 1000 auth p',
    ]) {
      const plan = planOf(`### s\n${line}\n`);
      const actions = scenarioActions(plan);
      assert.ok(actions.classes.has('admin'), line);
      assert.match(adminRefusal(plan, actions, false) ?? '', /with credentials written in the file: a file could try passwords/, line);
      assert.equal(adminRefusal(plan, actions, true), undefined, line);
    }
    // Without credentials they stay what they were: HELLO's protocol switch, QUIT and RESET are harmless; a plain MIGRATE is destructive, not admin.
    for (const line of ['HELLO 3', 'HELLO', 'RESET', 'MIGRATE 10.0.0.9 6379 k 0 1000 COPY']) {
      assert.equal(scenarioActions(planOf(`### s\n${line}\n`)).classes.has('admin'), false, line);
    }
  });

  it('lets a read-only profile run reads only', () => {
    const read = planOf('### s\nGET k\nEVAL_RO "return 1" 0\nXREAD BLOCK 10 STREAMS s 0\n');
    assert.equal(readOnlyRefusal(read, scenarioActions(read), 'p', true), undefined);
    for (const text of ['### s\nEVAL "redis.call(\'flushall\')" 0\n', '### s\nFLUSHALL\n', 'cleanup x:*\n### s\nGET k\n']) {
      const plan = planOf(text);
      assert.ok(readOnlyRefusal(plan, scenarioActions(plan), 'p', true), text);
      assert.equal(readOnlyRefusal(plan, scenarioActions(plan), 'p', false), undefined);
    }
  });
});
