// Connection behaviour end to end against a real Redis Cluster (3 masters), through runScenario as a user's run:
// a connect-only storm (its connections spread over the masters, each master's row its share, as the masters
// counted them), a storm group beside readers, and `reconnect every` on the ioredis client.
import assert from 'node:assert/strict';
import { runScenario } from '../../../src/runner/runScenario';
import { runFileProblem } from '../../../src/results/runFileSchema';
import { useCluster } from '../../helpers/cluster';
import { commandCalls } from '../../helpers/redis';
import { planOf } from '../../helpers/userServerRun';

describe('connection behaviour on a Redis Cluster, end to end', function () {
  this.timeout(90_000);
  const cluster = useCluster(3, 0);

  const run = (text: string) =>
    runScenario(planOf(text), {
      connection: { host: '127.0.0.1', port: cluster().nodes[0].port, resp: 2, connectTimeoutMs: 2000, cluster: true },
      targetDisplay: cluster().url,
      local: false,
      source: text,
    });
  const sumOverMasters = async (read: (port: number) => Promise<number>) => {
    const { masters } = await cluster().roles();
    return (await Promise.all(masters.map(read))).reduce((a, b) => a + b, 0);
  };
  const received = () => sumOverMasters(async (port) => Number(/total_connections_received:(\d+)/.exec(await cluster().client(port).info('stats'))![1]));

  it('a connect-only storm: complete, R requests spread over the masters (their rows add up), at least R connections received', async () => {
    const before = await received();
    const file = await run('### storm\ncluster on\nclients 6\nrequests 600\nconnect-only on\n');
    assert.equal(file.status, 'complete', file.error);
    assert.equal(runFileProblem(JSON.parse(JSON.stringify(file)), 'run'), undefined);
    const [load] = file.points[0].repeats[0];
    assert.equal(load.total.requests, 600);
    assert.equal(load.total.errors, 0);
    assert.equal(load.connections.cycles, 600);
    const rows = load.cluster!.nodes.map((node) => node.total.requests);
    assert.equal(rows.length, 3);
    assert.equal(
      rows.reduce((a, b) => a + b, 0),
      600,
    );
    for (const n of rows) assert.ok(n >= 150 && n <= 250, JSON.stringify(rows));
    assert.ok((await received()) - before >= 600);
  });

  it('a storm group beside a GET group: both complete, the masters ran exactly the readers’ GETs', async () => {
    const gets = () => sumOverMasters((port) => commandCalls(cluster().client(port), 'get'));
    const before = await gets();
    const file = await run(
      '### storm beside readers\ncluster on\nkeys 1000\nload storm\nclients 4\nrequests 300\nconnect-only on\nload readers\nclients 3\nrequests 2000\nGET k:__key__\n',
    );
    assert.equal(file.status, 'complete', file.error);
    const [storm, readers] = file.points[0].repeats[0];
    assert.deepEqual(
      [storm, readers].map((load) => [load.group?.name, load.total.requests, load.total.errors]),
      [
        ['storm', 300, 0],
        ['readers', 2000, 0],
      ],
    );
    assert.equal(storm.connections.cycles, 300);
    assert.equal((await gets()) - before, 2000);
  });

  it('client ioredis, reconnect every 10 (one client: its last connection is full too): complete, every request run once, a connection per 10 requests', async () => {
    const gets = () => sumOverMasters((port) => commandCalls(cluster().client(port), 'get'));
    const before = await gets();
    const file = await run('### ioredis cycles\ncluster on\nclient ioredis\nclients 1\nkeys 1000\nrequests 400\nreconnect every 10\nGET k:__key__\n');
    assert.equal(file.status, 'complete', file.error);
    const [load] = file.points[0].repeats[0];
    assert.equal(load.total.requests, 400);
    assert.equal(load.total.errors, 0);
    assert.equal(load.connections.opened + (load.connections.cycles ?? 0), 40);
    assert.equal((await gets()) - before, 400);
  });
});
