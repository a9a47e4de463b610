// Issue 23: on a Redis Cluster, a module command's keys are where the server's own key specs say: RediSearch's
// FT.CREATE and FT.SEARCH go to the master of their index's slot (no MOVED), and its commandstats count them all.
import assert from 'node:assert/strict';
import type { RunFile } from '../../../src/results/runFile';
import { runCli, useScratch } from '../../helpers/cli';
import { useCluster } from '../../helpers/cluster';
import { REDISEARCH, requireRediSearch } from '../../helpers/modules';
import { commandCalls } from '../../helpers/redis';

const loads = (run: RunFile) => run.points.flatMap((point) => point.repeats.flat());

describe('module commands on a cluster (key positions from the server)', function () {
  this.timeout(180_000);
  requireRediSearch();
  const cluster = useCluster(3, 0, { modules: [REDISEARCH] });
  const scratch = useScratch();

  it('FT.CREATE and FT.SEARCH reach the master of the index slot only', async () => {
    const index = 'rbidx';
    const file = scratch.write(
      'search.rbench',
      `### search\ncluster on\nprefill\nrequests 1\nclients 1\nFT.CREATE ${index} SCHEMA title TEXT\nphase search\nrequests 3000\nclients 4\nFT.SEARCH ${index} hello\n`,
    );
    const result = await runCli(['run', file, '--url', cluster().url, '--yes', '--out', 'runs'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const search = loads(scratch.runFiles('runs')[0]).find((load) => load.test === 'FT.SEARCH')!;
    assert.equal(search.total.requests, 3000);
    assert.equal(search.total.errors, 0, JSON.stringify(search.total.errorsByKind));
    const { masters } = await cluster().roles();
    const calls: number[] = [];
    for (const port of masters) calls.push(await commandCalls(cluster().client(port), 'FT\\.SEARCH'));
    // Spread over the masters (a key the client cannot find), two thirds would have met MOVED. The 8 more are the
    // probe that learns what FT.SEARCH runs inside the server before its test (src/runner/nestedCalls.ts).
    assert.deepEqual(
      calls.sort((a, b) => a - b),
      [0, 0, 3000 + 8],
    );
  });
});
