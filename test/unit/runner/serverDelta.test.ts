// serverDelta (src/results/serverDelta.ts): counters before and after a load become the load's server side —
// deltas, CPU over the window, new SLOWLOG entries and latency events, masters added, foreign load judged.
import assert from 'node:assert/strict';
import type { LoadResult } from '../../../src/engine';
import type { NodeCounters } from '../../../src/redis/serverCounters';
import type { ServerCounters } from '../../../src/redis/types';
import { accountingFor, foreignLoad, mergeServerDeltas, serverCommandName, serverDelta, type Accounting } from '../../../src/results/serverDelta';
import { sumSamples } from '../../../src/runner/clusterMonitor';
import { parseInfo, sampleFromInfo } from '../../../src/redis/info';
import { check } from '../scenario/helpers';

function read(node: string, at: number, counters: Partial<ServerCounters>, extra: Partial<NodeCounters> = {}): NodeCounters {
  return { node, at, counters: { commands: {}, ...counters }, ...extra };
}

/** The records are null-prototype (the gate's rule): compared as plain data. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const exact = (sent: Record<string, number>, own: Record<string, number> = {}): Accounting => ({ sent, own, uncertain: 0 });

describe('serverDelta', () => {
  const before = read('a:1', 1000, {
    commands: { get: { calls: 100, usec: 200, rejected: 0, failed: 0 }, info: { calls: 5, usec: 50 } },
    cpu: { user: 10, sys: 5, mainThreadUser: 8, mainThreadSys: 4 },
    totalForks: 2,
    latestForkUsec: 100,
    evictedKeys: 0,
    expiredKeys: 7,
    slowlogLastId: 9,
    latencyEvents: { command: { time: 500, latestMs: 10, maxMs: 10 } },
  });
  const after = read(
    'a:1',
    3000,
    {
      commands: { get: { calls: 1100, usec: 3200, rejected: 2, failed: 1 }, info: { calls: 8, usec: 80 }, set: { calls: 50, usec: 100 } },
      cpu: { user: 10.5, sys: 5.5, mainThreadUser: 8.4, mainThreadSys: 4.2 },
      totalForks: 3,
      latestForkUsec: 900,
      evictedKeys: 4,
      expiredKeys: 7,
      slowlogLastId: 12,
      latencyEvents: { command: { time: 600, latestMs: 30, maxMs: 40 }, fork: { time: 601, latestMs: 5, maxMs: 5 } },
      latencyStats: { get: { p50: 1, p99: 2, p999: 3 } },
    },
    {
      slowlog: [
        { id: 12, command: 'keys', usec: 5000 },
        { id: 11, command: 'get', usec: 9000 },
        { id: 9, command: 'debug', usec: 99999 },
      ],
    },
  );

  it('subtracts the counters, computes CPU over the window and finds what is new', () => {
    const delta = serverDelta([before], [after], exact({ get: 1000 }, { info: 3 }), 'per-test');
    assert.equal(delta.nodes, 1);
    assert.equal(delta.windowMs, 2000);
    assert.deepEqual({ ...delta.commands.get }, { calls: 1000, usec: 3000, rejected: 2, failed: 1, usecPerCall: 3 });
    assert.equal(delta.calls, 1000 + 3 + 50);
    assert.equal(delta.usecPerCall, 3);
    assert.ok(Math.abs(delta.cpuPercent! - 50) < 1e-9, String(delta.cpuPercent));
    assert.ok(Math.abs(delta.mainThreadCpuPercent! - 30) < 1e-9, String(delta.mainThreadCpuPercent));
    assert.deepEqual([delta.forks, delta.forkUsec, delta.evictedKeys, delta.expiredKeys], [1, 900, 4, 0]);
    assert.deepEqual(delta.slowlog, { entries: 3, slowest: { command: 'get', usec: 9000 } }, 'entry 9 was there before the test');
    assert.deepEqual(delta.latencyEvents, [
      { event: 'command', latestMs: 30, maxMs: 40 },
      { event: 'fork', latestMs: 5, maxMs: 5 },
    ]);
    assert.equal(delta.latencyStats?.scope, 'per-test');
    // 50 SETs nobody in this load sent (the 3 INFO are RBench's own, counted as sent): foreign load.
    assert.deepEqual(plain(delta.foreign), { calls: 50 + 2, commands: { set: 50, get: 2 } });
    assert.deepEqual({ ...delta.sent }, { get: 1000 });
  });

  it('a sharded part whose sibling parts ran meanwhile judges no foreign load, and says why; without siblings the same counters are foreign', () => {
    // Part 1 of 2 sent 1000 GETs and 3 PINGs of its own; its sibling sent GETs, SETs a test ahead, and its own commands.
    const part = (): Accounting => ({ sent: { get: 1000 }, own: { ping: 3 }, uncertain: 10, siblings: { parts: 1 } });
    const mine = read('a:1', 1000, { commands: { get: { calls: 0, usec: 0 }, set: { calls: 0, usec: 0 }, ping: { calls: 0, usec: 0 } } });
    const both = read('a:1', 2000, { commands: { get: { calls: 2010, usec: 1 }, set: { calls: 400, usec: 1 }, incr: { calls: 1, usec: 1 } } });
    const judged = serverDelta([mine], [both], part(), 'cumulative');
    assert.equal(judged.foreign, undefined);
    assert.match(judged.absent?.foreign ?? '', /1 sibling part of this sharded run ran meanwhile.*rbench merge judges foreign load/);
    // A part of 3 that saw no sibling in its CLIENT LIST polls: a sibling's whole load can fall between two of them
    // (seen under load: part 2 judged its siblings' 6,000 SETs foreign), so it judges none either, and says why.
    const unseen = serverDelta([mine], [both], { ...part(), siblings: { parts: 0, of: 3 } }, 'cumulative');
    assert.equal(unseen.foreign, undefined);
    assert.match(unseen.absent?.foreign ?? '', /a part of a sharded run of 3 parts, whose siblings may have sent meanwhile.*rbench merge judges foreign load/);
    // Without the sibling known (a stranger's load), the same counters are foreign load.
    assert.deepEqual(plain(serverDelta([mine], [both], exact({ get: 1000 }), 'cumulative').foreign), {
      calls: 1010 + 400 + 1,
      commands: { get: 1010, set: 400, incr: 1 },
    });
  });

  it('foreign load is the server’s count minus what RBench sent, its own commands counted too: nothing is left out by name', () => {
    const c = (calls: number) => ({ calls, usec: 1, usecPerCall: 0 });
    const expected = new Map([
      ['get', 1000],
      ['info', 6],
      ['ping', 4],
    ]);
    assert.equal(foreignLoad({ get: c(1000), info: c(6), ping: c(4) }, expected, 0), undefined);
    // Another client's INFO polls and PINGs count like any command (issue 41, seen 5).
    assert.deepEqual(plain(foreignLoad({ get: c(1000), info: c(9), ping: c(60_004) }, expected, 0)), { calls: 60_003, commands: { info: 3, ping: 60_000 } });
    // Within the calls the accounting cannot place (in flight at the window's edges): none.
    assert.equal(foreignLoad({ get: c(1002) }, expected, 2), undefined);
    assert.deepEqual(plain(foreignLoad({ get: c(1003) }, expected, 2)), { calls: 3, commands: { get: 3 } });
    // Calls the test's module command runs inside the server are its own.
    assert.equal(foreignLoad({ 'ft.search': c(1000), hgetall: c(5000) }, new Map([['ft.search', 1000]]), 0, new Set(['hgetall'])), undefined);
  });

  it('the accounting adds RBench’s own commands and the fast path’s handshakes; a path that does not count its handshakes leaves room for them', () => {
    const [plan] = check('### s\nrequests 10\nPING\n').scenarios;
    const test = plan.points[0].phases[0].tests[0];
    const load = {
      commands: [],
      connections: { opened: 3, reconnects: 1 },
      durationMs: 1000,
      sent: { requests: 10, byLabel: { PING: 10 } },
    } as unknown as LoadResult;
    const counted = accountingFor(test, { ...load, sent: { ...load.sent!, handshakes: { ping: 4 } } }, 0, {
      sent: { info: 2, 'client|list': 1 },
      uncertain: 1,
    });
    assert.deepEqual([plain(counted.sent), plain(counted.own), counted.uncertain], [{ ping: 10 }, { info: 2, 'client|list': 1, ping: 4 }, 1]);
    const uncounted = accountingFor(test, load, 0, { sent: { info: 2 }, uncertain: 0 });
    assert.equal(uncounted.uncertain, 8 * 4, 'up to 8 handshake commands per opening');
  });

  it('a counter that went backwards (a reset or restart) makes its field absent with the reason, never negative', () => {
    const reset = read('a:1', 3000, {
      commands: { get: { calls: 3, usec: 3 } },
      cpu: { user: 1, sys: 1 },
      totalForks: 0,
      evictedKeys: 0,
      expiredKeys: 0,
      slowlogLastId: 2,
    });
    const delta = serverDelta([before], [reset], exact({ get: 1000 }), 'cumulative');
    assert.deepEqual({ ...delta.commands }, {});
    assert.match(delta.absent!.commands, /went backwards during the test: the server was reset \(CONFIG RESETSTAT\) or restarted/);
    assert.match(delta.absent!.foreign, /went backwards/);
    assert.match(delta.absent!.cpu, /went backwards/);
    assert.match(delta.absent!.forks, /went backwards/);
    assert.match(delta.absent!.slowlog, /went backwards/);
    for (const field of ['cpuPercent', 'forks', 'slowlog', 'foreign', 'usecPerCall'] as const) assert.equal(delta[field], undefined, field);
  });

  it('absent parts stay absent with the reason given by the read', () => {
    const bare = (at: number) =>
      read('a:1', at, { absent: { commands: 'INFO commandstats not given by this server', cpu: 'INFO cpu not given by this server' } });
    const delta = serverDelta([bare(0)], [bare(1000)], exact({ get: 10 }), 'cumulative');
    assert.equal(delta.cpuPercent, undefined);
    assert.equal(delta.usecPerCall, undefined);
    assert.equal(delta.foreign, undefined);
    assert.match(delta.absent!.commands, /commandstats not given/);
    assert.match(delta.absent!.usecPerCall, /commandstats not given/);
    assert.match(delta.absent!.cpu, /cpu not given/);
  });

  it('adds a cluster’s masters, keeps each in byNode, and takes the busiest CPU', () => {
    const node = (name: string, calls: number, cpu: number): [NodeCounters, NodeCounters] => [
      read(name, 0, { commands: { set: { calls: 0, usec: 0 } }, cpu: { user: 0, sys: 0 }, totalForks: 0 }),
      read(name, 1000, { commands: { set: { calls, usec: calls * 2 } }, cpu: { user: cpu, sys: 0 }, totalForks: 0 }),
    ];
    const nodes = [node('n1', 100, 0.2), node('n2', 200, 0.5), node('n3', 300, 0.1)];
    const delta = serverDelta(
      nodes.map((n) => n[0]),
      nodes.map((n) => n[1]),
      exact({ set: 600 }),
      'cumulative',
    );
    assert.equal(delta.nodes, 3);
    assert.equal(delta.calls, 600);
    assert.equal(delta.commands.set.calls, 600);
    assert.equal(delta.usecPerCall, 2);
    assert.ok(Math.abs(delta.cpuPercent! - 50) < 1e-9);
    assert.deepEqual(
      delta.byNode?.map((n) => [n.node, n.calls]),
      [
        ['n1', 100],
        ['n2', 200],
        ['n3', 300],
      ],
    );
    assert.equal(delta.foreign, undefined);
  });

  it('keeps at most 100 commands per record: the ones the test sent, then the busiest; foreign calls still counted in full', () => {
    const many = (at: number, scale: number) =>
      read('a:1', at, { commands: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`cmd${i}`, { calls: i * scale, usec: i * scale }])) });
    const delta = serverDelta([many(0, 0)], [many(1000, 1)], exact({ cmd1: 1 }), 'cumulative');
    const names = Object.keys(delta.commands);
    assert.equal(names.length, 100);
    assert.ok(names.includes('cmd1') && names.includes('cmd299') && !names.includes('cmd150'));
    assert.equal(delta.calls, (299 * 300) / 2);
    assert.equal(delta.foreign!.calls, (299 * 300) / 2 - 1);
    assert.ok(Object.keys(delta.foreign!.commands).length <= 100);
    assert.match(delta.absent!.moreCommands, /^199 more commands ran with fewer calls/);
  });

  it('names commands as the server counts them: a container’s literal subcommand with a bar', () => {
    const [plan] = check('### s\nrequests 10\n50% CONFIG GET maxmemory\n30% GET k\n20% CLIENT __key__\n').scenarios;
    const names = plan.points[0].phases[0].tests[0].commands.map((c) => serverCommandName(c.command));
    assert.deepEqual(names, ['config|get', 'get', 'client']);
  });

  it('counts what the load sent from sent.byLabel, else from the measured requests; a warm-up without sent is inexact', () => {
    const [plan] = check('### s\nrequests 10\nGET k\n').scenarios;
    const test = plan.points[0].phases[0].tests[0];
    const load = { commands: [{ command: 'GET', requests: 10 }], connections: { opened: 1, reconnects: 0 }, durationMs: 1000 } as unknown as LoadResult;
    assert.deepEqual({ ...accountingFor(test, load, 0).sent }, { get: 10 });
    assert.match(accountingFor(test, load, 500).inexact!, /warm-up/);
    const counted = { ...load, sent: { requests: 12, byLabel: { GET: 12 } } } as LoadResult;
    const accounting = accountingFor(test, counted, 500);
    assert.deepEqual([{ ...accounting.sent }, accounting.inexact], [{ get: 12 }, undefined]);
  });

  it('merge: the widest part’s delta, foreign judged against the sum of what the parts sent', () => {
    const part = (windowMs: number, sent: number): LoadResult =>
      ({
        connections: { opened: 2, reconnects: 0 },
        durationMs: 1000,
        server: {
          nodes: 1,
          windowMs,
          calls: 3000,
          usec: 3000,
          commands: { set: { calls: 3000, usec: 3000, usecPerCall: 1 } },
          sent: { set: sent },
          own: { sent: { info: 2 }, uncertain: 0 },
          foreign: { calls: 3000 - sent, commands: { set: 3000 - sent } },
        },
      }) as unknown as LoadResult;
    const parts = [part(2000, 1000), part(2500, 1000), part(2100, 1000)];
    const merged = mergeServerDeltas(parts)!;
    assert.equal(merged.windowMs, 2500);
    assert.equal(merged.calls, 3000, 'not added three times');
    assert.deepEqual({ ...merged.sent }, { set: 3000 });
    assert.equal(merged.foreign, undefined);
    assert.equal(mergeServerDeltas([part(1, 1)].map((p) => ({ ...p, server: undefined }))), undefined);
  });

  it('per second on a cluster: the masters’ counters added, and left out when a master lacks them', () => {
    const master = (calls: number, cpu: string) =>
      sampleFromInfo(
        parseInfo(
          `# Stats\r\ntotal_forks:1\r\n# CPU\r\nused_cpu_user:${cpu}\r\nused_cpu_sys:1\r\n# Commandstats\r\ncmdstat_set:calls=${calls},usec=${2 * calls}\r\n`,
        ),
        0,
      );
    const sum = sumSamples([master(10, '1'), master(20, '2'), master(30, '3')]);
    assert.deepEqual([sum.commandCalls, sum.commandUsec, sum.cpuUser, sum.cpuSys, sum.totalForks, sum.cpuMainThread], [60, 120, 6, 3, 3, undefined]);
    const partial = sumSamples([master(10, '1'), sampleFromInfo(parseInfo('# Memory\r\nused_memory:1\r\n'), 0)]);
    assert.equal(partial.commandCalls, undefined, 'a partial sum would read as a drop');
  });
});
