// Command classes from the command table, failing closed (issue 18, seen 3), and the key arguments of commands.
import assert from 'node:assert/strict';
import {
  COMMAND_NAMES,
  classifyCommand,
  isContainer,
  isReadOnlyCommand,
  isRedisCommand,
  isWriteCommand,
  keyPositions,
  literalOf,
  subcommandsOf,
  type CommandClass,
} from '../../../src/scenario/commands';
import type { ArgTemplate } from '../../../src/scenario/plan';

const classes = (name: string, sub?: string) => [...classifyCommand(name, sub)].sort().join(',');
const arg = (...parts: (string | 'KEY' | 'VALUE' | 'INT')[]): ArgTemplate =>
  parts.map((part) =>
    part === 'KEY'
      ? { placeholder: 'key' as const }
      : part === 'VALUE'
        ? { placeholder: 'value' as const }
        : part === 'INT'
          ? { placeholder: 'rand_int' as const }
          : part,
  );
const args = (...words: string[]): ArgTemplate[] =>
  words.map((word) => (word === '__key__' ? arg('KEY') : word === '__value__' ? arg('VALUE') : word === '__rand_int__' ? arg('INT') : [word]));

describe('command classes', () => {
  describe('fail closed (seen 3)', () => {
    it('a computed subcommand counts as the worst its container has: CLIENT and FUNCTION need --allow-admin', () => {
      assert.equal(classes('CLIENT'), 'admin');
      assert.equal(classes('FUNCTION'), 'admin,dangerous,scripting,write');
      assert.equal(classes('SCRIPT'), 'admin,scripting');
      assert.equal(classes('CONFIG'), 'admin');
      assert.equal(classes('XGROUP'), 'write');
      assert.equal(classes('CLUSTER'), 'admin,dangerous');
      assert.equal(classes('MODULE'), 'admin,dangerous,scripting');
    });

    it('an unknown subcommand counts as a computed one, even in a container whose known subcommands all read', () => {
      assert.equal(classes('CLIENT', 'FROBNICATE'), 'admin');
      assert.equal(classes('OBJECT', 'NEWTHING'), 'write');
      assert.equal(classes('OBJECT'), 'write');
      assert.equal(classes('XINFO'), 'write');
      assert.equal(classes('COMMAND'), 'write');
      assert.equal(classes('PUBSUB'), 'write');
      assert.equal(classes('CLIENT', 'constructor'), 'admin');
    });

    it('subcommands that stop other clients or drop what they rely on are admin', () => {
      for (const [name, sub] of [
        ['CLIENT', 'KILL'],
        ['CLIENT', 'PAUSE'],
        ['CLIENT', 'UNPAUSE'],
        ['CLIENT', 'NO-EVICT'],
        ['CLIENT', 'UNBLOCK'],
        ['CLIENT', 'LIST'],
        ['SCRIPT', 'KILL'],
        ['SCRIPT', 'FLUSH'],
        ['SCRIPT', 'DEBUG'],
        ['FUNCTION', 'KILL'],
        ['MEMORY', 'PURGE'],
        ['LATENCY', 'RESET'],
        ['SLOWLOG', 'RESET'],
        ['CONFIG', 'SET'],
        ['CONFIG', 'GET'],
        ['ACL', 'SETUSER'],
      ]) {
        assert.equal(classes(name, sub), 'admin', `${name} ${sub}`);
      }
      assert.equal(classes('FUNCTION', 'DELETE'), 'admin,write');
      assert.equal(classes('FUNCTION', 'FLUSH'), 'admin,dangerous,write');
      assert.equal(classes('FUNCTION', 'RESTORE'), 'admin,dangerous,scripting,write');
      assert.equal(classes('CLUSTER', 'RESET'), 'admin,dangerous');
      assert.equal(classes('CLUSTER', 'FLUSHSLOTS'), 'admin,dangerous');
      assert.equal(classes('CLUSTER', 'FAILOVER'), 'admin');
      assert.equal(classes('MODULE', 'LOAD'), 'admin,dangerous,scripting');
      assert.equal(classes('MODULE', 'LOADEX'), 'admin,dangerous,scripting');
      assert.equal(classes('MODULE', 'LIST'), 'admin');
    });

    it('FUNCTION LOAD installs code that outlives the run: admin and scripting; SCRIPT LOAD is scripting', () => {
      assert.equal(classes('FUNCTION', 'LOAD'), 'admin,scripting,write');
      assert.equal(classes('function', 'load'), 'admin,scripting,write');
      assert.equal(classes('SCRIPT', 'LOAD'), 'scripting');
    });

    it('XGROUP subcommands write; XINFO and OBJECT subcommands read', () => {
      for (const sub of ['CREATE', 'CREATECONSUMER', 'DELCONSUMER', 'DESTROY', 'SETID']) assert.equal(classes('XGROUP', sub), 'write', sub);
      for (const sub of ['CONSUMERS', 'GROUPS', 'STREAM']) assert.equal(classes('XINFO', sub), 'read', sub);
      for (const sub of ['ENCODING', 'FREQ', 'IDLETIME', 'REFCOUNT']) assert.equal(classes('OBJECT', sub), 'read', sub);
      assert.equal(classes('MEMORY', 'USAGE'), 'read');
    });

    it('a command with neither the readonly nor the write flag is a write unless known harmless: PUBLISH reaches other clients', () => {
      for (const name of ['PUBLISH', 'SPUBLISH', 'SUBSCRIBE', 'PSUBSCRIBE', 'SSUBSCRIBE', 'UNSUBSCRIBE']) assert.equal(classes(name), 'write', name);
      assert.equal(classes('WAIT'), 'blocking,write');
      assert.equal(classes('WAITAOF'), 'blocking,write');
      assert.equal(classes('SELECT'), 'dangerous,write');
    });

    it('the harmless connection and introspection commands read', () => {
      for (const name of [
        'PING',
        'ECHO',
        'TIME',
        'LASTSAVE',
        'ROLE',
        'INFO',
        'HELLO',
        'AUTH',
        'READONLY',
        'READWRITE',
        'ASKING',
        'RESET',
        'QUIT',
        'MULTI',
        'EXEC',
        'DISCARD',
        'WATCH',
        'UNWATCH',
      ]) {
        assert.equal(classes(name), 'read', name);
      }
    });

    it('the harmless subcommands read', () => {
      const harmless: Record<string, string[]> = {
        ACL: ['CAT', 'GENPASS', 'WHOAMI', 'HELP'],
        CLIENT: ['CACHING', 'GETNAME', 'GETREDIR', 'ID', 'INFO', 'NO-TOUCH', 'REPLY', 'SETINFO', 'SETNAME', 'TRACKING', 'TRACKINGINFO', 'HELP'],
        CLUSTER: ['COUNTKEYSINSLOT', 'GETKEYSINSLOT', 'INFO', 'KEYSLOT', 'LINKS', 'MYID', 'MYSHARDID', 'NODES', 'SHARDS', 'SLOT-STATS', 'SLOTS', 'HELP'],
        COMMAND: ['COUNT', 'DOCS', 'GETKEYS', 'GETKEYSANDFLAGS', 'INFO', 'LIST', 'HELP'],
        FUNCTION: ['DUMP', 'LIST', 'STATS', 'HELP'],
        MEMORY: ['DOCTOR', 'MALLOC-STATS', 'STATS', 'HELP'],
        PUBSUB: ['CHANNELS', 'NUMPAT', 'NUMSUB', 'SHARDCHANNELS', 'SHARDNUMSUB', 'HELP'],
        SCRIPT: ['EXISTS', 'HELP'],
      };
      for (const [name, subs] of Object.entries(harmless)) for (const sub of subs) assert.equal(classes(name, sub), 'read', `${name} ${sub}`);
    });

    it('a subcommand whose flags say neither read nor write, and not known harmless, is a write', () => {
      // Table entries this project knows nothing more about.
      assert.equal(classes('BLESS', 'GET'), 'write');
      assert.equal(classes('HIMPORT', 'DISCARD'), 'write');
      assert.equal(classes('CLIENT', 'HELP'), 'read');
    });

    it('a command unknown to the table (a module) is the most dangerous: admin, dangerous and write', () => {
      assert.equal(classes('FT.SEARCH'), 'admin,dangerous,write');
      assert.equal(classes('NOPE'), 'admin,dangerous,write');
      assert.equal(classes('constructor'), 'admin,dangerous,write');
      assert.equal(classes('toString'), 'admin,dangerous,write');
    });

    it('DEBUG counts as the most dangerous whatever its subcommand', () => {
      for (const sub of ['SLEEP', 'RELOAD', 'OBJECT', undefined]) assert.equal(classes('DEBUG', sub), 'admin,dangerous,write', String(sub));
    });
  });

  describe('from the table flags', () => {
    it('read, write, blocking, scripts and admin commands', () => {
      assert.equal(classes('GET'), 'read');
      assert.equal(classes('get'), 'read');
      assert.equal(classes('SET'), 'write');
      assert.equal(classes('BLPOP'), 'blocking,write');
      assert.equal(classes('XREAD'), 'blocking,read');
      assert.equal(classes('EVAL'), 'scripting');
      assert.equal(classes('EVALSHA'), 'scripting');
      assert.equal(classes('FCALL'), 'scripting');
      assert.equal(classes('EVAL_RO'), 'read');
      assert.equal(classes('FCALL_RO'), 'read');
      assert.equal(classes('MONITOR'), 'admin');
      assert.equal(classes('SHUTDOWN'), 'admin');
      assert.equal(classes('REPLICAOF'), 'admin');
      assert.equal(classes('PFDEBUG'), 'admin,write');
    });

    it('commands that reach beyond their keys are dangerous, in any case', () => {
      for (const name of ['FLUSHALL', 'flushall', 'FlushDb', 'SWAPDB', 'MIGRATE', 'MOVE']) assert.equal(classes(name), 'dangerous,write', name);
    });

    it('a container`s subcommand keeps its own classes however it is written', () => {
      assert.equal(classes('client', 'kill'), 'admin');
      assert.equal(classes('Client', 'SetName'), 'read');
    });
  });

  it('isReadOnlyCommand: reads, perhaps blocking, and nothing else', () => {
    const of = (...kinds: CommandClass[]) => isReadOnlyCommand(new Set(kinds));
    assert.equal(of('read'), true);
    assert.equal(of('read', 'blocking'), true);
    assert.equal(of('blocking'), true);
    for (const kind of ['write', 'admin', 'dangerous', 'scripting'] as const) assert.equal(of('read', kind), false, kind);
  });

  it('COMMAND_NAMES: the table`s names in upper case', () => {
    assert.ok(COMMAND_NAMES.includes('GET'));
    assert.ok(COMMAND_NAMES.includes('RESTORE-ASKING'));
    assert.ok(COMMAND_NAMES.length > 200);
    for (const name of COMMAND_NAMES) assert.equal(name, name.toUpperCase());
  });

  it('isRedisCommand and isWriteCommand look at the table only', () => {
    assert.equal(isRedisCommand('GET'), true);
    assert.equal(isRedisCommand('get'), true);
    assert.equal(isRedisCommand('constructor'), false);
    assert.equal(isRedisCommand('1GET'), false);
    assert.equal(isRedisCommand('GET '), false);
    assert.equal(isWriteCommand('SET'), true);
    assert.equal(isWriteCommand('GET'), false);
    assert.equal(isWriteCommand('NOPE'), false);
  });

  it('containers: the table`s commands with subcommands, and DEBUG', () => {
    for (const name of [
      'CONFIG',
      'client',
      'SCRIPT',
      'FUNCTION',
      'XGROUP',
      'XINFO',
      'OBJECT',
      'MEMORY',
      'CLUSTER',
      'COMMAND',
      'ACL',
      'MODULE',
      'DEBUG',
      'LATENCY',
      'SLOWLOG',
      'PUBSUB',
    ]) {
      assert.equal(isContainer(name), true, name);
    }
    for (const name of ['GET', 'SET', 'EVAL', 'NOPE']) assert.equal(isContainer(name), false, name);
    assert.ok(subcommandsOf('xgroup').includes('destroy'));
    assert.ok(subcommandsOf('XGROUP').includes('create'));
    assert.deepEqual(subcommandsOf('GET'), []);
    assert.deepEqual(subcommandsOf('DEBUG'), []);
  });
});

