// A local server's threads by the scheduler (src/redis/serverSchedule.ts): the pid INFO gives is used only
// when /proc says it is that redis-server, and the monitor's per-test reads carry its schedstat.
import assert from 'node:assert/strict';
import { readServerSchedule, verifiedServerPid } from '../../../src/redis/serverSchedule';
import { ServerMonitor } from '../../../src/redis/monitor';
import { useRedisServer, withRedis } from '../../helpers/redis';

describe('a local server’s schedstat', function () {
  this.timeout(30_000);
  const server = useRedisServer();

  it('the pid is kept only when it is a redis-server listening on our port', () => {
    const { pid, port } = server();
    assert.equal(verifiedServerPid(String(pid), { port }), pid);
    assert.equal(verifiedServerPid(String(pid), { port: port + 1 }), undefined, 'another port: another server');
    assert.equal(verifiedServerPid(String(process.pid), { port }), undefined, 'this node process is no redis-server');
    for (const lie of ['0', '-1', '12ab', '99999999999', '', '1/../self']) assert.equal(verifiedServerPid(lie, { port }), undefined, lie);
    assert.equal(verifiedServerPid(undefined, { port }), undefined);
  });

  it('its main thread’s time grows while it works; the monitor reads it beside the counters on loopback', async () => {
    const before = readServerSchedule(server().pid)!;
    await withRedis(server(), (redis) => redis.eval('local i = 0 while i < 3000000 do i = i + 1 end return i', 0));
    const after = readServerSchedule(server().pid)!;
    assert.ok(after.runMs - before.runMs > 5, JSON.stringify({ before, after }));
    const monitor = new ServerMonitor({ host: '127.0.0.1', port: server().port, resp: 2, connectTimeoutMs: 2000 });
    try {
      const [read] = await monitor.readCounters();
      assert.ok(read.schedule && read.schedule.runMs >= after.runMs, JSON.stringify(read.schedule));
    } finally {
      await monitor.close();
    }
  });

  it('a BGSAVE child’s CPU counts under the server’s children (reaped or running), beside the machine’s own CPU time', async () => {
    const { pid } = server();
    await withRedis(server(), (redis) => redis.call('DEBUG', 'POPULATE', '300000', 'child:', '64'));
    const before = readServerSchedule(pid)!;
    await withRedis(server(), async (redis) => {
      await redis.call('BGSAVE');
      // Until the child is reaped: rdb_bgsave_in_progress back to 0.
      for (let i = 0; i < 400 && /rdb_bgsave_in_progress:1/.test(String(await redis.info('persistence'))); i++) await new Promise((r) => setTimeout(r, 25));
      await redis.call('FLUSHALL');
    });
    const after = readServerSchedule(pid)!;
    assert.ok(before.childrenRunMs !== undefined && after.childrenRunMs !== undefined, JSON.stringify({ before, after }));
    assert.ok(after.childrenRunMs! - before.childrenRunMs! >= 10, `a 300k-key snapshot costs its child CPU: ${JSON.stringify({ before, after })}`);
    assert.ok(after.machineBusyMs! >= before.machineBusyMs! + (after.childrenRunMs! - before.childrenRunMs!) - 20, 'the machine ran the child too');
  });
});
