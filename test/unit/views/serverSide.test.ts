// The panels' server side (issues 20 and 21): stalls shaded on the run clock, bottleneck verdicts in the
// header and the table, the latency split, the client's pauses, server CPU per second, server time per
// call in the sweep and the comparison, foreign load. Run files written by hand against the contract
// types; the real CLI fixtures (older run files, without any of these fields) must show as before.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Bottleneck, LoadResult, TimelineSecond } from '../../../src/engine/types';
import type { ServerDelta, ServerSample } from '../../../src/redis/types';
import { parseRunFileText, type RunFile } from '../../../src/results/runFile';
import { buildCompareViewModel } from '../../../src/views/compareModel';
import { buildViewModel, serverCpuPercent, serverSeries, stallText, VERDICT_LABELS, verdictLabel } from '../../../src/views/model';
import { loadResult, makeRun } from '../compare/fixtures';
import { repoRoot } from '../scenario/helpers';

const fixture = (name: string) => JSON.parse(readFileSync(join(repoRoot(), 'test', 'browser', 'fixtures', `${name}.rbench-run.json`), 'utf8')) as RunFile;

/** Six one-second buckets, all answered except seconds 2–4 (the freeze of issue 20's seen case). */
function timeline(): TimelineSecond[] {
  return [0, 1, 2, 3, 4, 5].map((t) => ({ t, ops: t >= 2 && t <= 4 ? 0 : 50_000, errors: 0, p50Us: 200, p99Us: 400, maxUs: 900 }));
}

function server(usecPerCall: number, extra: Partial<ServerDelta> = {}): ServerDelta {
  return {
    nodes: 1,
    windowMs: 6000,
    calls: 10_000,
    usec: usecPerCall * 10_000,
    commands: { get: { calls: 10_000, usec: usecPerCall * 10_000, usecPerCall } },
    usecPerCall,
    ...extra,
  };
}

/** A GET test (p99 `p99` µs, p50 a quarter of it) with the new fields given. */
function load(p99: number, fields: Partial<LoadResult> = {}): LoadResult {
  return { ...loadResult('main', 'GET', { ops: 50_000, p99 }), timeline: timeline(), ...fields };
}

const getRun = (l: LoadResult, id = 'r') => makeRun({ id, text: '### get\nclients 10\nrequests 10000\nGET k\n', results: { '': [[l]] } });

const FREEZE = { fromMs: 2500, toMs: 4500, connections: 10, of: 10 };

