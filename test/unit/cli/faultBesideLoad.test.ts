// The CLI runs a one-thread load on its own thread (issue 46: no worker's start). A fault thrown on that thread while
// the load runs must end the load as a worker's crash would: a plain message, the run file kept with what was
// measured, no stack, no exit 70. The fault is injected by a preload, at the first write of the load's own traffic.
import assert from 'node:assert/strict';
import { useRedisServer } from '../../helpers/redis';
import { runCli, useScratch } from '../../helpers/cli';

// On the main thread only: NODE_OPTIONS reaches worker threads too, where a fault was a worker's crash already. A batch
// goes out through socket.write, or straight to the socket's descriptor with fs.writeSync (src/engine/fast/socketWrite.ts).
const PRELOAD = `
if (!require('node:worker_threads').isMainThread) return;
const net = require('node:net');
const fs = require('node:fs');
let thrown = false;
const faultAt = (chunk) => {
  if (!thrown && Buffer.isBuffer(chunk) && chunk.includes('fault:')) {
    thrown = true;
    setImmediate(() => { throw new Error('injected fault beside the load'); });
  }
};
const write = net.Socket.prototype.write;
net.Socket.prototype.write = function (chunk, ...rest) {
  faultAt(chunk);
  return write.call(this, chunk, ...rest);
};
const writeSync = fs.writeSync;
fs.writeSync = function (fd, chunk, ...rest) {
  faultAt(chunk);
  return writeSync.call(this, fd, chunk, ...rest);
};
`;

describe('rbench run: a fault on the thread a load runs on', function () {
  this.timeout(90_000);
  const server = useRedisServer();
  const scratch = useScratch();

  it('ends the load failed with a plain message and keeps what it measured in the run file', async () => {
    const preload = scratch.write('fault.cjs', PRELOAD);
    // 200,000 requests, a few seconds of load: in a worker, the fault would never come and the run would complete.
    const file = scratch.write('long.rbench', '### long\nthreads 1\nclients 2\nrequests 200000\nSET fault:__rand_int__ v\n');
    const run = await runCli(['run', '--yes', file, '--url', server().url, '--out', 'runs'], {
      cwd: scratch.dir,
      env: { NODE_OPTIONS: `--require ${preload}` },
    });
    assert.notEqual(run.code, 70, run.stderr);
    assert.notEqual(run.code, 0, run.stderr);
    assert.match(run.stderr, /^error: a fault while the load ran: injected fault beside the load/m);
    assert.doesNotMatch(run.stderr, /internal error|\n\s+at /);
    const [saved] = scratch.runFiles('runs');
    const result = saved.points[0].repeats[0][0];
    assert.equal(result.status, 'failed');
    assert.ok(result.total.requests < 200_000, `${result.total.requests} requests`);
  });
});
