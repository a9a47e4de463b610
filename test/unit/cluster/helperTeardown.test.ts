// The test cluster helper stops quietly: its control clients of a node a test killed, and of the others at
// teardown, print no "[ioredis] Unhandled error event … ECONNREFUSED" (run in a child process to see its output).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const SCRIPT = `
const { startCluster } = require(${JSON.stringify(join(__dirname, '..', '..', 'helpers', 'cluster.js'))});
(async () => {
  const cluster = await startCluster(3, 0);
  for (const node of cluster.nodes) await cluster.client(node.port).ping();
  cluster.nodes[1].process.kill('SIGKILL');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await cluster.stop();
  await new Promise((resolve) => setTimeout(resolve, 500));
  console.log('stopped');
})().catch((error) => { console.error(error); process.exit(1); });
`;

describe('test cluster helper', function () {
  this.timeout(90_000);

  it('stops a cluster, one of whose nodes a test killed, without unhandled ioredis error events', async () => {
    const { stdout, stderr } = await run(process.execPath, ['-e', SCRIPT], { timeout: 60_000 });
    assert.match(stdout, /^stopped$/m);
    assert.doesNotMatch(stdout + stderr, /Unhandled error event/, stdout + stderr);
  });
});
