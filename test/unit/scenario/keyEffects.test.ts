// What a command does to each key, from key specs and `denyoom` (issue 42, seen 4): the built-in table's redis 7.0
// key specs, a server's own description (the 7.4/8 commands 7.0 lacks, a module's), and the property over the
// whole built-in table that no command whose key spec removes or overwrites counts as a plain write.
import assert from 'node:assert/strict';
import { BUILT_IN_TABLE, serverCommandTable, type CommandSpec } from '../../../src/scenario/commandTable';
import { effectOfKeyFlags, keyEffects, type KeyEffect } from '../../../src/scenario/keyEffects';
import type { ArgTemplate } from '../../../src/scenario/plan';
import { commandSpecs } from '../../../src/redis/commandTableReply';
import { NEWER_COMMANDS } from '../../helpers/newerCommands';

const args = (...words: string[]): ArgTemplate[] => words.map((word) => (word === '__key__' ? [{ placeholder: 'key' as const }] : [word]));

function effects(line: string, table = BUILT_IN_TABLE): KeyEffect[] | undefined {
  const [name, ...rest] = line.split(' ');
  const found = keyEffects(name, args(...rest), table);
  return found && [...found.entries()].sort(([a], [b]) => a - b).map(([, { effect }]) => effect);
}

describe('key effects', () => {
  it('the built-in table: redis 7.0 key specs and denyoom', () => {
    const cases: [string, KeyEffect[] | undefined][] = [
      ['GET k', ['reads']],
      ['SET k v', ['creates']],
      ['SET k v GET', ['creates']],
      ['HSET k f v', ['creates']],
      ['INCR k', ['creates']],
      ['LPUSH k v', ['creates']],
      ['MSET a 1 b 2', ['creates', 'creates']],
      ['SUNIONSTORE d a b', ['creates', 'reads', 'reads']],
      ['LMOVE a b LEFT RIGHT', ['destroys', 'creates']],
      ['SMOVE a b m', ['destroys', 'creates']],
      ['RENAME a b', ['destroys', 'destroys']],
      ['COPY a b', ['reads', 'creates']],
      ['DEL a b', ['destroys', 'destroys']],
      ['UNLINK a', ['destroys']],
      ['GETDEL a', ['destroys']],
      ['EXPIRE k 10', ['destroys']],
      ['PEXPIREAT k 10', ['destroys']],
      ['GETEX k PX 10', ['destroys']],
      ['PERSIST k', ['destroys']],
      ['HDEL k f', ['destroys']],
      ['XDEL s 1-1', ['destroys']],
      ['XACK s g 1-1', ['destroys']],
      ['XCLAIM s g c 0 1-1', ['destroys']],
      ['XGROUP DESTROY s g', ['destroys']],
      ['XGROUP SETID s g $', ['destroys']],
      ['XGROUP CREATE s g $', ['creates']],
      ['LTRIM k 0 1', ['destroys']],
      ['RPOP k', ['destroys']],
      ['BITFIELD k GET u8 0', ['creates']],
      // Newer than 7.0: no key specs in the built-in table; a write that cannot use more memory cannot create.
      ['HEXPIRE k 10 FIELDS 1 f', ['destroys']],
      ['HPERSIST k FIELDS 1 f', ['destroys']],
      ['HGETEX k PX 10 FIELDS 1 f', ['destroys']],
      ['XDELEX s IDS 1 1-1', ['destroys']],
      ['XACKDEL s g IDS 1 1-1', ['destroys']],
      ['HGETDEL k FIELDS 1 f', ['destroys']],
      ['DELEX k', ['destroys']],
      ['HSETEX k FIELDS 1 f v', ['creates']],
      ['VREM k e', ['destroys']],
      ['VADD k VALUES 1 1 e', ['creates']],
      ['XGROUP __value__ s g', undefined],
    ];
    for (const [line, want] of cases) assert.deepEqual(effects(line.replace('__value__', '__key__')), want, line);
  });

  it('a server’s own description: the 7.4/8 commands 7.0 lacks and a module’s delete, as their sources give them', () => {
    const table = serverCommandTable('the server fake', commandSpecs(NEWER_COMMANDS));
    for (const line of [
      'HEXPIRE k 10 FIELDS 1 f',
      'HPEXPIRE k 10 FIELDS 1 f',
      'HEXPIREAT k 10 FIELDS 1 f',
      'HPEXPIREAT k 10 FIELDS 1 f',
      'HGETEX k PX 10 FIELDS 1 f',
      'HPERSIST k FIELDS 1 f',
      'XDELEX s IDS 1 1-1',
      'XACKDEL s g IDS 1 1-1',
      'XACK s g 1-1',
      'VREM k e',
      'JSON.DEL k',
    ])
      assert.deepEqual(effects(line, table), ['destroys'], line);
    assert.deepEqual(effects('JSON.SET k $ 1', table), ['creates']);
    // A module's command whose keys the module finds itself (getkeys-api: VARIABLE_FLAGS) may do anything to them.
    assert.deepEqual(effects('MOD.ANY k', table), ['destroys']);
  });

  it('a server can make a command worse than the built-in table says, never better', () => {
    const [set] = commandSpecs(NEWER_COMMANDS).filter((spec) => spec.name === 'set');
    const lying = serverCommandTable('the server fake', [{ ...set, keySpecs: [{ ...set.keySpecs![0], flags: ['ro', 'access'] }] }]);
    assert.deepEqual(effects('SET k v', lying), ['creates']);
    const worse = serverCommandTable('the server fake', [{ ...set, keySpecs: [{ ...set.keySpecs![0], flags: ['rm', 'delete'] }] }]);
    assert.deepEqual(effects('SET k v', worse), ['destroys']);
  });

  it('property: over the whole built-in table, no key spec that removes or overwrites is a plain write', () => {
    let checked = 0;
    const visit = (spec: CommandSpec, name: string) => {
      for (const sub of spec.subcommands ?? []) visit(sub, `${name}|${sub.name}`);
      if (!(spec.flags.includes('write') && spec.keySpecs)) return;
      for (const keySpec of spec.keySpecs) {
        const flags = new Set(keySpec.flags);
        const { effect } = effectOfKeyFlags(flags, spec, name.split('|')[0]);
        checked++;
        if (flags.has('delete') || flags.has('rm')) assert.equal(effect, 'destroys', `${name}: ${keySpec.flags.join(' ')}`);
        // Overwriting creates only when the command may add data (SET, COPY's destination, *STORE); RENAME's destination is destroyed.
        if (flags.has('ow')) assert.equal(effect, spec.flags.includes('denyoom') ? 'creates' : 'destroys', `${name}: ${keySpec.flags.join(' ')}`);
        // A write that cannot use more memory can only rewrite or remove: never create, never a mere read.
        if (!spec.flags.includes('denyoom') && !flags.has('ro') && !(flags.has('insert') && !flags.has('update')))
          assert.equal(effect, 'destroys', `${name}: ${keySpec.flags.join(' ')}`);
      }
    };
    for (const name of BUILT_IN_TABLE.names()) visit(BUILT_IN_TABLE.spec(name)!, name);
    assert.ok(checked > 100, `${checked} key specs checked`);
  });
});
