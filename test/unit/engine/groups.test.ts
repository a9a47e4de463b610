// Command groups and MULTI … EXEC transactions as one request unit, against a real redis-server.
import assert from 'node:assert/strict';
import { runLoad } from '../../../src/engine';
import type { ClientPath } from '../../../src/scenario/plan';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import { groupTest, loadRequest } from './plans';

describe('command groups against a real redis-server', function () {
  this.timeout(30_000);
  const server = useRedisServer();

  beforeEach(async () => {
    await withRedis(server(), async (redis) => {
      await redis.flushall();
      await redis.config('RESETSTAT');
    });
  });

  for (const client of ['fast', 'ioredis'] as ClientPath[]) {
    describe(`${client} client`, () => {
      it("sends each unit's commands on one key: SET, GET, DEL leave nothing, each command counted as INFO commandstats says", async () => {
        const units = 3001;
        const result = await runLoad(
          loadRequest(server(), {
            test: groupTest('set-get-del', ['SET k:__key__ __value__', 'GET k:__key__', 'DEL k:__key__']),
            load: { clients: 5, pipeline: 4, requests: units },
            client,
          }),
        );
        assert.equal(result.status, 'complete', result.error);
        assert.equal(result.test, 'set-get-del');
        assert.equal(result.total.requests, units, 'a request is a unit');
        assert.equal(result.total.latency.count, units, 'one latency per unit');
        assert.equal(result.total.errors, 0);
        assert.deepEqual(
          result.commands.map((c) => [c.command, c.requests, c.latency.count]),
          [
            ['SET', units, units],
            ['GET', units, units],
            ['DEL', units, units],
          ],
        );
        await withRedis(server(), async (redis) => {
          for (const name of ['set', 'get', 'del']) assert.equal(await commandCalls(redis, name), units, name);
          assert.equal(await redis.dbsize(), 0, 'every DEL removed the key its unit SET');
        });
        // A unit waits for its last reply: never faster than any of its commands.
        for (const row of result.commands)
          assert.ok(result.total.latency.maxUs >= row.latency.maxUs && result.total.latency.minUs >= row.latency.minUs, row.command);
      });

      it('gives every `__value__` of a unit the same bytes (fixed and varying sizes)', async () => {
        for (const value of [{ kind: 'fixed', size: 40 } as const, { kind: 'range', min: 5, max: 60 } as const]) {
          await withRedis(server(), (redis) => redis.flushall());
          const result = await runLoad(
            loadRequest(server(), {
              client,
              test: groupTest('pair', ['SET a:__key__ __value__', 'SET b:__key__ __value__']),
              keys: { space: 50, distribution: 'sequential' },
              value,
              load: { clients: 2, pipeline: 3, requests: 50 },
            }),
          );
          assert.equal(result.total.errors, 0);
          await withRedis(server(), async (redis) => {
            const sizes = new Set<number>();
            for (let key = 0; key < 50; key++) {
              const name = String(key).padStart(12, '0');
              const [a, b] = await Promise.all([redis.getBuffer(`a:${name}`), redis.getBuffer(`b:${name}`)]);
              assert.ok(a && b && a.equals(b), `${value.kind}: key ${key} has the same value twice`);
              sizes.add(a.length);
            }
            if (value.kind === 'range') assert.ok(sizes.size > 5, `sizes vary: ${[...sizes].join(',')}`);
          });
        }
      });

      it('runs MULTI … EXEC as one unit with per-unit and per-command latency', async () => {
        const units = 2000;
        const result = await runLoad(
          loadRequest(server(), {
            test: groupTest('MULTI+SET+INCR+EXEC', ['MULTI', 'SET k:__key__ __value__', 'INCR counter', 'EXEC']),
            load: { clients: 4, pipeline: 3, requests: units },
            client,
          }),
        );
        assert.equal(result.status, 'complete', result.error);
        assert.equal(result.total.requests, units);
        assert.equal(result.total.errors, 0);
        assert.ok(result.total.latency.count === units && result.total.latency.p50Us > 0, JSON.stringify(result.total.latency));
        assert.deepEqual(
          result.commands.map((c) => [c.command, c.requests, c.errors]),
          ['MULTI', 'SET', 'INCR', 'EXEC'].map((name) => [name, units, 0]),
        );
        assert.ok(result.timeline.reduce((sum, s) => sum + s.errors, 0) === 0);
        await withRedis(server(), async (redis) => {
          for (const name of ['multi', 'set', 'incr', 'exec']) assert.equal(await commandCalls(redis, name), units, name);
          assert.equal(Number(await redis.get('counter')), units, 'every transaction ran');
        });
      });

      it('counts a transaction discarded with EXECABORT as one error unit', async () => {
        const units = 500;
        const result = await runLoad(
          loadRequest(server(), { test: groupTest('bad', ['MULTI', 'INCR a b', 'EXEC']), load: { clients: 2, pipeline: 2, requests: units }, client }),
        );
        assert.equal(result.total.requests, units);
        assert.equal(result.total.errors, units, 'each unit once, however many of its replies failed');
        assert.equal(result.status, 'complete-with-errors');
        const exec = result.commands.find((c) => c.command === 'EXEC')!;
        assert.equal(exec.errorsByKind.EXECABORT, units, JSON.stringify(exec.errorsByKind));
        assert.equal(result.commands.find((c) => c.command === 'INCR')!.errors, units);
        assert.equal(result.commands.find((c) => c.command === 'MULTI')!.errors, 0);
      });

      it("counts an error inside EXEC's reply, and a nil EXEC (WATCH), as error units", async () => {
        const units = 400;
        const wrongType = await runLoad(
          loadRequest(server(), {
            test: groupTest('wrongtype', ['MULTI', 'SET k v', 'LPUSH k x', 'EXEC']),
            load: { clients: 2, pipeline: 2, requests: units },
            client,
          }),
        );
        assert.equal(wrongType.total.errors, units);
        assert.equal(wrongType.total.errorsByKind.WRONGTYPE, units, JSON.stringify(wrongType.total.errorsByKind));
        assert.equal(wrongType.commands.find((c) => c.command === 'LPUSH')!.errors, 0, 'LPUSH was only queued');

        // The client's own SET after WATCH touches the watched key: EXEC answers nil every time.
        const watched = await runLoad(
          loadRequest(server(), {
            test: groupTest('watched', ['WATCH w', 'SET w 1', 'MULTI', 'GET w', 'EXEC']),
            load: { clients: 2, pipeline: 2, requests: units },
            client,
          }),
        );
        assert.equal(watched.total.requests, units);
        assert.equal(watched.total.errors, units);
        assert.equal(watched.total.errorsByKind['EXEC-NIL'], units, JSON.stringify(watched.total.errorsByKind));
        assert.equal(watched.commands.find((c) => c.command === 'GET')!.errors, 0, 'a queued GET is not an error');

        // Without the SET, nothing touches the key: no EXEC is nil, and a nil GET reply is no error.
        const clean = await runLoad(
          loadRequest(server(), {
            test: groupTest('clean', ['WATCH w2', 'MULTI', 'GET w2', 'EXEC', 'GET missing']),
            load: { clients: 2, pipeline: 2, requests: units },
            client,
          }),
        );
        assert.equal(clean.total.errors, 0, JSON.stringify(clean.total.errorsByKind));
      });

      it('ends a group load on a frozen server after stall-timeout: unanswered units (and commands) as TIMEOUT errors, each unit once', async () => {
        let frozen = false;
        try {
          const result = await runLoad(
            loadRequest(server(), {
              client,
              test: groupTest('tx', ['MULTI', 'SET k:__key__ __value__', 'EXEC']),
              load: { clients: 3, pipeline: 2, requests: 5_000_000, stallTimeoutMs: 1500 },
            }),
            {
              onTick: (tick) => {
                if (frozen || !tick.lastSecond) return;
                frozen = true;
                process.kill(server().pid, 'SIGSTOP');
              },
            },
          );
          assert.ok(frozen, 'the server was frozen during the load');
          assert.equal(result.status, 'complete-with-errors');
          assert.equal(result.windowKind, 'first-send-to-stall');
          const timedOut = result.total.errorsByKind.TIMEOUT;
          // Closed loop: each client had one batch of 2 units in flight (some possibly half answered).
          assert.ok(timedOut >= 1 && timedOut <= 6, JSON.stringify(result.total.errorsByKind));
          assert.match(result.errorStatusReason ?? '', new RegExp(`with ${timedOut} requests outstanding`));
          assert.equal(result.total.latency.count, result.total.requests, 'timed-out units are in the histogram');
          const commandTimeouts = result.commands.reduce((sum, row) => sum + (row.errorsByKind.TIMEOUT ?? 0), 0);
          assert.ok(commandTimeouts >= timedOut, `commands ${commandTimeouts}, units ${timedOut}`);
        } finally {
          if (frozen) process.kill(server().pid, 'SIGCONT');
        }
      });

      it('paces units in the open loop: every unit and command counted', async () => {
        const result = await runLoad(
          loadRequest(server(), {
            test: groupTest('tx', ['MULTI', 'INCR c:__key__', 'EXEC']),
            load: { clients: 3, pipeline: 2, durationMs: 1000, rate: 2000 },
            client,
          }),
        );
        assert.equal(result.status, 'complete', result.error);
        const units = result.total.requests;
        assert.ok(units > 1000 && units <= 2200, `units ${units}`);
        assert.equal(result.total.errors, 0);
        for (const row of result.commands) assert.equal(row.requests, units, row.command);
        await withRedis(server(), async (redis) => assert.equal(await commandCalls(redis, 'exec'), units));
      });
    });
  }
});
