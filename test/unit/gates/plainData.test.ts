// The "untrusted data is data" gate, branch by branch: names, null-prototype records, own lookups,
// counters, JSON parsing and copies of settings.
import assert from 'node:assert/strict';
import {
  addCounts,
  addFirsts,
  dictionary,
  isPrototypeName,
  ownField,
  ownValue,
  parseJson,
  plainCopy,
  PROTO_KEY,
  recordFromMap,
} from '../../../src/gates/plainData';
import { GlobalsWatch } from './globals';

describe('gate: plain data (src/gates/plainData.ts)', () => {
  let watch: GlobalsWatch;
  beforeEach(() => (watch = new GlobalsWatch()));
  afterEach(() => {
    const changes = watch.changes();
    watch.restore();
    assert.deepEqual(changes, [], 'no test may change a shared prototype');
  });

  describe('isPrototypeName', () => {
    it('is true for __proto__, constructor, prototype and every member of Object.prototype', () => {
      assert.equal(PROTO_KEY, '__proto__');
      for (const name of ['__proto__', 'constructor', 'prototype', ...Object.getOwnPropertyNames(Object.prototype)]) {
        assert.equal(isPrototypeName(name), true, name);
      }
      for (const name of [
        'toString',
        'hasOwnProperty',
        'valueOf',
        'isPrototypeOf',
        'propertyIsEnumerable',
        'toLocaleString',
        '__defineGetter__',
        '__lookupSetter__',
      ]) {
        assert.equal(isPrototypeName(name), true, name);
      }
    });

    it('is false for data names, other spellings and names with spaces (property names are exact)', () => {
      for (const name of [
        '',
        'passwordEnv',
        'used_memory',
        'Constructor',
        'CONSTRUCTOR',
        '__PROTO__',
        ' constructor',
        '__proto__ ',
        'proto',
        '_proto_',
        'length',
        'name',
        'call',
        'apply',
      ]) {
        assert.equal(isPrototypeName(name), false, JSON.stringify(name));
      }
    });
  });

  describe('dictionary', () => {
    it('has no prototype and no keys, and a fresh one each time', () => {
      const a = dictionary<number>();
      assert.equal(Object.getPrototypeOf(a), null);
      assert.deepEqual(Object.keys(a), []);
      assert.equal(a.constructor, undefined);
      assert.equal(a.toString, undefined);
      assert.notEqual(dictionary(), a);
    });

    it('keeps __proto__ and constructor as own data properties', () => {
      const record = dictionary<number>();
      record[PROTO_KEY] = 1;
      record.constructor = 2 as never;
      assert.deepEqual(Object.keys(record), ['__proto__', 'constructor']);
      assert.equal(Object.getPrototypeOf(record), null);
      assert.equal(record[PROTO_KEY], 1);
    });
  });

  describe('ownValue', () => {
    it('returns an own value, also a falsy one', () => {
      assert.equal(ownValue({ a: 1 }, 'a'), 1);
      assert.equal(ownValue({ a: 0 }, 'a'), 0);
      assert.equal(ownValue({ a: '' }, 'a'), '');
      assert.equal(ownValue(Object.fromEntries([['constructor', 3]]) as Record<string, number>, 'constructor'), 3);
    });

    it('never returns what a prototype holds', () => {
      const inherited = Object.create({ passwordEnv: 'SECRET' }) as Record<string, string>;
      assert.equal(inherited.passwordEnv, 'SECRET', 'the prototype would answer a plain lookup');
      assert.equal(ownValue(inherited, 'passwordEnv'), undefined);
      const plain: Record<string, unknown> = {};
      for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) assert.equal(ownValue(plain, name), undefined, name);
    });

    it('is undefined for a missing key and a missing record (undefined or null)', () => {
      assert.equal(ownValue({ a: 1 }, 'b'), undefined);
      assert.equal(ownValue(undefined, 'a'), undefined);
      assert.equal(ownValue(null as unknown as undefined, 'a'), undefined);
    });
  });

  describe('ownField', () => {
    it('returns an own field, also a falsy one, and undefined for a missing one', () => {
      const target: { passwordEnv?: string; port?: number; tls?: boolean } = { passwordEnv: 'REDIS_PASSWORD', port: 0, tls: false };
      assert.equal(ownField(target, 'passwordEnv'), 'REDIS_PASSWORD');
      assert.equal(ownField(target, 'port'), 0);
      assert.equal(ownField(target, 'tls'), false);
      assert.equal(ownField({} as { passwordEnv?: string }, 'passwordEnv'), undefined);
    });

    it('never returns a field a prototype supplies (a polluted prototype cannot choose credentials)', () => {
      const target = Object.create({ passwordEnv: 'GITHUB_TOKEN', passwordSecret: 'stolen' }) as { passwordEnv?: string; passwordSecret?: string };
      assert.equal(target.passwordEnv, 'GITHUB_TOKEN', 'a plain lookup would answer');
      assert.equal(ownField(target, 'passwordEnv'), undefined);
      assert.equal(ownField(target, 'passwordSecret'), undefined);
      target.passwordSecret = 'own';
      assert.equal(ownField(target, 'passwordSecret'), 'own');
    });
  });

  describe('counters', () => {
    it('addCounts adds into existing counters and starts new ones at zero, whatever the name', () => {
      const counts = new Map<string, number>([['ERR', 2]]);
      const from = Object.fromEntries([
        ['ERR', 3],
        ['__proto__', 1],
        ['constructor', 4],
      ]) as Record<string, number>;
      addCounts(counts, from);
      addCounts(counts, { constructor: 1 } as Record<string, number>);
      assert.deepEqual(
        [...counts],
        [
          ['ERR', 5],
          ['__proto__', 1],
          ['constructor', 5],
        ],
      );
      assert.deepEqual(Object.keys(from), ['ERR', '__proto__', 'constructor'], 'the source is left as it was');
    });

    it('addFirsts keeps the first value of each name', () => {
      const into = new Map<string, string>([['ERR', 'first']]);
      addFirsts(into, { ERR: 'second', OOM: 'oom one' });
      addFirsts(into, { OOM: 'oom two', constructor: 'constructor oops' } as Record<string, string>);
      assert.deepEqual(
        [...into],
        [
          ['ERR', 'first'],
          ['OOM', 'oom one'],
          ['constructor', 'constructor oops'],
        ],
      );
    });

    it('recordFromMap makes own properties, __proto__ included, on a record without a prototype', () => {
      const record = recordFromMap(
        new Map<string, number>([
          ['__proto__', 1],
          ['constructor', 2],
          ['toString', 3],
        ]),
      );
      assert.deepEqual(Object.keys(record), ['__proto__', 'constructor', 'toString']);
      assert.equal(Object.getPrototypeOf(record), null);
      assert.equal(record.hasOwnProperty, undefined);
      assert.equal(record.constructor, 2 as unknown);
      assert.equal(Object.getOwnPropertyDescriptor(record, '__proto__')?.value, 1);
      assert.deepEqual({ ...recordFromMap(new Map()) }, {});
    });
  });

  describe('parseJson', () => {
    it('returns primitives as they are', () => {
      assert.equal(parseJson('1'), 1);
      assert.equal(parseJson('"x"'), 'x');
      assert.equal(parseJson('null'), null);
      assert.equal(parseJson('true'), true);
    });

    it('builds objects without prototypes at every depth, arrays stay arrays', () => {
      const parsed = parseJson('{"a":{"b":[{"c":1},null,2,[{"d":{}}]]},"n":null}') as { a: { b: [{ c: number }, null, number, [{ d: object }]] }; n: null };
      assert.equal(Object.getPrototypeOf(parsed), null);
      assert.equal(Object.getPrototypeOf(parsed.a), null);
      assert.equal(Array.isArray(parsed.a.b), true);
      assert.equal(Object.getPrototypeOf(parsed.a.b), Array.prototype);
      assert.equal(Object.getPrototypeOf(parsed.a.b[0]), null);
      assert.equal(Object.getPrototypeOf(parsed.a.b[3][0]), null);
      assert.equal(Object.getPrototypeOf(parsed.a.b[3][0].d), null);
      assert.equal(parsed.a.b[0].c, 1);
      assert.equal(parsed.n, null);
      assert.equal(JSON.stringify(parsed), '{"a":{"b":[{"c":1},null,2,[{"d":{}}]]},"n":null}');
    });

    it('drops __proto__ keys at every depth and keeps the other prototype names as data', () => {
      const text =
        '{"__proto__":{"passwordEnv":"X"},"constructor":3,"toString":"t","list":[{"__proto__":{"polluted":1},"keep":1}],"deep":{"a":{"__proto__":[1]}}}';
      const parsed = parseJson(text) as Record<string, unknown> & { list: Record<string, unknown>[]; deep: { a: Record<string, unknown> } };
      assert.equal(Object.hasOwn(parsed, '__proto__'), false);
      assert.equal(parsed.passwordEnv, undefined);
      assert.equal(parsed.constructor, 3);
      assert.equal(parsed.toString, 't');
      assert.deepEqual(Object.keys(parsed.list[0]), ['keep']);
      assert.equal(parsed.list[0].polluted, undefined);
      assert.deepEqual(Object.keys(parsed.deep.a), []);
      assert.equal(JSON.stringify(parsed), '{"constructor":3,"toString":"t","list":[{"keep":1}],"deep":{"a":{}}}');
    });

    it('throws JSON.parse’s SyntaxError for text that is not JSON', () => {
      assert.throws(() => parseJson('{"a":'), SyntaxError);
      assert.throws(() => parseJson(''), SyntaxError);
    });

    it('handles nesting deeper than a recursive walk could', () => {
      const depth = 20_000;
      const parsed = parseJson('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)) as Record<string, unknown>;
      let at: unknown = parsed;
      for (let i = 0; i < depth; i++) {
        assert.equal(Object.getPrototypeOf(at), null);
        at = (at as Record<string, unknown>).a;
      }
      assert.equal(at, 1);
    });
  });

  describe('plainCopy', () => {
    it('copies own enumerable properties only, into records without prototypes', () => {
      const profile = Object.create({ passwordEnv: 'GITHUB_TOKEN' }) as Record<string, unknown>;
      profile.url = 'redis://h:1';
      profile.tls = { ca: 'ca.pem' };
      Object.defineProperty(profile, 'hidden', { value: 'x', enumerable: false });
      const copy = plainCopy({ prod: profile }) as Record<string, Record<string, unknown>>;
      assert.equal(Object.getPrototypeOf(copy), null);
      assert.equal(Object.getPrototypeOf(copy.prod), null);
      assert.equal(Object.getPrototypeOf(copy.prod.tls), null);
      assert.deepEqual(Object.keys(copy.prod), ['url', 'tls']);
      assert.equal(copy.prod.passwordEnv, undefined);
      assert.notEqual(copy.prod.tls, profile.tls, 'a copy, not the original');
    });

    it('drops an own __proto__ key (settings.json can hold one)', () => {
      const settings = JSON.parse('{"p":{"url":"redis://h:1","__proto__":{"passwordEnv":"X"}}}') as unknown;
      const copy = plainCopy(settings) as Record<string, Record<string, unknown>>;
      assert.deepEqual(Object.keys(copy.p), ['url']);
      assert.equal(copy.p.passwordEnv, undefined);
    });

    it('copies arrays and primitives; null for what JSON cannot hold, undefined for undefined and functions', () => {
      assert.deepEqual(plainCopy([1, 'a', null]), [1, 'a', null]);
      assert.equal(plainCopy('text'), 'text');
      assert.equal(plainCopy(0), 0);
      assert.equal(plainCopy(undefined), undefined);
      assert.equal(
        plainCopy(() => 1),
        undefined,
      );
      assert.equal(plainCopy(1n), null);
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      assert.equal(plainCopy(cycle), null);
    });
  });
});