describe('panels: where the time went (issues 20, 21)', () => {
  describe('stalls', () => {
    it('words a stall as the panel shows it', () => {
      assert.equal(stallText(FREEZE), 'no reply 2.5 s – 4.5 s (2.0 s) on 10 of 10 connections');
      assert.equal(stallText({ fromMs: 100, toMs: 400, connections: 1, of: 1 }), 'no reply 0.1 s – 0.4 s (0.3 s) on 1 of 1 connection');
    });

    it("shades a stall on the timeline at the load's offset: the clock of its timeline's seconds", () => {
      const run = getRun(load(400, { stalls: [FREEZE] }));
      const m = buildViewModel(run);
      const t = m.timeline;
      assert.ok(t && t.stalls, 'the timeline carries the stall');
      assert.equal(t.stalls.length, 1);
      // Bucket t (plotted at its end, offset + t + 1) is silent for t = 2, 3, 4: x at offset+3…offset+5.
      const offset = t.x[0] - 1;
      assert.deepEqual([t.stalls[0].from - offset, t.stalls[0].to - offset], [2.5, 4.5]);
      const silent = t.x.filter((_x, i) => t.ops[i] === 0);
      assert.ok(
        silent.every((x) => x > t.stalls![0].from && x <= t.stalls![0].to + 1),
        'the silent buckets are inside the shaded stretch',
      );
      assert.equal(t.stalls[0].text, 'no reply 2.5 s – 4.5 s (2.0 s) on 10 of 10 connections');
    });

    it('keeps a stall over a second from reading as a clean complete; a short one, and none, leave the badge alone', () => {
      const long = buildViewModel(getRun(load(400, { stalls: [FREEZE] })));
      assert.equal(long.header.status, 'complete');
      assert.equal(long.header.badge, 'complete · stalled 2.0 s');
      assert.equal(long.header.stalled, 'the server did not answer for 2.0 s');
      const short = buildViewModel(getRun(load(400, { stalls: [{ fromMs: 1000, toMs: 1600, connections: 3, of: 10 }] })));
      assert.equal(short.header.badge, 'complete');
      const some = buildViewModel(getRun(load(400, { stalls: [{ fromMs: 1000, toMs: 2600, connections: 3, of: 10 }] })));
      assert.equal(some.header.stalled, '3 of 10 connections heard no reply for 1.6 s');
      assert.equal(short.header.stalled, undefined);
      assert.deepEqual(short.explanations[0].stalls, ['no reply 1.0 s – 1.6 s (0.6 s) on 3 of 10 connections']);
      assert.equal(buildViewModel(getRun(load(400))).header.badge, 'complete');
    });

    it('leaves out a reversed or empty stall from a stranger’s file', () => {
      const m = buildViewModel(
        getRun(
          load(400, {
            stalls: [
              { fromMs: 3000, toMs: 1000, connections: 1, of: 1 },
              { fromMs: 5, toMs: 5, connections: 1, of: 1 },
            ],
          }),
        ),
      );
      assert.equal(m.timeline?.stalls, undefined);
      assert.equal(m.header.badge, 'complete');
    });
  });

  describe('the bottleneck verdict', () => {
    const verdict: Bottleneck = { kind: 'server-cpu', why: 'the server main thread used 97 % of a core' };

    it('puts each test’s verdict in the header and a column of the table, its line as the tooltip', () => {
      const m = buildViewModel(getRun(load(400, { bottleneck: verdict })));
      assert.deepEqual(m.header.verdicts, [{ kind: 'server-cpu', label: 'server CPU', why: verdict.why, parts: [], test: 'GET' }]);
      const column = m.columns.find((c) => c.header === 'Bottleneck');
      assert.ok(column, m.columns.map((c) => c.header).join());
      assert.equal(column.cell(m.rows[0]), 'server CPU');
      assert.equal(column.title?.(m.rows[0]), verdict.why);
      assert.deepEqual(m.explanations, [], 'a verdict alone is in the header, not the section');
    });

    it('lists the parts of a mixed verdict', () => {
      const mixed: Bottleneck = {
        kind: 'mixed',
        why: 'two hold',
        parts: [
          { kind: 'server-cpu', why: 'main thread 98 %' },
          { kind: 'persistence', why: 'a fork of 41 ms' },
        ],
      };
      const m = buildViewModel(getRun(load(400, { bottleneck: mixed })));
      assert.equal(m.header.verdicts[0].label, 'mixed: server CPU + persistence');
      assert.deepEqual(m.header.verdicts[0].parts, [
        { label: 'server CPU', why: 'main thread 98 %' },
        { label: 'persistence', why: 'a fork of 41 ms' },
      ]);
      assert.equal(m.rows[0].verdict, 'mixed: server CPU + persistence');
    });

    it('counts the verdicts by label when a sweep has more than the header holds', () => {
      const text = '### sweep\nrequests 10000\nsweep clients 1, 2, 4, 8\nGET k\nSET k v\n';
      const points = makeRun({ text, results: {} }).plan.points.map((p) => p.label);
      const kinds = ['round-trip', 'round-trip', 'server-cpu', 'server-cpu'] as const;
      const run = makeRun({
        text,
        results: Object.fromEntries(
          points.map((label, i) => [
            label,
            [
              [
                load(400, { bottleneck: { kind: kinds[i], why: 'x' } }),
                { ...load(400, { bottleneck: { kind: 'server-cpu', why: 'y' } }), test: 'SET', commands: [] },
              ],
            ],
          ]),
        ),
      });
      const m = buildViewModel(run);
      assert.equal(m.header.verdicts.length, 8);
      assert.deepEqual(m.header.verdictCounts, [
        { label: 'server CPU', tests: 6 },
        { label: 'round trip', tests: 2 },
      ]);
      assert.equal(buildViewModel(getRun(load(400, { bottleneck: verdict }))).header.verdictCounts, undefined, 'one test: listed as it is');
    });

    it('has a label for every kind, and shows a kind it does not know as written (never a prototype’s)', () => {
      for (const [kind, label] of Object.entries(VERDICT_LABELS)) assert.equal(verdictLabel(kind), label);
      assert.equal(verdictLabel('quantum-foam'), 'quantum-foam');
      assert.equal(verdictLabel('constructor'), 'constructor');
      assert.equal(verdictLabel('__proto__'), '__proto__');
    });
  });

  describe('the latency split', () => {
    it('splits p50 and p99 into the server’s time per call and the rest, with srv µs/call in the table', () => {
      const m = buildViewModel(getRun(load(1000, { server: server(12) })));
      assert.deepEqual(m.explanations[0].split, {
        serverUsPerCall: 12,
        bars: [
          { label: 'p50', totalUs: 250, serverUs: 12, restUs: 238 },
          { label: 'p99', totalUs: 1000, serverUs: 12, restUs: 988 },
        ],
      });
      assert.equal(m.explanations[0].serverCpu, undefined, 'no CPU figure: no line');
      const cpu = buildViewModel(getRun(load(1000, { server: server(12, { cpuPercent: 97.4, mainThreadCpuPercent: 95.1 }) })));
      assert.equal(cpu.explanations[0].serverCpu, 'server CPU 97 % of a core (main thread 95 %)');
      const column = m.columns.find((c) => c.header === 'srv µs/call');
      assert.ok(column);
      assert.equal(column.cell(m.rows[0]), '12.0');
    });

    it('gives a command of a mix the server’s figure for that command, when the server names it so', () => {
      const mix = { ...load(1000, { server: server(12, { commands: { get: { calls: 10, usec: 90, usecPerCall: 9 } } }) }), test: 'mix' };
      mix.commands = [loadResult('main', 'x', { ops: 1, p99: 1 }).total, loadResult('main', 'x', { ops: 1, p99: 1 }).total].map((c, i) => ({
        ...c,
        command: ['GET', 'LRANGE_100'][i],
      }));
      const m = buildViewModel(makeRun({ text: '### mix\nrequests 10000\n50% GET k\n50% LRANGE k 0 99\n', results: { '': [[mix]] } }));
      assert.deepEqual(
        m.rows.map((r) => [r.command, r.serverUsPerCall]),
        [
          ['total', 12],
          ['GET', 9],
          ['LRANGE_100', undefined],
        ],
      );
    });

    it('never draws more server time than the client saw', () => {
      const m = buildViewModel(getRun(load(40, { server: server(30) })));
      assert.deepEqual(
        m.explanations[0].split?.bars.map((b) => [b.serverUs, b.restUs]),
        [
          [10, 0],
          [30, 10],
        ],
      );
    });
  });

  describe('client pauses and foreign load', () => {
    const pauses = {
      gcCount: 40,
      gcMs: 120,
      gcMaxMs: 9,
      eventLoopDelayP99Ms: 3,
      eventLoopDelayMaxMs: 11,
      pauses: 25,
      pausedMs: 140,
      overlappedReplies: 900,
      tailShare: 0.4,
      p999UsWithoutPauses: 2100,
    };

    it('says how much of the tail the client caused when it is notable', () => {
      const run = getRun(load(400, { health: { ...loadResult('main', 'GET', { ops: 1, p99: 1 }).health, pauses } }));
      assert.equal(buildViewModel(run).explanations[0].pauses, '40 % of the tail overlapped client pauses (GC, event loop): p99.9 without them 2.10 ms');
      const quiet = getRun(load(400, { health: { ...run.points[0].repeats[0][0].health, pauses: { ...pauses, tailShare: 0.05 } } }));
      assert.deepEqual(buildViewModel(quiet).explanations, [], 'a small share is not worth a line');
    });

    it('names load the run did not send', () => {
      const m = buildViewModel(getRun(load(400, { server: server(12, { foreign: { calls: 38_000, commands: { set: 38_000 } } }) })));
      assert.equal(m.explanations[0].foreign, 'the server ran 38,000 commands this run did not send');
    });
  });

  describe('server CPU per second', () => {
    const sample = (t: number, cpu?: [number, number]): ServerSample => ({
      ...fixture('snapshot').server.samples[0],
      t,
      ...(cpu ? { cpuUser: cpu[0], cpuSys: cpu[1] } : {}),
    });

    it('derives % of a core from consecutive samples, with a gap where a counter went back', () => {
      assert.equal(serverCpuPercent(sample(1000, [1, 0.5]), sample(2000, [1.4, 0.6])), 50);
      const s = serverSeries([sample(1000, [10, 2]), sample(2000, [10.6, 2.2]), sample(3000, [0.1, 0.05]), sample(4000, [0.3, 0.15]), sample(5000)]);
      assert.ok(s?.cpuPercent);
      assert.deepEqual(
        s.cpuPercent.map((v) => (v === null ? null : Math.round(v))),
        [null, 80, null, 30, null],
        'first: nothing before it; third: restarted; last: no counters',
      );
    });

    it("draws the main thread's CPU beside the process's where the server tells", () => {
      const withMain = (t: number, main: number) => ({ ...sample(t, [main, 0]), cpuMainThread: main });
      const s = serverSeries([withMain(1000, 1), withMain(2000, 1.9), withMain(3000, 2.8)]);
      assert.deepEqual(
        s?.mainThreadCpuPercent?.map((v) => (v === null ? null : Math.round(v))),
        [null, 90, 90],
      );
      assert.equal(serverSeries([sample(1000, [1, 0]), sample(2000, [2, 0])])?.mainThreadCpuPercent, undefined);
    });

    it('has no CPU series for samples without the counters (older run files)', () => {
      assert.equal(serverSeries([sample(1000), sample(2000)])?.cpuPercent, undefined);
      assert.equal(buildViewModel(fixture('snapshot')).server?.cpuPercent, undefined);
    });
  });

  describe('sweeps and the comparison', () => {
    const sweep = '### sweep\nrequests 10000\nsweep clients 1, 4\nGET k\n';
    const sweepRun = (serverUs?: [number, number]) => {
      const points = makeRun({ text: sweep, results: {} }).plan.points.map((p) => p.label);
      const run = makeRun({
        text: sweep,
        results: Object.fromEntries(points.map((label, i) => [label, [[load(100 * (i + 1), serverUs ? { server: server(serverUs[i]) } : {})]]])),
      });
      run.points.forEach((p, i) => (p.sweep = { clients: [1, 4][i] }));
      return run;
    };

    it('plots the server’s time per call against the swept setting when the run has it', () => {
      const m = buildViewModel(sweepRun([8, 20]));
      assert.equal(m.sweep?.axis, 'clients');
      const srv = m.sweep?.series.find((s) => s.metric === 'server');
      assert.deepEqual(srv?.median, [8, 20]);
      assert.equal(srv?.label, 'GET srv µs/call');
      assert.deepEqual(
        m.sweep?.table.map((r) => r.server),
        ['8.0', '20.0'],
      );
      const old = buildViewModel(sweepRun());
      assert.deepEqual(
        old.sweep?.series.map((s) => s.metric),
        ['ops', 'p99'],
      );
      assert.equal(old.sweep?.table[0].server, undefined);
    });

    it('shows the server’s time per call and the verdict beside the client figures, and says which side moved', () => {
      const a = getRun(load(1000, { server: server(12), bottleneck: { kind: 'round-trip', why: 'neither side busy' } }), 'a');
      const b = getRun(load(1400, { server: server(12.2), bottleneck: { kind: 'round-trip', why: 'neither side busy' } }), 'b');
      b.startedAt = '2026-11-29T10:05:00.000Z';
      const m = buildCompareViewModel([a, b]);
      const srv = m.lines.find((l) => l.metric === 'server');
      assert.ok(srv);
      assert.deepEqual(
        srv.cells.map((c) => [c.text, c.change, c.verdict]),
        [
          ['12.0', undefined, undefined],
          ['12.2', '+1.7%', 'noise'],
        ],
      );
      assert.deepEqual(
        m.lines.find((l) => l.metric === 'bottleneck')?.cells.map((c) => [c.text, c.note]),
        [
          ['round trip', 'neither side busy'],
          ['round trip', 'neither side busy'],
        ],
      );
      assert.deepEqual(m.explained, ['GET: p99 rose 40.0%, server time per call unchanged (12.0 → 12.2 µs): the round trip, queueing or the client changed']);
      // The same in parts, for the panel's table and short sentences (issue 45).
      assert.deepEqual(m.explainedRows, [
        { test: 'GET', p99: 'rose 40.0%', server: 'unchanged', serverFigures: '12.0 → 12.2 µs', reading: 'the round trip, queueing or the client changed' },
      ]);
    });

    it('says how much of a p99 change the server’s own time accounts for', () => {
      const a = getRun(load(1000, { server: server(12) }), 'a');
      const later = (p99: number, us: number) => {
        const run = getRun(load(p99, { server: server(us) }), 'b');
        run.startedAt = '2026-11-29T10:05:00.000Z';
        return buildCompareViewModel([a, run]).explained;
      };
      assert.match(
        later(1400, 400)[0],
        /p99 rose 40\.0%, server time per call rose 3233\.3% \(12\.0 → 400 µs\): the server's own time accounts for most of it/,
      );
      assert.match(later(2000, 30)[0], /: the server's time accounts for 18 µs of the 1\.00 ms; the rest is round trip, queueing or client/);
      assert.match(
        later(1010, 20)[0],
        /p99 unchanged, server time per call rose 66\.7% \(12\.0 → 20\.0 µs\): the server's own time changed, not what the client saw/,
      );
      assert.match(later(1400, 6)[0], /server time per call fell 50\.0% .*: the round trip, queueing or the client changed/);
      assert.deepEqual(later(1010, 12.1), [], 'neither moved: nothing to say');
    });

    it('flags a run the server ran foreign load in', () => {
      const a = getRun(load(1000, { server: server(12) }), 'a');
      const b = getRun(load(1000, { server: server(12, { foreign: { calls: 38_000, commands: { set: 38_000 } } }) }), 'b');
      b.startedAt = '2026-11-29T10:05:00.000Z';
      const m = buildCompareViewModel([a, b]);
      assert.ok(m.lead, 'the differences are shown');
      assert.deepEqual(m.differences, [{ kind: 'setup', text: '11-29 10:05:00: the server ran 38,000 commands this run did not send' }]);
    });
  });

  describe('older run files', () => {
    it('show as before: no new columns, sections, badges or series', () => {
      for (const name of ['finished', 'snapshot', 'repeat', 'sweep', 'oom', 'rate-search']) {
        const m = buildViewModel(fixture(name));
        assert.equal(m.header.badge, m.header.status, name);
        assert.deepEqual(m.header.verdicts, [], name);
        assert.deepEqual(m.explanations, [], name);
        assert.ok(!m.columns.some((c) => c.key === 'serverUsPerCall' || c.key === 'verdict'), name);
        assert.equal(m.timeline?.stalls, undefined, name);
        assert.equal(m.server?.cpuPercent, undefined, name);
        assert.ok(!m.sweep?.series.some((s) => s.metric === 'server'), name);
      }
      const c = buildCompareViewModel([fixture('compare-a'), fixture('compare-b')]);
      assert.deepEqual(c.explained, []);
      assert.ok(!c.lines.some((l) => l.metric === 'server' || l.metric === 'bottleneck'));
    });

    it('a run file with every new field passes the schema and shows; one with a bad stall is refused', () => {
      const full = getRun(
        load(1000, {
          stalls: [FREEZE],
          server: server(12, { cpuPercent: 97, foreign: { calls: 5, commands: { ping: 5 } } }),
          bottleneck: { kind: 'server-cpu', why: '<img src=x onerror=alert(1)>' },
        }),
      );
      const parsed = parseRunFileText(JSON.stringify(full), 'full.rbench-run.json');
      const m = buildViewModel(parsed);
      assert.equal(m.header.verdicts[0].why, '<img src=x onerror=alert(1)>', 'kept as text: the webview puts it in a text node');
      assert.equal(m.header.badge, 'complete · stalled 2.0 s');
      const bad = structuredClone(full);
      (bad.points[0].repeats[0][0].stalls as unknown[]) = [{ fromMs: 'soon', toMs: 1, connections: 1, of: 1 }];
      assert.throws(() => parseRunFileText(JSON.stringify(bad), 'bad.rbench-run.json'));
    });
  });
});
