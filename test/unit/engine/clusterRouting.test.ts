import assert from 'node:assert/strict';
import { BatchBuilder, keyWidth } from '../../../src/engine/requests/batch';
import { createKeySource } from '../../../src/engine/requests/random';
import { SlotRouter } from '../../../src/engine/fast/slotRouter';
import { KeyBacklog } from '../../../src/engine/requests/keyBacklog';
import { scanRequest } from '../../../src/engine/fast/request';
import { slotOf, SLOT_COUNT } from '../../../src/engine/cluster/slot';
import { ClusterState } from '../../../src/engine/cluster/clusterState';
import { LabelStats, WorkerStats } from '../../../src/engine/measure/stats';
import { ApprovedNodes } from '../../../src/gates/network';
import type { ClusterTopology } from '../../../src/redis/clusterTopology';
import type { KeyPlan, TestPlan } from '../../../src/scenario/plan';
import { groupTest, mixTest, singleTest } from './plans';

const SPACE = 100_000;

function builder(test: TestPlan, pipeline: number, distribution: KeyPlan['distribution'] = 'uniform', space = SPACE, size = 12) {
  const plan = { space, size, distribution, gaussianStddev: 0.1, zipfExponent: 0.99 } as KeyPlan;
  const keys = createKeySource(plan, { seed: 5, connection: 3, connections: 10 });
  return new BatchBuilder(test, { kind: 'fixed', size: 3 }, keys, {
    seed: 5,
    pipeline,
    keySpace: space,
    labelIndexes: test.commands.map(() => 0),
    keyWidth: keyWidth(space, size),
    client: 3,
  });
}

/** A slot map of three masters over uneven ranges (masters only), on loopback ports the network gate lets through. */
function threeMasters(stats = new WorkerStats(1)): ClusterState {
  const topology: ClusterTopology = {
    nodes: [7000, 7001, 7002].map((port) => ({ host: '127.0.0.1', port, role: 'master' as const })),
    slots: [
      [0, 4999, 0],
      [5000, 11999, 1],
      [12000, SLOT_COUNT - 1, 2],
    ],
  };
  const approved = new ApprovedNodes({ seeds: [{ host: '127.0.0.1', port: 7000 }], declared: 'cluster', allowHosts: [] });
  return new ClusterState({ topology, replicaReads: false, keyArguments: [1], readOnly: [false] }, stats, approved);
}

function routerFor(built: BatchBuilder, cluster: ClusterState): SlotRouter {
  const bounds = new Int32Array(2);
  scanRequest(built.buffer, 0, 1, bounds);
  const keyAt = { from: bounds[0], to: bounds[1] };
  assert.ok(built.routable(keyAt));
  return new SlotRouter(built.buffer, keyAt, built.keyDigitsAt(), cluster, false, 0);
}

/** Argument `argument` of every request in buffer[0 … length). */
function argumentsOf(buffer: Buffer, length: number, argument: number): string[] {
  const values: string[] = [];
  const bounds = new Int32Array(2);
  for (let at = 0; at < length;) {
    at = scanRequest(buffer, at, argument, bounds);
    values.push(buffer.toString('latin1', bounds[0], bounds[1]));
  }
  return values;
}

/** The key argument (argument 1) of every request in buffer[0 … length). */
const keysOf = (buffer: Buffer, length: number) => argumentsOf(buffer, length, 1);

