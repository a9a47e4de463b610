import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Redis from 'ioredis';
import { LoadError, runLoad } from '../../../src/engine';
import { descriptorProblem, maxClientsProblem } from '../../../src/engine/capacity';
import { useRedisServer } from '../../helpers/redis';
import { loadRequest, singleTest } from './plans';

async function connectionsReceived(server: { host: string; port: number }): Promise<number> {
  const redis = new Redis({ host: server.host, port: server.port });
  try {
    return Number(/total_connections_received:(\d+)/.exec(await redis.info('stats'))![1]);
  } finally {
    redis.disconnect();
  }
}

describe('connection storms', function () {
  this.timeout(60_000);
  const server = useRedisServer({ config: [{ name: 'maxclients', args: ['1000'] }] });

  it('10,000 clients against maxclients 1000: a clear error before any load connection opens', async () => {
    const before = await connectionsReceived(server());
    const started = performance.now();
    await assert.rejects(runLoad(loadRequest(server(), { test: singleTest('PING'), load: { clients: 10_000, requests: 100_000 } })), (error: Error) => {
      assert.ok(error instanceof LoadError);
      assert.match(
        error.message,
        /^127\.0\.0\.1:\d+ accepts 1,000 clients \(maxclients\) and has \d connected; this load needs 10,000 — lower `clients` to at most 99\d, or raise maxclients on the server$/,
      );
      return true;
    });
    assert.ok(performance.now() - started < 3000);
    // The check's own control connection, and the one reading this figure: no storm.
    assert.ok((await connectionsReceived(server())) - before <= 3);
  });

  it('a load that fits maxclients still runs', async () => {
    const result = await runLoad(loadRequest(server(), { test: singleTest('PING'), load: { clients: 500, requests: 5000 } }));
    assert.equal(result.status, 'complete');
    assert.equal(result.total.requests, 5000);
  });

  it('clients far above the file-descriptor limit: a clear error before the run, not EMFILE half way', () => {
    // A child process with `ulimit -n 256` tries 2,000 clients against this server (whose own limit is high).
    const engine = join(__dirname, '../../../src/engine');
    const plans = join(__dirname, 'plans');
    const script = `const { runLoad } = require(${JSON.stringify(engine)}); const { loadRequest, singleTest } = require(${JSON.stringify(plans)});
runLoad(loadRequest({ host: '127.0.0.1', port: ${server().port} }, { test: singleTest('PING'), load: { clients: 2000, requests: 4000 } }))
  .then((r) => console.log('RESULT', r.status, r.error), (e) => console.log('ERROR', e.name, e.message));`;
    const child = spawnSync('bash', ['-c', `ulimit -n 256 && exec "${process.execPath}" -e "$0"`, script], { encoding: 'utf8', timeout: 30_000 });
    assert.match(
      child.stdout,
      /^ERROR LoadError 2,000 clients need as many open files, but this process may open 256 \(ulimit -n\) — raise the limit \(such as `ulimit -n 4096` before starting RBench or the editor\) or lower `clients` to at most 192$/m,
      child.stdout + child.stderr,
    );
  });

  it('the capacity rules', () => {
    assert.equal(descriptorProblem(100, 1024), undefined);
    assert.equal(descriptorProblem(100_000, undefined), undefined, 'unknown limit: no claim');
    assert.match(descriptorProblem(1000, 1024)!, /1,000 clients need/);
    assert.equal(maxClientsProblem(997, { maxclients: 1000, connected: 1 }, 'h:1'), undefined);
    assert.match(maxClientsProblem(998, { maxclients: 1000, connected: 1 }, 'h:1')!, /at most 997/);
    assert.equal(maxClientsProblem(10_000, {}, 'h:1'), undefined, 'INFO without maxclients: no claim');
  });
});