describe('command keys', () => {
  it('literalOf: the text of a literal argument, undefined for a computed one', () => {
    assert.equal(literalOf(['a', 'b']), 'ab');
    assert.equal(literalOf([]), '');
    assert.equal(literalOf(arg('a', 'KEY')), undefined);
    assert.equal(literalOf(undefined), undefined);
  });

  it('key positions from the table`s key specs and its special cases', () => {
    assert.deepEqual(keyPositions('SET', args('k', 'v')), [0]);
    assert.deepEqual(keyPositions('set', args('__key__', '__value__')), [0]);
    assert.deepEqual(keyPositions('MSET', args('a', '1', 'b', '2')), [0, 2]);
    assert.deepEqual(keyPositions('DEL', args('a', 'b', 'c')), [0, 1, 2]);
    assert.deepEqual(keyPositions('RENAME', args('a', 'b')), [0, 1]);
    assert.deepEqual(keyPositions('COPY', args('a', 'b', 'REPLACE')), [0, 1]);
    assert.deepEqual(keyPositions('LMOVE', args('a', 'b', 'LEFT', 'RIGHT')), [0, 1]);
    assert.deepEqual(keyPositions('SORT', args('l', 'STORE', 'dest')), [0, 2]);
    assert.deepEqual(keyPositions('SORT', args('__key__', 'STORE', 'dest')), [0, 2]);
    assert.deepEqual(keyPositions('XGROUP', args('DESTROY', 's', 'g')), [1]);
    assert.deepEqual(keyPositions('OBJECT', args('ENCODING', 'k')), [1]);
    assert.deepEqual(keyPositions('ZUNIONSTORE', args('d', '2', '__key__', 'b')), [0, 2, 3]);
    assert.deepEqual(keyPositions('PING', args()), []);
  });

  it('numkeys beyond the arguments given name only the arguments there are', () => {
    assert.deepEqual(keyPositions('ZUNIONSTORE', args('d', '3', 'a')), [0, 2]);
  });

  it('keys the table cannot tell: an unknown command, a computed numkeys or subcommand', () => {
    assert.equal(keyPositions('NOPE', args('k')), undefined);
    assert.equal(keyPositions('constructor', args('k')), undefined);
    assert.equal(keyPositions('EVAL', args('return 1', '__rand_int__', 'k')), undefined);
    assert.equal(keyPositions('SORT', args('l', '__value__', 'dest')), undefined);
    assert.equal(keyPositions('XGROUP', args('__value__', 's', 'g')), undefined);
    assert.equal(keyPositions('XGROUP', args('NOPE', 's', 'g')), undefined);
    assert.equal(keyPositions('DEBUG', args('OBJECT', 'k')), undefined);
    // A computed argument of a command whose keys do not move is harmless.
    assert.deepEqual(keyPositions('SET', args('k', '__value__')), [0]);
  });
});