describe('cluster routing from the batch builder (keys ordered by node)', () => {
  for (const distribution of ['uniform', 'zipf', 'sequential'] as const) {
    it(`${distribution}: a routed batch holds the plain batch's keys, each node's run only keys of its slots`, () => {
      const cluster = threeMasters();
      const plain = builder(singleTest('SET key:__key__ __value__'), 48, distribution);
      const routed = builder(singleTest('SET key:__key__ __value__'), 48, distribution);
      const router = routerFor(routed, cluster);
      for (let batch = 0; batch < 50; batch++) {
        // Claims as the shared budget makes them: the draws follow the claimed numbers.
        plain.claimed(batch * 48);
        routed.claimed(batch * 48);
        const expected = keysOf(plain.buffer, plain.build(48));
        const length = routed.buildRouted(48, router);
        const got = keysOf(routed.buffer, length);
        assert.deepEqual([...got].sort(), [...expected].sort(), `batch ${batch}: the same keys`);
        assert.equal(router.starts[3], 48);
        for (let node = 0; node < 3; node++) {
          assert.equal(router.starts[node + 1] - router.starts[node], router.counts[node]);
          for (let p = router.starts[node]; p < router.starts[node + 1]; p++) assert.equal(cluster.owner[slotOf(got[p])], node, `${got[p]} on node ${node}`);
        }
        // Each run ends where the builder says, so a node's part is one slice of the buffer.
        assert.equal(routed.requestEnds[47], length);
      }
    });
  }

  for (const line of ['SET key:__rand_int__ __value__', 'GET key:__rand_int__', 'INCR counter:__rand_int__']) {
    it(`routes redis-benchmark's ${line} by its __rand_int__: the plain batch's draws, each node's run only keys of its slots`, () => {
      // Before issue 46's last step such a test took the per-request path: each key found and hashed in the bytes.
      const cluster = threeMasters();
      const plain = builder(singleTest(line), 48);
      const routed = builder(singleTest(line), 48);
      const router = routerFor(routed, cluster);
      assert.equal(routed.randsPerRequest, 0, 'the one __rand_int__ is the number routed by');
      for (let batch = 0; batch < 50; batch++) {
        const expected = keysOf(plain.buffer, plain.build(48));
        const length = routed.buildRouted(48, router);
        const got = keysOf(routed.buffer, length);
        assert.deepEqual([...got].sort(), [...expected].sort(), `batch ${batch}: the same keys`);
        for (let node = 0; node < 3; node++)
          for (let p = router.starts[node]; p < router.starts[node + 1]; p++) assert.equal(cluster.owner[slotOf(got[p])], node, `${got[p]} on node ${node}`);
      }
      // The backlog path (per-node loop): written oldest first into a template, the same keys again.
      const again = builder(singleTest(line), 48);
      const check = builder(singleTest(line), 48);
      const backlog = new KeyBacklog(again.randsPerRequest);
      again.drawRouted(48);
      for (let i = 0; i < 48; i++) backlog.push(again.drawnKeys[i], again.drawnRands, 0);
      const template = again.template(48);
      again.writeBacklog(template, backlog, 48);
      assert.deepEqual(keysOf(template, template.length), keysOf(check.buffer, check.build(48)));
    });
  }

  it('keeps __rand_int__ outside the key and a {hash tag} (every request on one node)', () => {
    const cluster = threeMasters();
    const test = singleTest('SET {user}:__key__ __rand_int__');
    const plain = builder(test, 16);
    const routed = builder(test, 16);
    const router = routerFor(routed, cluster);
    const values = (b: BatchBuilder, length: number) => argumentsOf(b.buffer, length, 2);
    const expected = values(plain, plain.build(16));
    const length = routed.buildRouted(16, router);
    assert.deepEqual(values(routed, length), expected, 'the same __rand_int__ draws, in draw order (one group)');
    assert.deepEqual(
      [...router.counts],
      [0, 0, 0].map((_, node) => (cluster.owner[slotOf('user')] === node ? 16 : 0)),
    );
  });

  it('is not used where requests differ beyond their key digits', () => {
    const bounds = new Int32Array(2);
    const keyAt = (b: BatchBuilder) => {
      scanRequest(b.buffer, 0, 1, bounds);
      return { from: bounds[0], to: bounds[1] };
    };
    const randKeys = builder(singleTest('SET key:__rand_int__ v:__rand_int__'), 4);
    assert.equal(randKeys.routable(keyAt(randKeys)), false, 'two __rand_int__ in a command');
    const both = builder(singleTest('SET key:__key__:__rand_int__ v'), 4);
    assert.equal(both.routable(keyAt(both)), false, 'a __rand_int__ beside the key digits');
    const elsewhere = builder(singleTest('SET fixed __key__'), 4);
    assert.equal(elsewhere.routable(keyAt(elsewhere)), false, 'key digits outside the key argument');
    assert.equal(
      builder(
        mixTest([
          [1, 'SET key:__key__ v'],
          [1, 'GET key:__key__'],
        ]),
        4,
      ).routable({ from: 0, to: 1 << 20 }),
      false,
      'a mix',
    );
    assert.equal(builder(groupTest('g', ['SET key:__key__ v', 'GET key:__key__']), 4).routable({ from: 0, to: 1 << 20 }), false, 'a group');
  });

  it('works out the slot of every key number as Redis does (digits pair by pair, the key with every digit 0 hashed once), in small and large key spaces', () => {
    // The digits inside the hashed part, before a tag, inside a tag, outside it (one slot), and after an empty tag (whole key hashed).
    const shapes = ['object:__key__:x', 'x{user:__key__}:y', '{user}:__key__', 'a{}b:__key__', '__key__{', '}{__key__}'];
    // Key widths even and odd (a lone leftmost digit), short and long, and key numbers past int32.
    const spaces: [number, number][] = [
      [SPACE, 12],
      [SPACE, 5],
      [SPACE, 6],
      [5_000_000, 7],
      [5_000_000, 12],
      [40_000_000_000, 11],
    ];
    for (const key of shapes) {
      for (const [space, size] of spaces) {
        const built = builder(singleTest(`GET ${key}`), 1, 'uniform', space, size);
        const router = routerFor(built, threeMasters());
        const width = keyWidth(space, size);
        const numbers = [0, 1, 9, 10, 99, 100, 4242, 2 ** 31 - 1, 2 ** 31, SPACE - 1, space - 1].filter((n) => n < space);
        for (let n = 0; n < 3_000; n++) numbers.push(n, Math.floor((space - 1) * ((n * 0.6180339887) % 1)));
        for (const number of numbers) {
          const text = key.replace('__key__', String(number).padStart(width, '0'));
          assert.equal(router.slotOf(number), slotOf(text), `${text} (key size ${size})`);
        }
      }
    }
  });
});

