// Issue 41: the persistence, foreign-load and network kinds on recorded evidence — each verdict names the
// figures it rests on, and its advice follows from the cause.
import assert from 'node:assert/strict';
import type { LoadResult } from '../../../src/engine/types';
import type { ServerDelta } from '../../../src/redis/types';
import { bottleneckOf } from '../../../src/results/bottleneck';
import { kinds } from '../../helpers/verdict';
import { loadResult } from '../editor/fixtures';

/** A SET load of 2 s, 100k replies, p50 300 µs; the client with headroom (its thread ran 25 % of the window, by schedstat). */
function load(changes: Partial<LoadResult> = {}, command = 'SET'): LoadResult {
  const base = loadResult(command, 50_000, 900);
  base.durationMs = 2000;
  base.windowMs = 2000;
  base.total.latency.count = 100_000;
  base.health = { ...base.health, threadCpu: { runMs: 500, runnableWaitMs: 20 } };
  return { ...base, ...changes };
}

/** The server idle and quick: 20 % of a core (its main thread, by schedstat), 3.1 µs per call, 100k SETs sent and run. */
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
    schedule: { runMs: 400, runnableWaitMs: 10 },
    ...changes,
  };
}

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
      /; note: the server forked 1× during the test, the fork took 3\.0 ms \(0\.1 % of the window\): too short to set the pace \(under 1 % of the window\)$/,
    );
    const long = bottleneckOf(load({ server: server({ forks: 1, forkUsec: 25_000 }) }));
    assert.equal(long.kind, 'persistence', long.why);
    assert.match(long.why, /the fork took 25\.0 ms \(1 % of the window\)/);
  });

  it('a short fork whose child took its share of the cores both sides waited for is the cause; the same child on a machine busy with much else is a note', () => {
    // fork-1500k-keys (bench/calibration): the child ran 263 ms of the machine's 4,580 ms while client and server waited ~1.7 s.
    const waited = (childrenRunMs: number, machineBusyMs: number, windowMs: number, clientWaitMs: number, serverWaitMs: number) =>
      bottleneckOf(
        load({
          windowMs,
          durationMs: windowMs,
          health: { ...load().health, threadCpu: { runMs: windowMs * 0.3, runnableWaitMs: clientWaitMs } },
          server: server({
            windowMs,
            forks: 1,
            forkUsec: 8_700,
            schedule: { runMs: windowMs * 0.2, runnableWaitMs: serverWaitMs, childrenRunMs, machineBusyMs },
          }),
        }),
      );
    const big = waited(263, 4_580, 2000, 900, 800);
    assert.ok(
      (big.parts ?? [big]).some((part) => part.kind === 'persistence'),
      big.why,
    );
    assert.match(
      big.why,
      /the fork's child ran 263 ms of CPU in the window, 6 % of all the machine's, while the client and the server waited 1\.7 s for a core \(its share 98 ms\)/,
    );
    // fork-100k-keys on a machine busy with other work: 80 ms of 8,980 ms, 1 % of the ~3.5 s wait: 31 ms, under 1 % of 4 s.
    const small = waited(80, 8_980, 4000, 1800, 1700);
    assert.ok(!(small.parts ?? [small]).some((part) => part.kind === 'persistence'), small.why);
    assert.match(small.why, /note: the server forked 1× during the test, the fork took 8\.7 ms \(0\.2 % of the window\): too short/);
    // No machine figure (an older run file, no /proc/stat): the child is not weighed.
    const unknown = waited(263, undefined as unknown as number, 2000, 900, 800);
    assert.ok(!(unknown.parts ?? [unknown]).some((part) => part.kind === 'persistence'), unknown.why);
  });
});

