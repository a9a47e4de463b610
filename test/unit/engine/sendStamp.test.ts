// Issue 43: the send stamp `__now__` — the sender's CLOCK_MONOTONIC time in microseconds, 16 digits, written per
// request inside an argument, read back by a receiver (`stampAt`). The stamps a load wrote (in its worker threads,
// on both client paths) lie between this thread's clock before and after the run, in order for one client: the
// clock is one for every thread of the machine. The checker knows the placeholder (hover, completion, check).
import assert from 'node:assert/strict';
import type { ClientPath } from '../../../src/scenario/plan';
import { useRedisServer, withRedis } from '../../helpers/redis';
import { check, clean, errors } from '../scenario/helpers';
import { monotonicMicros, runLoad, SEND_STAMP_DIGITS, stampAge, stampAt } from '../../../src/engine';
import { CompiledCommand } from '../../../src/engine/requests/templateEncoder';
import { Random } from '../../../src/engine/requests/random';
import { completions, hover } from '../../../src/scenario/features';
import { connectionTo } from './plans';

describe('the send stamp __now__ (issue 43)', () => {
  it('stampAt reads 16 digits at an offset and refuses anything else', () => {
    assert.equal(stampAt('0000001234567890:payload'), 1234567890n);
    assert.equal(stampAt(Buffer.from('xx9999999999999999'), 2), 9999999999999999n);
    assert.equal(stampAt('000000123456789'), undefined, 'fifteen digits');
    assert.equal(stampAt('00000012345678x0'), undefined);
    assert.equal(stampAt('hello world, not a stamp'), undefined);
    assert.equal(stampAge('0000000000001000', 0, 1500), 500);
    assert.equal(stampAge('nope', 0, 1500), undefined);
  });

  it('the encoder writes the clock of the moment, 16 digits, inside an argument beside a value', () => {
    const command = check('### t\nSET k __now__:__value__\n').scenarios[0].points[0].phases[0].tests[0].commands[0].command;
    const compiled = new CompiledCommand(command, 0, { keyWidth: 3, client: 0, connections: 1 });
    assert.equal(compiled.hasNow, true);
    const buffer = Buffer.alloc(compiled.encodedLength(4));
    const before = monotonicMicros();
    const end = compiled.encodeInto(buffer, 0, 4, 0, new Random(1), 10);
    const after = monotonicMicros();
    const args = buffer.toString('latin1', 0, end).split('\r\n');
    // *3 $3 SET $1 k $21 <16 digits>:xxxx
    assert.equal(args[5], `$${SEND_STAMP_DIGITS + 1 + 4}`);
    const stamp = Number(stampAt(args[6]));
    assert.ok(stamp >= before && stamp <= after, `${before} ≤ ${stamp} ≤ ${after}`);
    assert.match(args[6], /^\d{16}:xxxx$/);
  });

  it('the checker knows it: check clean, hover documents it, completion offers it', () => {
    clean('### t\nrequests 10\nPUBLISH chat:1 __now__:__value__\n');
    const line = 'PUBLISH chat:1 __now__';
    const found = hover(`### t\n${line}\n`, { line: 1, character: line.length - 3 });
    assert.match(found?.contents ?? '', /send stamp/);
    assert.ok(completions('GET ', { line: 0, character: 4 }).some((item) => item.label === '__now__'));
  });
});

describe('the send stamp on a real server (issue 43)', function () {
  this.timeout(90_000);
  const server = useRedisServer();

  for (const client of ['fast', 'ioredis'] as ClientPath[]) {
    it(`stamps written by the load's worker thread lie between this thread's clock before and after, in order (${client} client)`, async () => {
      await withRedis(server(), (redis) => redis.flushall());
      const resolved = check('### t\nwarmup 0s\nclients 1\nrequests 300\nvalue 8\nRPUSH stamps __now__:__value__\n');
      assert.deepEqual(errors(resolved), []);
      const phase = resolved.scenarios[0].points[0].phases[0];
      const before = monotonicMicros();
      const result = await runLoad({ phase, test: phase.tests[0], connection: connectionTo(server()), client, seed: 1 });
      const after = monotonicMicros();
      assert.equal(result.status, 'complete', result.error);
      const stamps = await withRedis(server(), (redis) => redis.lrange('stamps', 0, -1));
      assert.equal(stamps.length, 300);
      const micros = stamps.map((value) => Number(stampAt(value)));
      assert.ok(
        micros.every((stamp) => stamp >= before && stamp <= after),
        `stamps ${micros[0]}…${micros[micros.length - 1]} outside ${before}…${after}`,
      );
      assert.ok(
        micros.every((stamp, i) => i === 0 || stamp >= micros[i - 1]),
        'one client sends in order',
      );
      assert.ok(new Set(micros).size > 1, 'a stamp per request, not one for the run');
    });
  }
});