describe("the slot router's ranges of the slot map", () => {
  it('name the master of every slot, and follow the map when it changes (a MOVED, a new layout)', () => {
    const cluster = threeMasters();
    const router = routerFor(builder(singleTest('GET k:__key__'), 1), cluster);
    const check = (when: string) => {
      for (let slot = 0; slot < SLOT_COUNT; slot++) assert.equal(router.masterOf(slot), cluster.owner[slot], `${when}: slot ${slot}`);
    };
    check('three ranges');
    // Slots moved one by one (a reshard in progress), each change counted as ClusterState counts it.
    for (const [slot, node] of [
      [0, 2],
      [4999, 0],
      [5000, 0],
      [16383, 1],
      [8000, 2],
      [8001, 0],
    ]) {
      cluster.owner[slot] = node;
      cluster.routing++;
      check(`slot ${slot} moved to ${node}`);
    }
    for (let slot = 0; slot < SLOT_COUNT; slot++) cluster.owner[slot] = slot % 3;
    cluster.routing++;
    check('16,384 ranges');
  });

  // Issue 46: made per connection, the ranges and the digit tables were a cluster run's ~15 ms of CPU (50 connections).
  it("are made once per layout for all of a thread's connections, and anew after a MOVED", () => {
    const cluster = threeMasters();
    const routers = [1, 2, 3].map(() => routerFor(builder(singleTest('GET k:__key__'), 1), cluster));
    routers.forEach((router) => router.masterOf(100));
    const first = cluster.masterRanges();
    assert.deepEqual([...first.starts], [0, 5000, 12000]);
    routers.forEach((router) => router.masterOf(6000));
    assert.equal(cluster.masterRanges(), first, 'the same ranges while the layout holds');
    cluster.owner[6000] = 2;
    cluster.routing++;
    assert.equal(routers[2].masterOf(6000), 2);
    assert.notEqual(cluster.masterRanges(), first);
    assert.deepEqual([...cluster.masterRanges().starts], [0, 5000, 6000, 6001, 12000]);
  });

  it('route every key as Redis does whichever router made the digit tables first (keys of one shape, other shapes apart)', () => {
    const cluster = threeMasters();
    for (const [line, size] of [
      ['GET k:__key__', 12],
      ['GET other:{x}:__key__', 12],
      ['GET k:__key__', 6],
    ] as const) {
      const built = builder(singleTest(line), 16, 'uniform', SPACE, size);
      const [router, again] = [routerFor(built, cluster), routerFor(built, cluster)];
      for (const key of keysOf(built.buffer, built.build(16))) {
        const number = Number(/(\d+)$/.exec(key)![1]);
        assert.equal(router.slotOf(number), slotOf(key), `${line}: ${key}`);
        assert.equal(again.slotOf(number), slotOf(key), `${line}: ${key}`);
      }
    }
  });
});

describe("a cluster's per-node figures", () => {
  it("are made by the worker's own figures object (one class for the worker's summaries, whatever bundle the path is in)", () => {
    const made: LabelStats[] = [];
    const stats = new WorkerStats(1);
    const addNode = stats.addNode.bind(stats);
    stats.addNode = () => {
      const node = addNode();
      made.push(node);
      return node;
    };
    const cluster = threeMasters(stats);
    assert.equal(made.length, 3);
    assert.deepEqual(
      cluster.nodes.map((node) => node.stats),
      made,
    );
    assert.deepEqual(stats.nodes, made);
    cluster.node('127.0.0.1', 7003);
    assert.equal(made.length, 4, 'a node first met in a redirection too');
  });
});

describe("the per-node loop's backlog of drawn requests", () => {
  it('writes keys and their __rand_int__ values into a batch oldest first, across growth and wrap-around', () => {
    const built = builder(singleTest('SET key:__key__ __rand_int__'), 64);
    const template = built.template(64);
    const backlog = new KeyBacklog(built.randsPerRequest);
    const expected: [number, number][] = [];
    const rands = new Float64Array(1);
    const digits = (n: number, width: number) => String(n).padStart(width, '0');
    let next = 0;
    // Pushes and takes interleaved so the ring wraps, then grows while wrapped.
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < round * 3; i++, next++) {
        rands[0] = (next * 7) % SPACE;
        backlog.push(next % SPACE, rands, 0);
        expected.push([next % SPACE, rands[0]]);
      }
      const count = Math.min(round * 2, backlog.size, 64);
      if (count === 0) continue;
      built.writeBacklog(template, backlog, count);
      const taken = expected.splice(0, count);
      const length = built.requestEnds[count - 1];
      const width = keyWidth(SPACE, 12);
      assert.deepEqual(
        argumentsOf(template, length, 1),
        taken.map(([key]) => `key:${digits(key, width)}`),
        `round ${round}: keys`,
      );
      assert.deepEqual(
        argumentsOf(template, length, 2).map(Number),
        taken.map(([, rand]) => rand),
        `round ${round}: __rand_int__`,
      );
      assert.equal(backlog.size, expected.length);
    }
    backlog.clear();
    assert.equal(backlog.size, 0);
  });
});
