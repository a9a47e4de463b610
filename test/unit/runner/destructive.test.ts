// What a scenario does to a server, and the gate on what can destroy or rewrite keys beyond its own (issue 18, seen 2 and 3).
import assert from 'node:assert/strict';
import { adminRefusal, describeActions, destructiveRefusal, readOnlyRefusal, scenarioActions } from '../../../src/runner/safety';
import { planOf } from '../editor/fixtures';

const actionsOf = (text: string) => scenarioActions(planOf(text));
const destructiveOf = (text: string) => actionsOf(text).destructive;

describe('scenario actions', () => {
  describe('destructive effects (seen 2)', () => {
    const cases: [string, string[]][] = [
      ['cleanup *\n### s\nSET bench:__key__ v\n', ["`cleanup *` deletes keys beyond the scenario's own bench:*"]],
      ['cleanup user:*\n### s\nSET bench:__key__ v\n', ["`cleanup user:*` deletes keys beyond the scenario's own bench:*"]],
      ['cleanup bench:*\n### s\nGET bench:__key__\n', ['`cleanup bench:*` deletes keys and the scenario creates no keys of its own']],
      ['### s\nDEL user:1\n', ['DEL removes or replaces user:1, keys the scenario does not create']],
      [
        '### s\nUNLINK user:1 user:2\n',
        ['UNLINK removes or replaces user:1, keys the scenario does not create', 'UNLINK removes or replaces user:2, keys the scenario does not create'],
      ],
      ['### s\nEXPIRE user:1 10\n', ['EXPIRE rewrites data of user:1, keys the scenario does not create']],
      ['### s\nDEL user:__key__\n', ['DEL removes or replaces user:*, keys the scenario does not create']],
      [
        '### s\nRENAME user:1 bench:1\n',
        ['RENAME removes data from user:1, keys the scenario does not create', 'RENAME removes or replaces bench:1, keys the scenario does not create'],
      ],
      ['### s\nMOVE user:1 1\n', ['MOVE moves keys into another database', 'MOVE rewrites data of user:1, keys the scenario does not create']],
      ['### s\nCOPY bench:1 user:1 REPLACE\n', ['COPY … REPLACE removes or replaces user:1, keys the scenario does not create']],
      [
        '### s\nvalue-fill REPLACE\nCOPY bench:1 user:1 __value__\n',
        ['COPY … DB writes into another database', 'COPY … REPLACE removes or replaces user:1, keys the scenario does not create'],
      ],
      ['### s\nCOPY bench:1 bench:2 DB 1\n', ['COPY … DB writes into another database']],
      ['### s\nRESTORE user:1 0 payload REPLACE\n', ['RESTORE … REPLACE removes or replaces user:1, keys the scenario does not create']],
      ['### s\nRESTORE user:1 0 payload replace\n', ['RESTORE … REPLACE removes or replaces user:1, keys the scenario does not create']],
      ['### s\nRESTORE-ASKING user:1 0 payload REPLACE\n', ['RESTORE-ASKING … REPLACE removes or replaces user:1, keys the scenario does not create']],
      ['### s\nFLUSHALL\nFLUSHALL\n', ['FLUSHALL wipes every key of every database']],
      ['cleanup *\n### s\nSET bench:__key__ v\nINCR counter\nSET bench:__key__ w\n', ["`cleanup *` deletes keys beyond the scenario's own bench:*, counter"]],
      ['### s\nFLUSHALL\n', ['FLUSHALL wipes every key of every database']],
      ['### s\nFlushDb\n', ['FLUSHDB wipes every key of the database']],
      ['### s\nEVAL "redis.call(\'flushall\')" 0\n', ['EVAL runs or installs server-side code that may touch any key']],
      ['### s\nFCALL wipe 0\n', ['FCALL runs or installs server-side code that may touch any key']],
      ['### s\ngroup g\n  MULTI\n  FLUSHDB\n  EXEC\nend\n', ['FLUSHDB wipes every key of the database']],
      ['### s\nSWAPDB 0 1\n', ['SWAPDB swaps whole databases']],
      ['### s\nSELECT 1\nFLUSHDB\n', ['SELECT switches to another database than the one the target names', 'FLUSHDB wipes every key of the database']],
      [
        '### s\nMIGRATE 10.0.0.9 6379 user:1 0 1000\n',
        ['MIGRATE moves keys to another server', 'MIGRATE removes data from user:1, keys the scenario does not create'],
      ],
      ['### s\nDEBUG RELOAD\n', ['DEBUG RELOAD can reload, change or wipe the whole dataset']],
      ['### s\nFUNCTION FLUSH\n', ["FUNCTION FLUSH can destroy data beyond the scenario's own keys"]],
      [
        '### s\nFUNCTION LOAD "#!lua name=x\\nredis.register_function(\'f\', function() return 1 end)"\n',
        ['FUNCTION LOAD runs or installs server-side code that may touch any key'],
      ],
      ['### s\nXGROUP __value__ s g\n', ['XGROUP <computed subcommand> writes keys the command table cannot tell']],
      ['### s\nZUNIONSTORE bench:d __rand_int__ bench:a\n', ['ZUNIONSTORE writes keys the command table cannot tell']],
    ];
    for (const [text, expected] of cases) {
      it(text.replace(/\n/g, ' ⏎ '), () => {
        assert.deepEqual(destructiveOf(text), expected);
      });
    }
  });

  it('reading and writing the scenario`s own keys is not destructive', () => {
    for (const text of [
      'cleanup bench:*\n### s\nSET bench:__key__ __value__\nGET bench:__key__\nDEL bench:__key__\nEXPIRE bench:__key__ 10\n',
      '### s\nINCR counter\nDEL counter\n',
      // keys 1 of size 12: the key b:__key__ writes is b:000000000000.
      '### s\nMSET a:__key__ v b:__key__ v\nDEL a:__key__ b:000000000000\n',
      '### s\nSET bench:__key__ v\nSET bench:x v\nRENAME bench:__key__ bench:x\n',
      '### s\nRESTORE bench:__key__ 0 payload\n',
      '### s\nSET bench:1 v\nCOPY bench:1 bench:2\n',
      '### s\nSET bench:__key__ v\nCOPY bench:1 bench:000000000000 REPLACE\n',
      'cleanup bench:1*\n### s\nLPUSH bench:__key__ v\n',
      '### s\nEVAL_RO "return 1" 0\nGET k\nPING\nPUBLISH ch m\n',
      '### s\nSET user:1 v\nSORT l STORE user:2\n',
    ]) {
      assert.deepEqual(destructiveOf(text), [], text);
    }
  });

  it('taking data out of a key the scenario does not create is destructive (fields, members, elements, entries, groups)', () => {
    const drains: [string, string, string?][] = [
      ['HDEL user:1 f', 'HDEL'],
      ['SREM users x', 'SREM'],
      ['SPOP users', 'SPOP'],
      ['LPOP queue', 'LPOP'],
      ['RPOP queue', 'RPOP'],
      ['LTRIM queue 0 0', 'LTRIM'],
      ['BLPOP queue 1', 'BLPOP'],
      ['ZPOPMIN board', 'ZPOPMIN'],
      ['ZREMRANGEBYRANK board 0 -1', 'ZREMRANGEBYRANK'],
      ['XTRIM stream MAXLEN 0', 'XTRIM'],
      ['XDEL stream 0-1', 'XDEL'],
      ['PERSIST session', 'PERSIST', 'rewrites data of'],
      ['XGROUP DESTROY stream g', 'XGROUP DESTROY'],
      ['XGROUP DELCONSUMER stream g c', 'XGROUP DELCONSUMER'],
      ['XGROUP SETID stream g $', 'XGROUP SETID', 'rewrites data of'],
    ];
    for (const [command, shown, does = 'removes data from'] of drains) {
      const key = command.split(' ')[command.startsWith('XGROUP') ? 2 : 1];
      assert.deepEqual(destructiveOf(`### s\nSET bench:__key__ v\n${command}\n`), [`${shown} ${does} ${key}, keys the scenario does not create`], command);
    }
    // A move takes from its first key only.
    assert.deepEqual(destructiveOf('### s\nLPUSH bench:list v\nLMOVE user:list bench:list LEFT RIGHT\n'), [
      'LMOVE removes data from user:list, keys the scenario does not create',
    ]);
    assert.deepEqual(destructiveOf('### s\nSADD bench:set m\nSMOVE users bench:set m\n'), ['SMOVE removes data from users, keys the scenario does not create']);
    assert.deepEqual(destructiveOf('### s\nLPUSH bench:list v\nLMOVE bench:list user:list LEFT RIGHT\n'), []);
    // Nor does a drain make the key the scenario's own: a later cleanup of it is still refused.
    assert.deepEqual(destructiveOf('cleanup queue\n### s\nRPOP queue\n'), [
      'RPOP removes data from queue, keys the scenario does not create',
      '`cleanup queue` deletes keys and the scenario creates no keys of its own',
    ]);
  });

  it('taking data out of the scenario`s own keys is not destructive (LPUSH then RPOP, SADD then SPOP…)', () => {
    for (const text of [
      '### s\nLPUSH mylist __value__\nRPOP mylist\n',
      '### s\nSADD bench:set:__key__ m\nSPOP bench:set:__key__\n',
      '### s\nXADD bench:s * f v\nXTRIM bench:s MAXLEN 10\nXGROUP DESTROY bench:s g\n',
      '### s\nHSET bench:h f v\nHDEL bench:h f\n',
    ]) {
      assert.deepEqual(destructiveOf(text), [], text);
    }
  });

  it('keys made of placeholders alone are nobody`s own: their cleanup is refused', () => {
    assert.deepEqual(destructiveOf('cleanup *\n### s\nSET __key__ v\n'), ['`cleanup *` deletes keys and the scenario creates no keys of its own']);
    assert.deepEqual(destructiveOf('### s\nSET __key__ v\nDEL __key__\n'), ['DEL removes or replaces *, keys the scenario does not create']);
  });

  it('a key a multi-key write only reads is not thereby the scenario`s own; the one it overwrites is', () => {
    assert.deepEqual(destructiveOf('cleanup user:*\n### s\nSUNIONSTORE bench:d user:__key__\n'), [
      "`cleanup user:*` deletes keys beyond the scenario's own bench:d",
    ]);
  });

  it('a command unknown to the table (a plan from elsewhere: a run file, a newer version) is destructive and admin', () => {
    const plan = planOf('### s\nGET idx\n');
    plan.points[0].phases[0].tests[0].commands[0].command.name = 'FT.CREATE';
    const actions = scenarioActions(plan);
    assert.deepEqual(actions.destructive, ["FT.CREATE can destroy data beyond the scenario's own keys"]);
    assert.deepEqual(actions.commands, { admin: ['FT.CREATE'], dangerous: ['FT.CREATE'], write: ['FT.CREATE'] });
    assert.deepEqual(actions.writePatterns, []);
  });

  it('lists every distinct command per class, as shown, and the keys written', () => {
    const actions = actionsOf(
      'cleanup bench:*\n### s\nvalue-fill KILL\nSET bench:__key__ v\nSET counter 1\nGET bench:__key__\nCONFIG SET maxmemory 1\nCONFIG GET maxmemory\nCLIENT __value__ TYPE normal\nSET bench:__key__ w\n',
    );
    assert.deepEqual(actions.commands, {
      write: ['SET', 'cleanup bench:*'],
      read: ['GET'],
      admin: ['CONFIG SET', 'CONFIG GET', 'CLIENT <computed subcommand>'],
    });
    assert.deepEqual(actions.examples, { write: 'SET', read: 'GET', admin: 'CONFIG SET' });
    assert.deepEqual([...actions.classes].sort(), ['admin', 'read', 'write']);
    assert.deepEqual(actions.writePatterns, ['bench:*', 'counter']);
    assert.deepEqual(actions.destructive, []);
  });

  it('writePatterns: every key a write names, and the cleanup pattern once', () => {
    assert.deepEqual(actionsOf('cleanup bench:*\n### s\nSET bench:__key__ v\nSORT bench:__key__ STORE out\nGET other\n').writePatterns, ['bench:*', 'out']);
    assert.deepEqual(actionsOf('cleanup x:*\n### s\nGET k\n').writePatterns, ['x:*']);
    assert.deepEqual(actionsOf('### s\nXGROUP __value__ s g\n').writePatterns, []);
    assert.deepEqual(actionsOf('### s\nMIGRATE 10.0.0.9 6379 bench:__key__ 0 1000\n').writePatterns, ['bench:*']);
  });

  it('the scenario`s classes are the union of its commands`, in groups too (seen 3)', () => {
    const actions = actionsOf('### s\nvalue-fill FLUSH\ngroup g\n  GET k\n  FUNCTION __value__\nend\n');
    assert.deepEqual([...actions.classes].sort(), ['admin', 'dangerous', 'read', 'scripting', 'write']);
    assert.deepEqual(actions.commands.admin, ['FUNCTION <computed subcommand>']);
  });

  it('describeActions names the first command of each class', () => {
    assert.equal(
      describeActions(actionsOf('cleanup bench:*\n### s\nGET k\nSET bench:__key__ v\nEVAL "return 1" 0\n')),
      'reads, writes (SET), runs scripts (EVAL)',
    );
    assert.equal(
      describeActions(actionsOf('### s\nFLUSHALL\nCONFIG SET a b\nBLPOP l 0\n')),
      'writes (FLUSHALL), wipes data (FLUSHALL), administers the server (CONFIG SET), blocks (BLPOP)',
    );
  });
});

