// Issue 20, seen 1: a 2 s freeze inside a 6 s run must show as a stall (when, how long, how many
// connections), not only as empty timeline buckets. A real redis-server frozen with SIGSTOP 2.5 s into
// measuring for 2 s (always resumed in `finally`).
import assert from 'node:assert/strict';
import { runLoad } from '../../../src/engine';
import type { LoadResult } from '../../../src/engine/types';
import type { LocalServer } from '../../../src/redis/localServer';
import type { ClientPath } from '../../../src/scenario/plan';
import { useRedisServer } from '../../helpers/redis';
import { loadRequest, singleTest } from './plans';

const request = (server: LocalServer, client: ClientPath) =>
  loadRequest(server, { client, test: singleTest('GET key:__rand_int__'), load: { clients: 10, threads: 1, durationMs: 6000 } });

/** Runs the 6 s load; with `freeze`, stops the server 2.5 s after measuring began and resumes it 2 s later. */
async function run(server: LocalServer, freeze: boolean, client: ClientPath = 'fast'): Promise<LoadResult> {
  const timers: NodeJS.Timeout[] = [];
  let frozen = false;
  let scheduled = false;
  try {
    return await runLoad(request(server, client), {
      onTick: (tick) => {
        // The first bucket (t = 0, 100 ms long) arrives about 100 ms after measuring began.
        if (!freeze || scheduled || tick.lastSecond?.t !== 0) return;
        scheduled = true;
        timers.push(
          setTimeout(() => {
            process.kill(server.pid, 'SIGSTOP');
            frozen = true;
            timers.push(
              setTimeout(() => {
                process.kill(server.pid, 'SIGCONT');
                frozen = false;
              }, 2000),
            );
          }, 2400),
        );
      },
    });
  } finally {
    for (const timer of timers) clearTimeout(timer);
    if (frozen) process.kill(server.pid, 'SIGCONT');
  }
}

describe('stalls: a freeze inside a run shows when, how long and on how many connections (SIGSTOP)', function () {
  this.timeout(40_000);
  const server = useRedisServer();

  for (const client of ['fast', 'ioredis'] as const) {
    it(`${client}: a 2 s freeze 2.5 s in is one stall of about 2.5 s–4.5 s on all 10 connections`, async () => {
      const result = await run(server(), true, client);
      const stalls = result.stalls ?? [];
      assert.equal(stalls.length, 1, JSON.stringify(stalls));
      const [stall] = stalls;
      assert.ok(stall.fromMs > 2200 && stall.fromMs < 2900, `starts at ${stall.fromMs} ms`);
      assert.ok(stall.toMs > 4200 && stall.toMs < 5000, `ends at ${stall.toMs} ms`);
      assert.ok(stall.toMs - stall.fromMs > 1800 && stall.toMs - stall.fromMs < 2400, `lasts ${stall.toMs - stall.fromMs} ms`);
      assert.deepEqual([stall.connections, stall.of], [10, 10]);
      // The timeline's empty buckets lie inside it (the same clock: ms since measuring began).
      const empty = result.timeline.filter((b) => b.ops === 0).map((b) => b.t * 1000);
      assert.ok(empty.length >= 15, `${empty.length} empty buckets`);
      assert.ok(
        empty.every((t) => t >= stall.fromMs - 100 && t + 100 <= stall.toMs + 100),
        `empty buckets ${empty.join(' ')} inside ${stall.fromMs}–${stall.toMs}`,
      );
    });
  }

  // A machine this loaded (other suites on two cores) can keep the server off a core for a moment: such a
  // silence is real, but no freeze-sized stall may appear.
  it('a run without a freeze has no stall (none past 300 ms)', async () => {
    const result = await run(server(), false);
    assert.ok(result.stalls !== undefined, 'stalls are reported');
    assert.deepEqual(
      result.stalls.filter((s) => s.toMs - s.fromMs > 300),
      [],
    );
  });
});
