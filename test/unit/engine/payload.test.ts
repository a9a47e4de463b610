import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import Redis from 'ioredis';
import { runLoad } from '../../../src/engine';
import { Payload } from '../../../src/engine/requests/payload';
import type { ValueFill } from '../../../src/scenario/plan';
import { useRedisServer } from '../../helpers/redis';
import { loadRequest, singleTest } from './plans';
import { clean } from '../scenario/helpers';

describe('value payloads', function () {
  this.timeout(30_000);
  const server = useRedisServer();

  async function storedValues(fill: ValueFill | undefined, client: 'fast' | 'ioredis', size = 1000): Promise<Buffer[]> {
    const request = loadRequest(server(), {
      client,
      test: singleTest('SET p:__key__ __value__'),
      keys: { space: 20, distribution: 'sequential' },
      value: { kind: 'fixed', size },
      load: { clients: 2, pipeline: 4, requests: 20 },
      seed: 7,
    });
    if (fill) request.phase.valueFill = fill;
    const result = await runLoad(request);
    assert.equal(result.total.errors, 0);
    const redis = new Redis({ host: server().host, port: server().port });
    try {
      const keys = await redis.keys('p:*');
      assert.equal(keys.length, 20);
      return Promise.all(keys.map(async (key) => (await redis.getBuffer(key))!));
    } finally {
      await redis.flushall();
      redis.disconnect();
    }
  }

  for (const client of ['fast', 'ioredis'] as const) {
    it(`${client}: values are random and incompressible by default`, async () => {
      const values = await storedValues(undefined, client);
      for (const value of values) {
        assert.equal(value.length, 1000);
        assert.ok(deflateSync(value).length >= 990, `compresses to ${deflateSync(value).length} bytes`);
        assert.ok(new Set(value).size > 200, 'uses the whole byte range');
      }
    });

    it(`${client}: \`value-fill redis-benchmark\` sends redis-benchmark 7's bytes, \`value-fill x\` its old fill`, async () => {
      let state = 1234;
      const expected = Buffer.alloc(1000);
      for (let i = 0; i < expected.length; i++) {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        expected[i] = 48 + ((state >>> 16) & 63);
      }
      for (const value of await storedValues({ kind: 'redis-benchmark' }, client)) assert.deepEqual(value, expected);
      for (const value of await storedValues({ kind: 'literal', text: 'x' }, client)) assert.equal(value.toString(), 'x'.repeat(1000));
      for (const value of await storedValues({ kind: 'literal', text: 'abc' }, client, 7)) assert.equal(value.toString(), 'abcabca');
    });
  }

  it('generates the bytes once and slices them; the same seed gives the same bytes', () => {
    const a = new Payload({ kind: 'random' }, 42, 100);
    const b = new Payload({ kind: 'random' }, 42, 100);
    const c = new Payload({ kind: 'random' }, 43, 100);
    assert.deepEqual(a.bytes, b.bytes);
    assert.notDeepEqual(a.bytes, c.bytes);
    const first = Buffer.from(a.next(100));
    const second = Buffer.from(a.next(100));
    assert.notDeepEqual(first, second, 'successive values start at different offsets');
    assert.equal(a.next(100).buffer, a.bytes.buffer, 'a view, not a copy');
  });

  it('resolves `value-fill` from a scenario', () => {
    const phase = (text: string) => clean(text).scenarios[0].points[0].phases[0];
    assert.equal(phase('### s\nSET k __value__\n').valueFill, undefined);
    assert.deepEqual(phase('### s\nvalue-fill redis-benchmark\nSET k __value__\n').valueFill, { kind: 'redis-benchmark' });
    assert.deepEqual(phase('### s\nvalue-fill x\nSET k __value__\n').valueFill, { kind: 'literal', text: 'x' });
  });
});