describe('gates (seen 3)', () => {
  it('a computed CLIENT or FUNCTION subcommand needs --allow-admin', () => {
    for (const text of [
      '### s\nvalue-fill KILL\nCLIENT __value__ TYPE normal\n',
      '### s\nvalue-fill FLUSH\nFUNCTION __value__\n',
      '### s\nFUNCTION LOAD "code"\n',
      '### s\nCLUSTER RESET HARD\n',
    ]) {
      const plan = planOf(text);
      assert.match(adminRefusal(plan, scenarioActions(plan), false) ?? '', /an admin command/, text);
      assert.equal(adminRefusal(plan, scenarioActions(plan), true), undefined);
    }
  });

  it('a read-only profile refuses XGROUP DESTROY, PUBLISH and a computed OBJECT subcommand', () => {
    for (const text of ['### s\nXGROUP DESTROY s g\n', '### s\nPUBLISH ch m\n', '### s\nvalue-fill ENCODING\nOBJECT __value__ k\n', '### s\nWAIT 1 0\n']) {
      const plan = planOf(text);
      assert.match(readOnlyRefusal(plan, scenarioActions(plan), 'p', true) ?? '', /is read-only/, text);
    }
  });
});

describe('admin and read-only refusals', () => {
  it('name the command and the fix', () => {
    const plan = planOf('### tune\nCONFIG SET maxmemory 1\n');
    assert.equal(
      adminRefusal(plan, scenarioActions(plan), false),
      '"tune" sends CONFIG SET, an admin command (CONFIG, MODULE, DEBUG, SHUTDOWN, ACL, REPLICAOF…), which a scenario file cannot send on its own: ' +
        'if you mean it, allow admin commands yourself with `rbench run --allow-admin` or the setting rbench.allowAdminCommands',
    );
    assert.equal(adminRefusal(planOf('### s\nGET k\n'), scenarioActions(planOf('### s\nGET k\n')), false), undefined);
  });

  it('a read-only profile names what the scenario does beyond reading and blocking', () => {
    const plan = planOf('### pop\nBLPOP l 0\nGET k\n');
    const actions = scenarioActions(plan);
    assert.equal(
      readOnlyRefusal(plan, actions, 'shared', true),
      'connection profile "shared" is read-only, but "pop" writes (BLPOP): run it against another target, or remove "readOnly" from the profile',
    );
    assert.equal(readOnlyRefusal(plan, actions, undefined, true), undefined);
    assert.equal(readOnlyRefusal(plan, actions, 'shared', undefined), undefined);
    assert.equal(readOnlyRefusal(plan, actions, 'shared', false), undefined);
  });
});

