// Issues 22 and 23: the command table as one interface. Arity from the table ("GET takes a key", an error);
// a command the built-in table does not know is a warning offline and an error against a server's table;
// key positions from key specs (numkeys, keywords) for the key-size column and the cluster rule; value hovers.
import assert from 'node:assert/strict';
import { NOT_BUILT_IN } from '../../../src/scenario/commandCheck';
import { BUILT_IN_TABLE, serverCommandTable, type CommandSpec } from '../../../src/scenario/commandTable';
import { classifyCommand, keyPositions } from '../../../src/scenario/commands';
import { keySpecPositions, type KeySpec } from '../../../src/scenario/keySpecs';
import { crossSlotReason } from '../../../src/scenario/clusterKeys';
import { hover } from '../../../src/scenario/features';
import { testKeyLength } from '../../../src/results/keyLength';
import { errorCount } from '../../../src/scenario';
import { check } from './helpers';

const keynum = (keyNumIndex: number, firstKey: number): KeySpec => ({
  flags: [],
  begin: { kind: 'index', index: 1 },
  find: { kind: 'keynum', keyNumIndex, firstKey, keyStep: 1 },
});

/** A module command as a Redis 7 server describes it (FT.SEARCH of RediSearch 1.2). */
const FT_SEARCH: CommandSpec = {
  name: 'ft.search',
  arity: -1,
  flags: ['readonly', 'module'],
  categories: [],
  firstKey: 1,
  lastKey: 1,
  step: 1,
  keySpecs: [{ flags: ['rw'], begin: { kind: 'index', index: 1 }, find: { kind: 'range', lastKey: 0, keyStep: 1, limit: 0 } }],
};
const MY_UNION: CommandSpec = {
  name: 'my.union',
  arity: -3,
  flags: ['readonly', 'module', 'movablekeys'],
  categories: [],
  firstKey: 0,
  lastKey: 0,
  step: 0,
  keySpecs: [keynum(0, 1)],
};
const MY_ADMIN: CommandSpec = { name: 'my.admin', arity: -1, flags: ['admin', 'module'], categories: [], firstKey: 0, lastKey: 0, step: 0 };
const SERVER = serverCommandTable('the server redis://127.0.0.1:6379', [
  FT_SEARCH,
  MY_UNION,
  MY_ADMIN,
  { ...BUILT_IN_TABLE.spec('get')!, categories: ['read'] },
]);

