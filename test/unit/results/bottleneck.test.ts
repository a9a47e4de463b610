// The bottleneck verdict (src/results/bottleneck): each kind from its evidence, and the rule that joins
// them: mixed when two hold, a default when none does, undetermined from a window too short to judge,
// and only the client's figures when the server was not read.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadResult } from '../../../src/engine/types';
import type { ServerDelta } from '../../../src/redis/types';
import { bottleneckOf, KIND_DESCRIPTIONS, KIND_LABELS, KINDS, MIN_REPLIES, MIN_WINDOW_MS } from '../../../src/results/bottleneck';
import { runWarnings } from '../../../src/results/warnings';
import { bottleneckLines, runEndLine } from '../../../src/results/headlines';
import { loadResult, planOf, runFileOf } from '../editor/fixtures';

/** A GET load of 2 s, 100k replies, p50 300 µs; the client with headroom (the engine's rule said `server`). */
function load(changes: Partial<LoadResult> = {}): LoadResult {
  const base = loadResult('GET', 50_000, 900);
  base.durationMs = 2000;
  base.windowMs = 2000;
  base.total.latency.count = 100_000;
  return { ...base, ...changes };
}

/** The client idle by the scheduler's accounting: ran 30 % of the 2 s window, waited 2 % for a core. */
const idleClient = { ...load().health, threadCpu: { runMs: 600, runnableWaitMs: 40 } };

/** The server idle and quick: 20 % of a core, 3.1 µs per call. */
function server(changes: Partial<ServerDelta> = {}): ServerDelta {
  return { nodes: 1, windowMs: 2000, calls: 100_000, usec: 310_000, commands: {}, usecPerCall: 3.1, cpuPercent: 22, mainThreadCpuPercent: 20, ...changes };
}

