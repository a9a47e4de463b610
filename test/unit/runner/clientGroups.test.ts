// Issue 43 (client groups) against a real redis-server: the groups of a scenario run at the same time, each
// group's commands are what the server counted, a background writer holds its rate while the readers run
// closed loop, and neither the verdict nor the server's accounting calls the writers foreign load.
import assert from 'node:assert/strict';
import { runScenario } from '../../../src/runner/runScenario';
import { runFileProblem } from '../../../src/results/runFileSchema';
import { resultRows } from '../../../src/results/rows';
import { mergeRuns } from '../../../src/results/merge';
import { shardPlan } from '../../../src/runner/shard';
import { planOf, runOnUserServer } from '../../helpers/userServerRun';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';
import { kinds } from '../../helpers/verdict';

describe('client groups run at the same time (load NAME)', function () {
  this.timeout(90_000);
  const server = useRedisServer();
  const run = (text: string) => runOnUserServer(server(), text);

  it('two groups at once: each group sent exactly what the server counted for its command, in overlapping windows', async () => {
    const { host, port } = server();
    const before = await withRedis({ host, port }, async (redis) => ({ set: await commandCalls(redis, 'set'), get: await commandCalls(redis, 'get') }));
    const file = await run(
      '### two groups\nkeys 1000\nduration 2s\nload setters\nclients 3\nSET rbench:groups:__key__ __value__\nload getters\nclients 5\nGET rbench:groups:__key__\n',
    );
    assert.equal(file.status, 'complete', file.error);
    assert.equal(runFileProblem(JSON.parse(JSON.stringify(file)), 'run'), undefined);
    const loads = file.points[0].repeats[0];
    assert.deepEqual(
      loads.map((load) => [load.test, load.phase, load.group?.name, load.connections.opened]),
      [
        ['setters', 'main', 'setters', 3],
        ['getters', 'main', 'getters', 5],
      ],
    );
    const [setters, getters] = loads;
    const after = await withRedis({ host, port }, async (redis) => ({ set: await commandCalls(redis, 'set'), get: await commandCalls(redis, 'get') }));
    assert.deepEqual(Object.keys(setters.sent!.byLabel), ['SET']);
    assert.deepEqual(Object.keys(getters.sent!.byLabel), ['GET']);
    assert.ok(setters.sent!.byLabel.SET > 0 && getters.sent!.byLabel.GET > 0);
    assert.equal(after.set - before.set, setters.sent!.byLabel.SET, 'the server counted every SET of the setters, and no other');
    assert.equal(after.get - before.get, getters.sent!.byLabel.GET, 'the server counted every GET of the getters, and no other');
    // One timeline: the groups start sending together (each waits until all are connected), so each group's
    // 2-second window began before the other's ended.
    const span = (load: (typeof loads)[number]) => {
      const from = Date.parse(load.measuredFrom!);
      return [from, from + load.durationMs] as const;
    };
    const [a, b] = [span(setters), span(getters)];
    assert.ok(a[0] <= b[1] && b[0] <= a[1], `the windows overlap: ${JSON.stringify([a, b])}`);
    // A row per group, and one per command under it.
    assert.deepEqual(
      resultRows(file).map((row) => `${row.test} ${row.command} ${row.clients}`),
      ['setters total 3', 'setters SET 3', 'getters total 5', 'getters GET 5'],
    );
  });

  it('a background writer at 1,000/s holds its rate beside closed-loop readers, which do not call it foreign load', async () => {
    const file = await run(
      [
        '### cache reads while writers write',
        'keys 1000',
        'duration 3s',
        'expect errors = 0',
        'expect WRITERS errors = 0',
        'load writers background',
        'clients 4',
        'rate 1000/s',
        'SET rbench:groups:bg:__key__ __value__',
        'load readers',
        'clients 8',
        'GET rbench:groups:bg:__key__',
        '',
      ].join('\n'),
    );
    assert.equal(file.status, 'complete', file.error);
    const [writers, readers] = file.points[0].repeats[0];
    assert.equal(writers.group?.background, true);
    assert.equal(readers.group?.background, false);
    // The open loop schedules rate × window sends; a busy machine sends late, never fewer (a send or two at the edges).
    const expected = (1000 * writers.durationMs) / 1000;
    const sent = writers.sent!.byLabel.SET;
    assert.ok(Math.abs(sent - expected) <= expected * 0.02 + 4, `writers sent ${sent}, ${expected} expected over ${writers.durationMs} ms`);
    assert.equal(writers.openLoop?.targetRate, 1000);
    assert.equal(readers.openLoop, undefined, 'the readers run closed loop');
    // The server counted the writers' SETs while the readers ran: they are the run's own, never foreign.
    for (const load of [readers, writers]) {
      assert.ok(load.server, `${load.test}: the server's counters were read`);
      assert.equal(load.server.foreign, undefined, `${load.test}: ${JSON.stringify(load.server.foreign)}`);
      assert.ok(!kinds(load.bottleneck).includes('foreign-load'), `${load.test}: ${JSON.stringify(load.bottleneck)}`);
    }
    assert.ok((readers.server!.own?.sent.set ?? 0) >= sent, `the writers' SETs are the readers' run's own: ${JSON.stringify(readers.server!.own)}`);
    // `expect` without a group judges the measured readers only; one naming the background group judges it.
    assert.deepEqual(
      file.thresholds.map((outcome) => `${outcome.expectation} → ${outcome.test}`),
      ['expect errors = 0 → readers', 'expect WRITERS errors = 0 → writers'],
    );
    assert.ok(resultRows(file).some((row) => row.test === 'writers' && row.background));
  });

  it('--shard splits each group over the parts, and merge adds them back per group, the server counting every send', async () => {
    const { host, port } = server();
    const counts = () => withRedis({ host, port }, async (redis) => ({ set: await commandCalls(redis, 'set'), get: await commandCalls(redis, 'get') }));
    const before = await counts();
    const text =
      '### sharded groups\nclients 1\nkeys 1000\nload setters\nclients 4\nrequests 2000\nSET rbench:groups:sh:__key__ v\nload getters\nclients 6\nrequests 3000\nGET rbench:groups:sh:__key__\n';
    const plan = planOf(text);
    const parts = [1, 2].map((index) => {
      const part = shardPlan(plan, { index, count: 2, group: `groups-test-${port}` });
      return typeof part === 'string' ? assert.fail(part) : part;
    });
    assert.deepEqual(
      parts.map((part) => part.points[0].phases[0].groups!.map((group) => [group.name, group.phase.load.clients, group.phase.load.requests])),
      [
        [
          ['setters', 2, 1000],
          ['getters', 3, 1500],
        ],
        [
          ['setters', 2, 1000],
          ['getters', 3, 1500],
        ],
      ],
    );
    const runs = await Promise.all(
      parts.map((part) =>
        runScenario(part, {
          connection: { host, port, resp: 2, connectTimeoutMs: 2000 },
          targetDisplay: `redis://${host}:${port}`,
          local: false,
          source: text,
        }),
      ),
    );
    for (const run of runs) assert.equal(run.status, 'complete', run.error);
    const after = await counts();
    assert.equal(after.set - before.set, 2000);
    assert.equal(after.get - before.get, 3000);
    const { run: merged } = mergeRuns(runs);
    const loads = merged.points[0].repeats[0];
    assert.deepEqual(
      loads.map((load) => [load.test, load.group?.name, { ...load.server?.sent }, load.total.requests]),
      [
        ['setters', 'setters', { set: 2000 }, 2000],
        ['getters', 'getters', { get: 3000 }, 3000],
      ],
    );
    assert.deepEqual(
      resultRows(merged).map((row) => `${row.test} ${row.command} ${row.clients}`),
      ['setters total 4', 'setters SET 4', 'getters total 6', 'getters GET 6'],
    );
    for (const load of loads) {
      assert.equal(load.server?.foreign, undefined, `${load.test}: ${JSON.stringify(load.server?.foreign)}`);
      assert.ok(!kinds(load.bottleneck).includes('foreign-load'), `${load.test}: ${JSON.stringify(load.bottleneck)}`);
    }
  });
});
