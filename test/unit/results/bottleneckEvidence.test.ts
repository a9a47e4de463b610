// Issue 41: the persistence, foreign-load and network kinds on recorded evidence — each verdict names the
// figures it rests on, and its advice follows from the cause.
import assert from 'node:assert/strict';
import type { LoadResult } from '../../../src/engine/types';
import type { ServerDelta } from '../../../src/redis/types';
import { bottleneckOf } from '../../../src/results/bottleneck';
import { loadResult } from '../editor/fixtures';

/** A SET load of 2 s, 100k replies, p50 300 µs; the client with headroom. */
function load(changes: Partial<LoadResult> = {}, command = 'SET'): LoadResult {
  const base = loadResult(command, 50_000, 900);
  base.durationMs = 2000;
  base.windowMs = 2000;
  base.total.latency.count = 100_000;
  return { ...base, ...changes };
}

/** The server idle and quick: 20 % of a core, 3.1 µs per call, 100k SETs sent and run. */
function server(changes: Partial<ServerDelta> = {}): ServerDelta {
  return {
    nodes: 1,
    windowMs: 2000,
    calls: 100_000,
    usec: 310_000,
    commands: { set: { calls: 100_000, usec: 310_000, usecPerCall: 3.1 } },
    sent: { set: 100_000 },
    usecPerCall: 3.1,
    cpuPercent: 22,
    mainThreadCpuPercent: 20,
    ...changes,
  };
}

const kinds = (verdict: ReturnType<typeof bottleneckOf>): string[] => (verdict.parts ? verdict.parts.map((part) => part.kind) : [verdict.kind]);

describe('bottleneck: persistence (issue 41, seen 4)', () => {
  it('appendfsync always with writes: every write waited for an fsync, said with the writes, the client p50 and the server time', () => {
    const verdict = bottleneckOf(load({ server: server({ aof: { fsync: 'always', delayedFsyncs: 0 } }) }));
    assert.equal(verdict.kind, 'persistence', verdict.why);
    assert.equal(
      verdict.why,
      'appendfsync always: each of the 100,000 writes waited for an fsync of the AOF before its reply (p50 300 µs at the client, 3.1 µs of command time in the server): the disk set the pace — appendfsync everysec, or a faster disk',
    );
  });

  it('appendfsync always but no writes (a GET test): not persistence', () => {
    const reads = server({ aof: { fsync: 'always' }, commands: { get: { calls: 100_000, usec: 310_000, usecPerCall: 3.1 } }, sent: { get: 100_000 } });
    assert.ok(!kinds(bottleneckOf(load({ server: reads }, 'GET'))).includes('persistence'));
  });

  it('everysec with a disk behind (aof_delayed_fsync) and the latency monitor’s AOF events: persistence with their figures', () => {
    const verdict = bottleneckOf(
      load({
        server: server({ aof: { fsync: 'everysec', delayedFsyncs: 3 }, latencyEvents: [{ event: 'aof-write-pending-fsync', latestMs: 20, maxMs: 35 }] }),
      }),
    );
    assert.equal(verdict.kind, 'persistence', verdict.why);
    assert.match(verdict.why, /the AOF's fsync fell behind 3× \(aof_delayed_fsync, appendfsync everysec\).*LATENCY LATEST: aof-write-pending-fsync max 35 ms/);
  });

  it('a fork whose pause is under 1 % of the window is a note on the verdict, not its cause; 1 % or more is the cause', () => {
    const short = bottleneckOf(load({ server: server({ forks: 1, forkUsec: 3_000 }) }));
    assert.equal(short.kind, 'round-trip', short.why);
    assert.match(
      short.why,
      /; note: the server forked 1× during the test, the fork took 3\.0 ms \(0 % of the window\): too short to set the pace \(under 1 % of the window\)$/,
    );
    const long = bottleneckOf(load({ server: server({ forks: 1, forkUsec: 25_000 }) }));
    assert.equal(long.kind, 'persistence', long.why);
    assert.match(long.why, /the fork took 25\.0 ms \(1 % of the window\)/);
  });
});