describe('the command table', () => {
  describe('arity (issue 22, seen 9)', () => {
    it('a bare GET is an error with a plain message, counted by check', () => {
      const resolved = check('### s\nGET\n');
      const [problem] = resolved.diagnostics;
      assert.equal(problem?.severity, 'error');
      assert.equal(problem.message, 'GET takes a key; this line gives none');
      assert.deepEqual(problem.range.start, { line: 1, character: 0 });
      assert.equal(errorCount(resolved.diagnostics), 1);
    });

    it('too many, too few and subcommands: each named', () => {
      const message = (text: string) => check(`### s\n${text}\n`).diagnostics.map((d) => d.message);
      assert.deepEqual(message('GET a b'), ['GET takes a key; this line gives 2 arguments']);
      assert.deepEqual(message('SET k'), ['SET takes a key and at least 1 more argument; this line gives 1 argument']);
      assert.deepEqual(message('DEL'), ['DEL takes at least one key; this line gives none']);
      assert.deepEqual(message('CONFIG GET'), ['CONFIG GET takes at least 1 argument; this line gives none']);
      assert.deepEqual(message('SET k v'), []);
      assert.deepEqual(message('MSET (k:__key__ v)*3'), []);
      assert.deepEqual(message('PING'), []);
    });

    it("against a server's table, the server's arity and its commands apply", () => {
      const data = { origin: SERVER.origin, specs: [FT_SEARCH, MY_UNION] };
      const resolved = check('### s\nMY.UNION 1\nFT.SEARCH idx hello\nGET k\n', { commandTable: data });
      const messages = resolved.diagnostics.map((d) => `${d.severity} ${d.range.start.line}: ${d.message}`);
      assert.equal(messages[0], 'error 1: MY.UNION takes at least 2 arguments; this line gives 1 argument');
      // GET is not in that table: the server does not know it.
      assert.match(messages[1], /^error 3: the server redis:\/\/127\.0\.0\.1:6379 does not know `GET`/);
      assert.equal(messages.length, 2, messages.join('\n'));
    });
  });

  describe('commands the built-in table does not know (issue 23)', () => {
    it('are a warning offline, not an error, and reach the plan', () => {
      const resolved = check('### s\nFT.SEARCH idx "hello world"\nJSON.GET doc $\nVADD vs VALUES 2 1 2 el\n');
      assert.deepEqual(
        resolved.diagnostics.map((d) => [d.severity, d.message]),
        [
          ['warning', `\`FT.SEARCH\` ${NOT_BUILT_IN}`],
          ['warning', `\`JSON.GET\` ${NOT_BUILT_IN}`],
        ],
      );
      assert.equal(errorCount(resolved.diagnostics), 0);
      const names = resolved.scenarios[0].points[0].phases[0].tests.map((test) => test.commands[0].command.name);
      assert.deepEqual(names, ['FT.SEARCH', 'JSON.GET', 'VADD']);
    });

    it('an upper-case typo is still told its likely spelling; a lower-case word stays an error', () => {
      const [typo] = check('### s\nGTE k\n').diagnostics;
      assert.equal(typo.severity, 'warning');
      assert.match(typo.message, /did you mean `GET`\?$/);
      assert.equal(check('### s\nnope k\n').diagnostics[0].severity, 'error');
      assert.equal(check('### s\nCLIENTS 4\nGET k\n').diagnostics[0].message, 'settings are written in lower case — write `clients`');
    });

    it('classes: unknown to a table is admin, dangerous and write; the server says what a module command is', () => {
      assert.deepEqual([...classifyCommand('FT.SEARCH')].sort(), ['admin', 'dangerous', 'write']);
      assert.deepEqual([...classifyCommand('FT.SEARCH', undefined, SERVER)], ['read']);
      assert.ok(classifyCommand('MY.ADMIN', undefined, SERVER).has('admin'));
      assert.deepEqual([...classifyCommand('GET', undefined, SERVER)], ['read']);
    });
  });

  describe('key positions from key specs', () => {
    it('numkeys (keynum) and keywords, as the server finds them', () => {
      // SINTERCARD numkeys key [key …] [LIMIT limit]
      assert.deepEqual(keySpecPositions([keynum(0, 1)], ['sintercard', '2', 'a', 'b', 'LIMIT', '5']), [2, 3]);
      assert.deepEqual(keySpecPositions([keynum(0, 1)], ['sintercard', '0']), []);
      // A computed numkeys could make any later argument a key.
      assert.equal(keySpecPositions([keynum(0, 1)], ['sintercard', undefined, 'a']), undefined);
      const streams: KeySpec = {
        flags: [],
        begin: { kind: 'keyword', keyword: 'STREAMS', startFrom: 1 },
        find: { kind: 'range', lastKey: -1, keyStep: 1, limit: 2 },
      };
      assert.deepEqual(keySpecPositions([streams], ['xread', 'COUNT', '2', 'STREAMS', 's1', 's2', '0', '0']), [4, 5]);
      assert.deepEqual(keySpecPositions([{ ...streams, flags: ['incomplete'] }], ['xread']), 'incomplete');
    });

    it("a module command's keys come from the server's specs; the built-in table does not know them", () => {
      const args = [['idx'], ['hello']];
      assert.equal(keyPositions('FT.SEARCH', args), undefined);
      assert.deepEqual(keyPositions('FT.SEARCH', args, SERVER), [0]);
      assert.deepEqual(keyPositions('MY.UNION', [['2'], ['{a}1'], ['{a}2']], SERVER), [1, 2]);
      const command = { name: 'MY.UNION', label: 'MY.UNION', args: [['2'], ['a'], ['b']] };
      assert.equal(crossSlotReason(command), undefined, 'the built-in table cannot tell');
      assert.match(crossSlotReason(command, SERVER) ?? '', /have no \{hash tag\}/);
    });
  });

  describe('the key-size column (issue 22, seen 10)', () => {
    const keyLength = (line: string) => {
      const plan = check(`### s\nkeys 1000\n${line}\n`).scenarios[0];
      const phase = plan.points[0].phases[0];
      return testKeyLength(phase, phase.tests[0]);
    };

    it('EVAL "…" 0 has no key; SINTERCARD 2 big:1 big:2 has keys of 5 bytes', () => {
      assert.equal(keyLength('EVAL "return redis.call(\'PING\')" 0'), 0);
      assert.equal(keyLength('SINTERCARD 2 big:1 big:2'), 5);
      assert.equal(keyLength('EVAL "return 1" 1 user:__key__'), 5 + 12);
      assert.equal(keyLength('HSET h field:__key__ v'), 1);
      assert.equal(keyLength('GET rbench:lists:one'), 16);
    });
  });

  describe('hover on setting values (issue 22, seen 10)', () => {
    const hoverAt = (text: string, word: string) => {
      const line = text.split('\n').findIndex((candidate) => candidate.includes(word));
      return hover(text, { line, character: text.split('\n')[line].indexOf(word) + 1 })?.contents;
    };

    it('50k, uniform, 2ms, 1KB and 20k/s say what they are', () => {
      assert.equal(hoverAt('### s\nrequests 50k\nGET k\n', '50k'), '`50k` = 50,000');
      assert.match(
        hoverAt('### s\nkeys 1M uniform\nGET k\n', 'uniform') ?? '',
        /^\*\*uniform\*\* — key distribution: every key of the space is equally likely/,
      );
      assert.equal(hoverAt('### s\nkeys 1M uniform\nGET k\n', '1M'), '`1M` = 1,000,000');
      assert.equal(hoverAt('### s\nduration 2ms\nGET k\n', '2ms'), '`2ms` = 2 ms');
      assert.equal(hoverAt('### s\nvalue 1KB\nGET k\n', '1KB'), '`1KB` = 1,024 bytes');
      assert.equal(hoverAt('### s\nrate 20k/s\nGET k\n', '20k/s'), '`20k/s` = 20,000 requests per second');
      assert.match(hoverAt('### s\nclient ioredis\nGET k\n', 'ioredis') ?? '', /^\*\*ioredis\*\* — one of `fast`, `ioredis`/);
    });

    it("a module command's hover comes from the server's table: summary, arity and since", () => {
      const table = { origin: SERVER.origin, specs: [{ ...FT_SEARCH, summary: 'Searches the index', since: '1.0.0' }] };
      const contents = hover('### s\nFT.SEARCH idx hello\n', { line: 1, character: 2 }, { commandTable: table })?.contents ?? '';
      assert.match(contents, /^\*\*FT\.SEARCH\*\* — Searches the index/);
      assert.match(contents, /Arity -1: any number of arguments/);
      assert.match(contents, /since 1\.0\.0/);
      assert.match(contents, /As described by the server redis:\/\/127\.0\.0\.1:6379/);
      assert.equal(hover('### s\nFT.SEARCH idx hello\n', { line: 1, character: 2 }), undefined, 'the built-in table knows nothing of it');
    });
  });
});

describe('the built-in command table, each spec made when first asked for (issue 46: ~7 ms of every start)', () => {
  it('knows every listed command in any case, the same spec each time, with its key specs; no inherited name is a command', () => {
    const names = BUILT_IN_TABLE.names();
    assert.ok(names.length > 200 && names.includes('set') && names.includes('xreadgroup'));
    for (const name of names) {
      const spec = BUILT_IN_TABLE.spec(name);
      assert.equal(spec?.name, name);
      assert.equal(BUILT_IN_TABLE.spec(name.toUpperCase()), spec);
    }
    assert.deepEqual(BUILT_IN_TABLE.spec('set')?.keySpecs?.[0].begin, { kind: 'index', index: 1 });
    assert.ok(BUILT_IN_TABLE.spec('xgroup')?.subcommands?.some((sub) => sub.name === 'destroy' && sub.keySpecs !== undefined));
    for (const hostile of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      assert.equal(BUILT_IN_TABLE.spec(hostile), undefined, hostile);
      assert.equal(BUILT_IN_TABLE.keyIndexes(hostile, ['a']), undefined, hostile);
    }
  });
});
