// The plain parts of server sweeps and multi-target runs: which points share a server and with which
// directives, when two target names are one server, and how interleaved repeats join into one run.
import assert from 'node:assert/strict';
import { check } from '../scenario/helpers';
import { pointServerConfig, serverGroups, serverSweepRefusal } from '../../../src/runner/serverSweep';
import { joinRepeats, sameTargetRefusal } from '../../../src/runner/multiTarget';
import type { RunFile } from '../../../src/results/runFile';
import type { LoadResult } from '../../../src/engine';

const plan = (text: string) => check(text).scenarios[0];

describe('server sweeps: which server each point runs on', () => {
  it("gives each point the scenario's server lines, the point's own directives winning", () => {
    const swept = plan('### s\nserver appendonly no\nserver hz 50\nrequests 10\nsweep server "appendonly yes" "appendfsync always", "hz 100"\nGET k\n');
    assert.deepEqual(pointServerConfig(swept.server, swept.points[0]), [
      { name: 'hz', args: ['50'] },
      { name: 'appendonly', args: ['yes'] },
      { name: 'appendfsync', args: ['always'] },
    ]);
    assert.deepEqual(pointServerConfig(swept.server, swept.points[1]), [
      { name: 'appendonly', args: ['no'] },
      { name: 'hz', args: ['100'] },
    ]);
  });

  it('starts one server per run of points with the same directives', () => {
    const crossed = plan('### s\nrequests 10\nsweep server "hz 10", "hz 100"\nsweep clients 1, 2, 4\nGET k\n');
    const groups = serverGroups(crossed);
    assert.equal(groups.length, 2);
    assert.deepEqual(
      groups.map((group) => group.points.map((point) => point.label)),
      [
        ['hz=10 clients=1', 'hz=10 clients=2', 'hz=10 clients=4'],
        ['hz=100 clients=1', 'hz=100 clients=2', 'hz=100 clients=4'],
      ],
    );
    // The server axis written last: the servers alternate, each point on its own.
    assert.equal(serverGroups(plan('### s\nrequests 10\nsweep clients 1, 2\nsweep server "hz 10", "hz 100"\nGET k\n')).length, 4);
  });

  it('is refused on any target but the throwaway server, and only for a server sweep', () => {
    const swept = plan('### s\nrequests 10\nsweep server "hz 10", "hz 100"\nGET k\n');
    assert.match(serverSweepRefusal(swept, false, 'redis://10.0.0.5:6379') ?? '', /would reconfigure a server of yours/);
    assert.equal(serverSweepRefusal(swept, true, 'local'), undefined);
    assert.equal(serverSweepRefusal(plan('### s\nrequests 10\nGET k\n'), false, 'redis://10.0.0.5:6379'), undefined);
  });
});

describe('several targets: the same server twice', () => {
  const profiles = { staging: { url: 'redis://Cache.example.com:6380' } };
  for (const [a, b] of [
    ['redis://127.0.0.1:6379', 'redis://127.0.0.1:6379'],
    ['redis://127.0.0.1:6379', '127.0.0.1:6379'],
    ['redis://127.0.0.1', 'redis://127.0.0.1:6379/2'],
    ['staging', 'redis://cache.example.com:6380'],
    ['unix:///run/redis/redis.sock', 'unix:///run/redis/redis.sock?db=1'],
  ]) {
    it(`refuses ${a} and ${b}`, () => assert.match(sameTargetRefusal([a, b], profiles) ?? '', /are the same server/));
  }
  it('lets different servers, and throwaway servers, through', () => {
    assert.equal(sameTargetRefusal(['redis://127.0.0.1:6379', 'redis://127.0.0.1:6380', 'staging'], profiles), undefined);
    assert.equal(sameTargetRefusal(['local', 'local'], profiles), undefined);
  });
});

describe('several targets: interleaved repeats joined', () => {
  const load = (ops: number, startedAt: string) =>
    ({ phase: 'main', test: 'GET', total: { opsPerSec: ops, requests: 10, latency: { p50Us: 1, p99Us: 2 } }, startedAt }) as unknown as LoadResult;
  const part = (startedAt: string, ops: number, samples: number[]): RunFile => {
    const scenario = plan('### s\nrequests 10\nrepeat 3\nGET k\n');
    return {
      id: startedAt,
      plan: { ...scenario, repeat: 1 },
      startedAt,
      finishedAt: new Date(Date.parse(startedAt) + 500).toISOString(),
      status: 'complete',
      points: [{ label: '', sweep: {}, repeats: [[load(ops, startedAt)]], summary: [] }],
      server: { samples: samples.map((t) => ({ t })), events: [] },
      target: { display: 'redis://a', local: false },
    } as unknown as RunFile;
  };

  it('keeps every repeat in the order run, samples on one clock, the plan with its repeats', () => {
    const joined = joinRepeats([
      part('2026-01-01T00:00:00.000Z', 100, [0]),
      part('2026-01-01T00:00:02.000Z', 300, [0, 1000]),
      part('2026-01-01T00:00:05.000Z', 200, [0]),
    ]);
    assert.equal(joined.plan.repeat, 3);
    assert.deepEqual(
      joined.points[0].repeats.map((loads) => loads[0].total.opsPerSec),
      [100, 300, 200],
    );
    assert.equal(joined.points[0].summary[0].runs, 3);
    assert.equal(joined.points[0].summary[0].opsPerSec.median, 200);
    assert.equal(joined.points[0].summary[0].representative, 2, 'the repeat at the median throughput');
    assert.deepEqual(
      joined.server.samples.map((sample) => sample.t),
      [0, 2000, 3000, 5000],
    );
    assert.equal(joined.finishedAt, '2026-01-01T00:00:05.500Z');
    assert.equal(joined.durationMs, 5500);
  });
});