describe('destructiveRefusal', () => {
  const plan = planOf('cleanup *\n### wipe\nSET bench:__key__ v\nFLUSHALL\n');
  const actions = scenarioActions(plan);

  it('refuses, naming what and the fix, on any server but the throwaway one unless allowed', () => {
    assert.equal(
      destructiveRefusal(plan, actions, { allowDestructive: false, throwaway: false }),
      '"wipe" can destroy or rewrite keys that are not its own: FLUSHALL wipes every key of every database; `cleanup *` deletes keys beyond the scenario\'s own bench:*. ' +
        'A scenario file cannot do that on its own: if you mean it, allow it yourself with `rbench run --allow-destructive` or the user setting rbench.allowDestructiveCommands',
    );
    assert.equal(destructiveRefusal(plan, actions, { allowDestructive: true, throwaway: false }), undefined);
    assert.equal(destructiveRefusal(plan, actions, { allowDestructive: false, throwaway: true }), undefined);
    assert.equal(destructiveRefusal(plan, actions, { allowDestructive: true, throwaway: true }), undefined);
  });

  it('lets a scenario that touches its own keys only run', () => {
    const own = planOf('cleanup bench:*\n### s\nSET bench:__key__ v\n');
    assert.equal(destructiveRefusal(own, scenarioActions(own), { allowDestructive: false, throwaway: false }), undefined);
  });
});
