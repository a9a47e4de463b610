// Reply-driven commands (issue 43) against a real redis-server: a SCAN cursor loop follows full passes, each key
// seen once a pass; EVALSHA runs the script the run loaded once, and a SCRIPT FLUSH mid-run is mended by one reload
// per NOSCRIPT, with no error; XACK acks exactly the IDs its XREADGROUP returned. Counts come from the server.
import assert from 'node:assert/strict';
import { runLoad } from '../../../src/engine';
import type { CommandTemplate, TestPlan } from '../../../src/scenario/plan';
import { argTemplate } from '../../../src/scenario/arguments';
import { commandCalls, useRedisServer, waitForCalls, withRedis } from '../../helpers/redis';
import { loadRequest } from './plans';

const KEYS = 1000;

/** A command whose arguments are read as the scenario reader does (placeholders, `__sha(…)__`). */
function command(name: string, args: string[]): CommandTemplate {
  return { name, label: name, args: args.map(argTemplate) };
}

function single(name: string, args: string[]): TestPlan {
  return { name, commands: [{ weight: 1, command: command(name, args) }] };
}

/**
 * The calls one full pass takes, once two passes in a row agree and return every element once: a table still being
 * rehashed (just after the writes) can take more calls and return an element twice. `step` 2: field/value pairs.
 */
