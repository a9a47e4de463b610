// examples/connection-storm.rbench's first scenario does what its comment says: every GET on a connection of
// its own (`reconnect every 1`), the server receiving a connection per request and counting every GET.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { repoRoot } from './helpers';
import { runCli, useScratch } from '../../helpers/cli';
import { commandCalls, useRedisServer, withRedis } from '../../helpers/redis';

/** INFO stats total_connections_received. */
async function connectionsReceived(server: { host: string; port: number }): Promise<number> {
  return withRedis(server, async (redis) => Number(/total_connections_received:(\d+)/.exec(await redis.info('stats'))?.[1]));
}

describe('examples/connection-storm.rbench', function () {
  this.timeout(120_000);
  const scratch = useScratch();
  const server = useRedisServer();

  it('a new connection per request: the server received a connection for every GET, and counted every GET', async () => {
    const calls = () => withRedis(server(), (redis) => commandCalls(redis, 'get'));
    const [getsBefore, connectionsBefore] = [await calls(), await connectionsReceived(server())];
    const file = path.join(repoRoot(), 'examples', 'connection-storm.rbench');
    const result = await runCli(['run', '--yes', file, '--scenario', '1', '--url', server().url, '--var', 'requests=2k'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const [getsAfter, connectionsAfter] = [await calls(), await connectionsReceived(server())];
    const [run] = scratch.runFiles();
    const [load] = run.points[0].repeats[0];
    assert.equal(load.total.requests, 2000);
    assert.equal(getsAfter - getsBefore, 2000, 'the server counted every GET');
    // A connection per GET, beside RBench's few own (control, sampling, the two `calls` reads here).
    const received = connectionsAfter - connectionsBefore;
    assert.ok(received >= 2000 && received <= 2000 + 30, `${received} connections received for 2,000 GETs`);
  });
});

describe('examples/connection-storm.rbench: the connect-only storm', function () {
  this.timeout(120_000);
  const scratch = useScratch();
  const server = useRedisServer();

  it('500 connections: the server received them, ran their handshake PING and no other load command; the row is `connect`', async () => {
    const connectionsBefore = await connectionsReceived(server());
    const file = path.join(repoRoot(), 'examples', 'connection-storm.rbench');
    const result = await runCli(['run', '--yes', file, '--scenario', '5', '--url', server().url, '--var', 'storm=500'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const received = (await connectionsReceived(server())) - connectionsBefore;
    assert.match(result.stdout, /^connect\s+[\d,]+\s+50\s+1\s/m);
    const [run] = scratch.runFiles();
    const [load] = run.points[0].repeats[0];
    assert.equal(load.total.requests, 500);
    assert.equal(load.total.errors, 0);
    assert.equal(load.connections.opened, 0);
    assert.equal(load.connections.cycles, 500);
    assert.equal(load.connections.setup?.latency.count, 500);
    // A connection per request, beside RBench's few own (control, sampling, the read here).
    assert.ok(received >= 500 && received <= 500 + 30, `${received} connections received for 500 requests`);
    // The server ran the storm's PINGs (one per connection) and RBench's own reads: nothing it could not place.
    assert.ok((load.server?.commands.ping?.calls ?? 0) >= 500, JSON.stringify(load.server?.commands));
    assert.equal(load.server?.commands.get, undefined);
    assert.equal(load.server?.foreign, undefined, JSON.stringify(load.server?.foreign));
  });
});

describe('examples/connection-storm.rbench: a storm group beside readers', function () {
  this.timeout(120_000);
  const scratch = useScratch();
  const server = useRedisServer();

  it('the storm group opens a connection per request while the readers run; every GET counted; a row per group', async () => {
    const calls = () => withRedis(server(), (redis) => commandCalls(redis, 'get'));
    const [getsBefore, connectionsBefore] = [await calls(), await connectionsReceived(server())];
    const file = path.join(repoRoot(), 'examples', 'connection-storm.rbench');
    const result = await runCli(['run', '--yes', file, '--scenario', '6', '--url', server().url, '--var', 'window=2s'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const received = (await connectionsReceived(server())) - connectionsBefore;
    const [run] = scratch.runFiles();
    const [storm, readers] = run.points[0].repeats[0];
    assert.deepEqual(
      [storm, readers].map((load) => [load.group?.name, load.group?.background]),
      [
        ['storm', true],
        ['readers', false],
      ],
    );
    // The storm: every connection it made was one of its requests (warm-up and the stop's last ones included in cycles).
    assert.ok(storm.total.requests > 0);
    assert.equal(storm.connections.opened, 0);
    assert.ok(storm.connections.cycles! >= storm.total.requests);
    assert.equal(storm.connections.setup?.latency.count, storm.connections.cycles);
    // The server received the storm's connections, the readers' 20, and RBench's few own.
    assert.ok(
      received >= storm.connections.cycles! + 20 && received <= storm.connections.cycles! + 20 + 30,
      `${received} for ${storm.connections.cycles} storm connections`,
    );
    assert.equal((await calls()) - getsBefore, readers.sent?.byLabel.GET, 'the server counted every GET the readers sent');
    assert.match(result.stdout, /^storm \(background\)/m);
  });
});