describe('bottleneck: each kind', () => {
  it('server-cpu: the main thread near a full core, with its figure and the time per call', () => {
    const verdict = bottleneckOf(load({ server: server({ mainThreadCpuPercent: 97, cpuPercent: 99 }), health: { ...load().health, bottleneck: 'unknown' } }));
    assert.equal(verdict.kind, 'server-cpu', verdict.why);
    assert.match(
      verdict.why,
      /the server.s main thread at 97 % of a core .*, 3\.1 µs per call in the server; one request in flight and the server had work 97 % of the window: more requests in flight could raise throughput by at most 3 %: the server set the pace$/,
    );
  });

  it('server-cpu: the process CPU when the main thread is not reported; below N/(N+1) of the window it does not hold', () => {
    assert.match(bottleneckOf(load({ server: server({ mainThreadCpuPercent: undefined, cpuPercent: 95 }) })).why, /the server process at 95 %/);
    const four = { connections: { opened: 4, reconnects: 0 } };
    assert.notEqual(bottleneckOf(load({ ...four, server: server({ mainThreadCpuPercent: 75 }) })).kind, 'server-cpu', '75 % < 4/5');
    assert.equal(bottleneckOf(load({ ...four, server: server({ mainThreadCpuPercent: 85 }) })).kind, 'server-cpu', '85 % ≥ 4/5');
  });

  it("client-cpu: the engine's own rule (health.bottleneck client), with the client's figures", () => {
    const verdict = bottleneckOf(load({ health: { threads: 2, cpuPercent: 188, eventLoopUtilization: 0.97, eventLoopLagP99Ms: 3, bottleneck: 'client' } }));
    assert.equal(verdict.kind, 'client-cpu');
    assert.match(verdict.why, /busiest thread 97 % busy, process 188 % of a core over 2 threads/);
  });

  it("client-cpu: a thread busy nearly all the window at a core per thread, though the engine's CPU-time rule said unknown (the size sweeps on 2 cores)", () => {
    // examples/size-sweeps.rbench on this 2-core machine: the server's main thread at 67 %, the client's thread
    // 91 % busy with 1.03 cores; the fallback called it round-trip ("add clients or pipeline") before.
    const health = { threads: 1, cpuPercent: 103, eventLoopUtilization: 0.91, eventLoopLagP99Ms: 3, bottleneck: 'unknown' as const };
    const sweep = { connections: { opened: 4, reconnects: 0 } };
    const verdict = bottleneckOf(load({ ...sweep, health, server: server({ mainThreadCpuPercent: 67, usecPerCall: 0.5 }) }));
    assert.equal(verdict.kind, 'client-cpu', verdict.why);
    assert.match(verdict.why, /busiest thread 91 % busy, process 103 % of a core over 1 thread; the server's main thread at 67 % of a core beside it/);
    // An open loop that kept to its schedule was not limited by its client, however busy.
    assert.notEqual(bottleneckOf(load({ health: { ...health, lateShare: 0 }, server: server({ mainThreadCpuPercent: 67 }) })).kind, 'client-cpu');
    // Busy, but short of the mark: neither side at its limit, and no round-trip advice.
    const between = bottleneckOf(
      load({ ...sweep, health: { ...health, eventLoopUtilization: 0.8 }, server: server({ mainThreadCpuPercent: 67, usecPerCall: 0.5 }) }),
    );
    assert.equal(between.kind, 'undetermined', between.why);
    assert.match(between.why, /^no limit reached .*the client's wait for a core \(no schedstat\) and the server's wait for a core .* not known/);
  });

  it('client-starved: busy but waiting for a core (issue 20, seen 4: called "server" before)', () => {
    const health = { ...load().health, eventLoopUtilization: 0.62, bottleneck: 'server' as const, threadCpu: { runMs: 420, runnableWaitMs: 900 } };
    const verdict = bottleneckOf(load({ health }));
    assert.equal(verdict.kind, 'client-starved', verdict.why);
    assert.match(
      verdict.why,
      /^the client's thread ran 21 %, waited 45 % for a core, slept 34 % of the window: it waited for a core at least as long as it ran, so the scheduler gave it at most half the CPU it had work for — other processes took the CPU/,
    );
    // A thread that waited little is not starved.
    assert.notEqual(bottleneckOf(load({ health: { ...health, threadCpu: { runMs: 1200, runnableWaitMs: 100 } } })).kind, 'client-starved');
  });

  it('round-trip: both sides idle by the scheduler’s accounting — neither saturated, neither waiting for a core as long as it ran', () => {
    const verdict = bottleneckOf(load({ health: idleClient, server: server({ schedule: { runMs: 400, runnableWaitMs: 20 } }) }));
    assert.equal(verdict.kind, 'round-trip', verdict.why);
    assert.match(
      verdict.why,
      /^the client's thread ran 30 %, waited 2 % for a core, slept 68 % of the window; the server's main thread ran 20 %, waited 1 % for a core, slept 79 % of the window \(one request in flight; each ran and slept longer than it waited for a core\); p50 300 µs at the client, 3\.1 µs in the server: the round trip sets the pace — add clients or pipeline$/,
    );
  });

  it('persistence: a fork during the test whose pause held 1 % of the window or more, with its length; or a BGSAVE event of the run inside the window', () => {
    const verdict = bottleneckOf(load({ server: server({ forks: 1, forkUsec: 42_300 }) }));
    assert.equal(verdict.kind, 'persistence');
    assert.equal(verdict.why, 'the server forked 1× during the test, the fork took 42.3 ms (2 % of the window)');
    const fromEvents = bottleneckOf(load({ measuredFrom: '2026-11-29T00:00:01.000Z' }), {
      runStartedAt: '2026-11-29T00:00:00.000Z',
      events: [
        { t: 1500, kind: 'bgsave-start' },
        { t: 9000, kind: 'aof-rewrite-start' },
      ],
    });
    assert.equal(fromEvents.kind, 'persistence', fromEvents.why);
    assert.equal(
      fromEvents.why,
      "the server persisted during the test (1 BGSAVE); the fork's length was not read",
      'the rewrite at 9 s is after the window (1–3 s)',
    );
  });

  it('memory: evictions, or OOM errors even without server counters', () => {
    assert.equal(bottleneckOf(load({ server: server({ evictedKeys: 12_345 }) })).why, 'the server evicted 12,345 keys: it reached maxmemory');
    const oom = load();
    oom.total = { ...oom.total, errors: 40, errorsByKind: { OOM: 40 } };
    const verdict = bottleneckOf(oom);
    assert.equal(verdict.kind, 'memory');
    assert.equal(verdict.why, 'refused 40 writes with OOM: it reached maxmemory');
  });

  it('slow-commands: new SLOWLOG entries, with the slowest', () => {
    const verdict = bottleneckOf(load({ server: server({ slowlog: { entries: 3, slowest: { command: 'keys', usec: 45_000 } } }) }));
    assert.equal(verdict.kind, 'slow-commands');
    assert.equal(verdict.why, '3 new SLOWLOG entries, the slowest keys 45.0 ms');
  });

  it('foreign-load: the commands the server ran that the test did not send', () => {
    const verdict = bottleneckOf(load({ server: server({ foreign: { calls: 38_112, commands: { set: 38_000, ping: 112 } } }) }));
    assert.equal(verdict.kind, 'foreign-load');
    assert.equal(verdict.why, 'the server ran 38,112 commands this test did not send (set 38,000, ping 112)');
  });

  it('stall: when and how long, on how many connections; the shorter ones counted', () => {
    const stalls = [
      { fromMs: 2500, toMs: 4500, connections: 10, of: 10 },
      { fromMs: 5000, toMs: 5200, connections: 3, of: 10 },
    ];
    const verdict = bottleneckOf(load({ stalls }));
    assert.equal(verdict.kind, 'stall');
    assert.equal(verdict.why, 'the server did not answer from 2.5 s to 4.5 s (2.0 s) on 10 of 10 connections, and 1 shorter stall');
  });

  it('stall: a load the stall limit ended, without stretches recorded, still names the stall', () => {
    const verdict = bottleneckOf(
      load({ windowKind: 'first-send-to-stall', errorStatusReason: 'the server sent no reply for 2 s with 4 requests outstanding' }),
    );
    assert.equal(verdict.kind, 'stall');
    assert.equal(verdict.why, 'the server stopped answering: the server sent no reply for 2 s with 4 requests outstanding');
  });

  it('server-cpu on a cluster: the busiest master, named', () => {
    const byNode = [
      { node: '10.0.0.1:6379', calls: 50_000, usec: 100_000, cpuPercent: 40 },
      { node: '10.0.0.2:6379', calls: 50_000, usec: 300_000, cpuPercent: 96 },
    ];
    const verdict = bottleneckOf(load({ server: server({ nodes: 2, byNode, cpuPercent: 136, mainThreadCpuPercent: undefined }) }));
    assert.equal(verdict.kind, 'server-cpu');
    assert.match(verdict.why, /the busiest master \(10\.0\.0\.2:6379\) at 96 % of a core/);
  });

  it('every kind has a judge, a label and a description (the docs and the panel list them)', () => {
    assert.equal(new Set(KINDS.map((judge) => judge.kind)).size, KINDS.length);
    for (const kind of Object.keys(KIND_LABELS)) assert.ok(KIND_DESCRIPTIONS[kind as keyof typeof KIND_DESCRIPTIONS], kind);
    assert.equal(Object.keys(KIND_DESCRIPTIONS).length, KINDS.length + 2, 'the judged kinds, mixed and undetermined');
  });
});

describe('bottleneck: the rule', () => {
  it('two kinds at once: mixed, each part with its own line', () => {
    const verdict = bottleneckOf(load({ server: server({ mainThreadCpuPercent: 99, forks: 2, forkUsec: 30_000 }) }));
    assert.equal(verdict.kind, 'mixed');
    assert.deepEqual(
      verdict.parts?.map((part) => part.kind),
      ['persistence', 'server-cpu'],
    );
    assert.match(verdict.why, /^persistence: the server forked 2× .*; server-cpu: .*the server's main thread at 99 %/);
  });

  it('a window too short for a verdict: undetermined, with the window and the replies (issue 20, seen 6)', () => {
    // 14 requests in 1.5 ms read as "client was CPU-bound" before.
    const short = load({ durationMs: 1.5, windowMs: 1.5, health: { ...load().health, bottleneck: 'client' } });
    short.total.latency.count = 14;
    assert.deepEqual(bottleneckOf(short), { kind: 'undetermined', why: 'the window (1.5 ms, 14 replies) is too short for a verdict' });
    const few = load();
    few.total.latency.count = MIN_REPLIES - 1;
    assert.equal(bottleneckOf(few).kind, 'undetermined');
    assert.equal(bottleneckOf(load({ windowMs: MIN_WINDOW_MS - 1 })).kind, 'undetermined');
    assert.equal(bottleneckOf(load({ windowMs: MIN_WINDOW_MS, health: { ...load().health, bottleneck: 'client' } })).kind, 'client-cpu');
  });

  it('no server fields: only the client evidence, said so, no server figure invented', () => {
    const verdict = bottleneckOf(load());
    assert.equal(verdict.kind, 'undetermined');
    assert.match(
      verdict.why,
      /^the client had headroom \(busiest thread 50 % busy, process 50 % of a core over 1 thread\); the server's counters were not read/,
    );
    assert.doesNotMatch(verdict.why, /µs in the server|% of a core in the server/);
  });

  it('no kind holds, the server read: undetermined, with the figures there are and the evidence missing — never a guess', () => {
    // Issue 41, seen 2: the client's p50 ≫ the server's time per call read as round-trip, though neither side's wait for a core was known.
    const remote = bottleneckOf(load({ server: server({ mainThreadCpuPercent: 30, usecPerCall: 20 }) }));
    assert.equal(remote.kind, 'undetermined', remote.why);
    assert.match(
      remote.why,
      /^no limit reached \(busiest thread 50 % busy.*; p50 300 µs at the client, 20 µs in the server\); the client's wait for a core \(no schedstat\) and the server's wait for a core \(no schedstat of a redis-server on this machine\) not known/,
    );
    // The server's CPU unknown (INFO cpu refused) and its schedstat too: still no round trip.
    const unread = bottleneckOf(
      load({ health: idleClient, server: server({ mainThreadCpuPercent: undefined, cpuPercent: undefined, absent: { cpu: 'INFO cpu refused (NOPERM)' } }) }),
    );
    assert.equal(unread.kind, 'undetermined', unread.why);
    assert.match(unread.why, /the server's wait for a core \(no schedstat of a redis-server on this machine\) not known/);
    // Both known, the server waiting for a core as long as it ran (not idle, not starved): not the round trip either.
    const waiting = bottleneckOf(load({ health: idleClient, server: server({ schedule: { runMs: 300, runnableWaitMs: 320 } }) }));
    assert.equal(waiting.kind, 'undetermined', waiting.why);
    assert.match(waiting.why, /a side was busy or waited for a core as long as it ran: neither idle, so not the round trip$/);
  });
});

describe('bottleneck: in the output', () => {
  const plan = planOf('### one\nrequests 1000\nGET k\n');

  it('a bottleneck line per test; a mixed verdict lists its parts', () => {
    const idle = load({ health: idleClient, server: server({ schedule: { runMs: 400, runnableWaitMs: 20 } }) });
    assert.deepEqual(bottleneckLines(runFileOf(plan, [idle])), [`GET bottleneck: round-trip — ${bottleneckOf(idle).why}`]);
    const mixed = runFileOf(plan, [load({ server: server({ mainThreadCpuPercent: 99, evictedKeys: 5 }) })]);
    const lines = bottleneckLines(mixed);
    assert.equal(lines[0], 'GET bottleneck: mixed');
    assert.match(lines[1], /^ {2}- memory — the server evicted 5 keys/);
    assert.match(lines[2], /^ {2}- server-cpu — /);
  });

  it('a stall is a warning; the client-bound warning is gone (the verdict says it per test)', () => {
    const client = load({ health: { ...load().health, bottleneck: 'client' }, stalls: [{ fromMs: 2500, toMs: 4500, connections: 10, of: 10 }] });
    const warnings = runWarnings(runFileOf(plan, [client]));
    assert.ok(warnings.includes('GET: the server did not answer from 2.5 s to 4.5 s (2.0 s) on 10 of 10 connections.'), warnings.join('\n'));
    assert.ok(!warnings.some((warning) => /CPU-bound/.test(warning)), warnings.join('\n'));
  });

  it('a stall over a second never reads as a clean complete', () => {
    const stalled = runFileOf(plan, [load({ stalls: [{ fromMs: 2500, toMs: 4500, connections: 10, of: 10 }] })]);
    assert.equal(runEndLine(stalled, 'runs/x.json'), 'Run complete, with a 2.0 s stall, results saved: runs/x.json  (1.0s)');
    assert.equal(runEndLine(stalled, undefined), 'Run complete, with a 2.0 s stall');
    const brief = runFileOf(plan, [load({ stalls: [{ fromMs: 2500, toMs: 2900, connections: 10, of: 10 }] })]);
    assert.equal(runEndLine(brief, 'runs/x.json'), 'Run saved: runs/x.json  (1.0s)');
    assert.equal(runEndLine(brief, undefined), undefined);
  });
});

describe('bottleneck: the docs', () => {
  it('Reading the verdict has an example section for every kind', () => {
    const page = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'reading-the-verdict.md'), 'utf8');
    for (const kind of Object.keys(KIND_LABELS)) assert.match(page, new RegExp(`^### \`${kind}\``, 'm'), kind);
  });
});