async function settledPass(scan: (cursor: string) => Promise<[string, string[]]>, step = 1): Promise<number> {
  let previous = -1;
  for (let attempt = 0; attempt < 100; attempt++) {
    let calls = 0;
    const seen: string[] = [];
    let cursor = '0';
    do {
      const [next, items] = await scan(cursor);
      for (let i = 0; i < items.length; i += step) seen.push(items[i]);
      cursor = next;
      calls++;
    } while (cursor !== '0');
    if (seen.length === KEYS && new Set(seen).size === KEYS && calls === previous) return calls;
    previous = calls;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the table never settled: two passes in a row took different calls');
}

async function resetStats(server: { host: string; port: number }): Promise<void> {
  await withRedis(server, (redis) => redis.config('RESETSTAT'));
}

describe('reply-driven commands (real server)', function () {
  this.timeout(90_000);
  const server = useRedisServer();

  describe('SCAN __cursor__', () => {
    let callsPerPass = 0;

    before(async () => {
      await withRedis(server(), async (redis) => {
        await redis.flushall();
        const batch = redis.pipeline();
        for (let i = 0; i < KEYS; i++) batch.set(`k:${i}`, 'v');
        await batch.exec();
        // The calls a full pass takes with COUNT 100, found as any client finds them (once the table is rehashed).
        callsPerPass = await settledPass((cursor) => redis.scan(cursor, 'MATCH', 'k:*', 'COUNT', 100));
      });
      assert.ok(callsPerPass > 1, 'a pass takes several calls');
    });

    it('one connection follows the cursor: three passes return every key once a pass, and the server ran one SCAN a request', async () => {
      await resetStats(server());
      const requests = 3 * callsPerPass;
      const result = await runLoad(
        loadRequest(server(), { test: single('SCAN', ['__cursor__', 'MATCH', 'k:*', 'COUNT', '100']), load: { clients: 1, requests } }),
      );
      assert.equal(result.status, 'complete', result.error);
      const row = result.commands[0];
      assert.equal(row.errors, 0);
      assert.deepEqual({ ...row.replies }, { items: 3 * KEYS, passes: 3 });
      assert.equal(await withRedis(server(), (redis) => commandCalls(redis, 'scan')), requests);
    });

    it('several connections each keep their own cursor: whole passes, and no more keys than the passes started hold', async () => {
      await resetStats(server());
      const requests = 8 * callsPerPass;
      const result = await runLoad(
        loadRequest(server(), { test: single('SCAN', ['__cursor__', 'MATCH', 'k:*', 'COUNT', '100']), load: { clients: 4, requests } }),
      );
      assert.equal(result.status, 'complete', result.error);
      const { passes, items } = result.commands[0].replies!;
      // Four connections share 8 passes' worth of calls: at least one finishes a pass; a cursor per connection
      // means each pass returns all the keys, so the items fill the passes done and at most four passes under way.
      assert.ok(passes >= 1, `passes ${passes}`);
      assert.ok(items >= passes * KEYS && items < (passes + 4) * KEYS, `items ${items} for ${passes} passes`);
      assert.equal(await withRedis(server(), (redis) => commandCalls(redis, 'scan')), requests);
    });

    it('HSCAN KEY __cursor__ counts field/value pairs once', async () => {
      await withRedis(server(), async (redis) => {
        const fields: string[] = [];
        for (let i = 0; i < KEYS; i++) fields.push(`f${i}`, 'v');
        await redis.hset('h', ...fields);
      });
      const calls = await withRedis(server(), (redis) => settledPass((cursor) => redis.hscan('h', cursor, 'COUNT', 100), 2));
      const result = await runLoad(
        loadRequest(server(), { test: single('HSCAN', ['h', '__cursor__', 'COUNT', '100']), load: { clients: 1, requests: 2 * calls } }),
      );
      assert.equal(result.status, 'complete', result.error);
      assert.deepEqual({ ...result.commands[0].replies }, { items: 2 * KEYS, passes: 2 });
    });
  });

  describe('EVALSHA __sha(…)__', () => {
    const script = "return redis.call('GET', KEYS[1])";
    const evalsha = () => single('EVALSHA', [`__sha(${script})__`, '1', 'k:__key__']);

    it('runs the script the run loaded once: EVALSHA calls = requests, one SCRIPT LOAD, no error', async () => {
      await withRedis(server(), async (redis) => {
        await redis.script('FLUSH');
        await redis.config('RESETSTAT');
      });
      const result = await runLoad(loadRequest(server(), { test: evalsha(), load: { clients: 4, threads: 2, requests: 2000 } }));
      assert.equal(result.status, 'complete', result.error);
      assert.equal(result.commands[0].errors, 0);
      assert.equal(result.commands[0].replies, undefined, 'nothing reloaded');
      await withRedis(server(), async (redis) => {
        assert.equal(await commandCalls(redis, 'evalsha'), 2000);
        assert.equal(await commandCalls(redis, 'script\\|load'), 1);
      });
    });

    it('a SCRIPT FLUSH mid-run: each NOSCRIPT reloads the script once, counted, and the request is sent again, with no error', async () => {
      await withRedis(server(), (redis) => redis.config('RESETSTAT'));
      const requests = 60_000;
      const running = runLoad(loadRequest(server(), { test: evalsha(), load: { clients: 4, requests } }));
      const flushedAt = await withRedis(server(), async (redis) => {
        await waitForCalls(redis, 'evalsha', 500, 5000);
        await redis.script('FLUSH');
        return commandCalls(redis, 'evalsha');
      });
      assert.ok(flushedAt < requests, 'the flush came while the load ran');
      const result = await running;
      assert.equal(result.status, 'complete', result.error);
      const row = result.commands[0];
      assert.equal(row.errors, 0);
      assert.equal(row.requests, requests);
      const reloads = row.replies?.reloads ?? 0;
      assert.ok(reloads >= 1 && reloads <= 4, `reloads ${reloads}: at most one per connection`);
      await withRedis(server(), async (redis) => {
        assert.equal(await commandCalls(redis, 'evalsha'), requests + reloads, 'each NOSCRIPT request sent once more');
        assert.equal(await commandCalls(redis, 'script\\|load'), 1 + reloads);
      });
    });
  });

  describe('XREADGROUP then XACK __ids__', () => {
    it('acks exactly the entries read; an empty read skips the XACK; nothing is left pending', async () => {
      const entries = 1000;
      await withRedis(server(), async (redis) => {
        await redis.del('s');
        const batch = redis.pipeline();
        for (let i = 0; i < entries; i++) batch.xadd('s', '*', 'n', String(i));
        await batch.exec();
        await redis.xgroup('CREATE', 's', 'g', '0');
        await redis.config('RESETSTAT');
      });
      const test: TestPlan = {
        name: 'consume',
        commands: [
          { weight: 1, command: command('XREADGROUP', ['GROUP', 'g', 'c__client__', 'COUNT', '10', 'STREAMS', 's', '>']) },
          { weight: 1, command: command('XACK', ['s', 'g', '__ids__']) },
        ],
        group: { transaction: false },
      };
      // 100 units read the 1,000 entries (10 each); the other 20 find nothing.
      const result = await runLoad(loadRequest(server(), { test, load: { clients: 3, requests: 120 } }));
      assert.equal(result.status, 'complete', result.error);
      const read = result.commands.find((c) => c.command === 'XREADGROUP')!;
      const ack = result.commands.find((c) => c.command === 'XACK')!;
      assert.equal(read.replies?.read, entries);
      assert.equal(ack.replies?.acked, entries, "XACK's count is the entries read");
      assert.equal(ack.replies?.skipped, 20);
      assert.equal(result.total.errors, 0);
      await withRedis(server(), async (redis) => {
        const pending = (await redis.xpending('s', 'g')) as [number, ...unknown[]];
        assert.equal(pending[0], 0, 'XPENDING 0');
        assert.equal(await commandCalls(redis, 'xack'), 100);
        assert.equal(await commandCalls(redis, 'xreadgroup'), 120);
      });
    });
  });
});