describe('bottleneck: the network’s own faults and the open loop’s schedule (issue 41, seen 6)', () => {
  /** A GET load of 2 s, p50 300 µs, its tail set by the case; the server idle and quick. */
  function tail(p99Us: number, maxUs: number, changes: Partial<LoadResult> = {}): LoadResult {
    const base = load({ server: server({ commands: { get: { calls: 100_000, usec: 310_000, usecPerCall: 3.1 } }, sent: { get: 100_000 } }) }, 'GET');
    base.total.latency = { ...base.total.latency, p99Us, maxUs };
    return { ...base, ...changes };
  }

  it('1 % loss: retransmission timeouts set p99 and max — network, citing the retransmits and the tail, not p50', () => {
    // The figures of a run under 1 % loss in a network namespace (bench/calibration, 1 % loss on the path); the
    // stall rule (≥ 100 ms and ≥ 10 × p99) cannot see 200 ms waits when they are the p99.
    const verdict = bottleneckOf(tail(207_000, 236_200, { tcp: { scope: 'host', segments: 13_492, retransmits: 275, timeouts: 3, lossProbes: 268 } }));
    assert.equal(verdict.kind, 'network', verdict.why);
    assert.equal(
      verdict.why,
      '275 of 13,492 TCP segments were retransmitted on this host during the test (3 retransmission timeouts, 268 tail-loss probes, each a wait of ≥ 200 ms): p99 207.0 ms, max 236.2 ms — packets were lost on the path and the tail is the wait for their resend; fix the loss, more clients or pipelining will not remove it',
    );
    assert.doesNotMatch(verdict.why, /p50|add clients/);
  });

  it('retransmits with only the max at a resend’s wait are a note; without a tail, or without retransmits, nothing', () => {
    const few = bottleneckOf(tail(2_400, 236_000, { tcp: { scope: 'host', segments: 13_492, retransmits: 12, timeouts: 0, lossProbes: 12 } }));
    assert.equal(few.kind, 'round-trip', few.why);
    assert.match(
      few.why,
      /; note: 12 of 13,492 TCP segments were retransmitted on this host during the test \(0 retransmission timeouts, 12 tail-loss probes, each a wait of ≥ 200 ms\), and the max was 236\.0 ms: a resend's wait for a few requests, under 1 % of them \(p99 2\.4 ms\)$/,
    );
    assert.doesNotMatch(bottleneckOf(tail(900, 4_000, { tcp: { scope: 'host', segments: 41_230, retransmits: 12, timeouts: 3 } })).why, /retransmitted/);
    assert.notEqual(bottleneckOf(tail(212_000, 416_000, { tcp: { scope: 'host', segments: 41_230, retransmits: 0, timeouts: 0 } })).kind, 'network');
    assert.notEqual(bottleneckOf(tail(212_000, 416_000)).kind, 'network');
  });

  it('an open loop at 2,000/s whose p99 came from late sends: the client’s schedule, not "add clients or pipeline"', () => {
    const base = tail(41_000, 52_000);
    base.total.latency.count = 4000;
    const verdict = bottleneckOf({ ...base, openLoop: { targetRate: 2000, lateSends: 180 }, health: { ...base.health, lateShare: 0.045 } });
    assert.equal(verdict.kind, 'late-sends', verdict.why);
    assert.equal(
      verdict.why,
      "5 % of the requests went out late (180), their latency counted from their time: p99 41.0 ms; 2,000/s answered of 2,000/s offered: the server kept up, the client's sending lagged — give the client CPU or threads, not more clients",
    );
  });

  it('an open loop above the server’s capacity (400 requests in flight): lower the rate, with the offered and answered rates', () => {
    const base = tail(95_000, 130_000);
    base.total.latency.count = 80_000;
    const verdict = bottleneckOf({ ...base, openLoop: { targetRate: 80_000, lateSends: 96_000 }, health: { ...base.health, lateShare: 0.6 } });
    assert.equal(verdict.kind, 'late-sends', verdict.why);
    assert.match(
      verdict.why,
      /60 % of the requests went out late .*; 80,000\/s offered, 40,000\/s answered: above the server's capacity the requests queued — lower the rate$/,
    );
  });

  it('an open loop that answered its rate, both sides idle: undetermined with the rates, never "add clients or pipeline"', () => {
    // bench/calibrate.mjs open-loop-below-capacity, run 1: 2,000/s offered and answered, each side asleep 90 % of the window.
    const base = tail(900, 4_000);
    base.windowMs = 3000;
    base.total.latency.count = 6000;
    const idle = {
      ...base,
      openLoop: { targetRate: 2000, lateSends: 3 },
      health: { ...base.health, lateShare: 0.0005, threadCpu: { runMs: 240, runnableWaitMs: 60 } },
      server: { ...base.server!, windowMs: 3000, schedule: { runMs: 120, runnableWaitMs: 30 } },
    };
    const verdict = bottleneckOf(idle);
    assert.equal(verdict.kind, 'undetermined', verdict.why);
    assert.match(
      verdict.why,
      /: the open loop answered 2,000\/s of 2,000\/s offered: its schedule set the pace, which more clients or pipelining cannot raise$/,
    );
    // Below its rate (the server fell behind, nothing late yet), the round trip may still be named.
    assert.equal(bottleneckOf({ ...idle, openLoop: { targetRate: 4000, lateSends: 3 } }).kind, 'round-trip');
  });

  it('an open loop that kept its schedule (1 % late or less) is judged as before', () => {
    const base = tail(900, 4_000);
    assert.notEqual(
      bottleneckOf({ ...base, openLoop: { targetRate: 50_000, lateSends: 10 }, health: { ...base.health, lateShare: 0.0001 } }).kind,
      'late-sends',
    );
  });
});

describe('bottleneck: foreign load (issue 41, seen 5)', () => {
  it('names the foreign commands, PINGs included, and the share of the server’s time they took', () => {
    const shared = server({
      commands: { get: { calls: 100_000, usec: 310_000, usecPerCall: 3.1 }, ping: { calls: 200_000, usec: 100_000, usecPerCall: 0.5 } },
      sent: { get: 100_000 },
      foreign: { calls: 200_000, commands: { ping: 200_000 } },
    });
    const verdict = bottleneckOf(load({ server: shared }, 'GET'));
    assert.equal(verdict.kind, 'foreign-load', verdict.why);
    assert.equal(verdict.why, "the server ran 200,000 commands this test did not send (ping 200,000); they took 5 % of the server's time in the window");
  });
});
