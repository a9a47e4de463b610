// `reconnect every N` and `idle-connections N` end to end (rbench run on a throwaway server): the table's connect
// column, the run file's connection figures, and the server's own counts agreeing with them (no foreign load).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadResult } from '../../../src/engine';
import type { RunFile } from '../../../src/results/runFile';
import { runCli, useScratch } from '../../helpers/cli';

const loads = (run: RunFile): LoadResult[] => run.points.flatMap((point) => point.repeats.flat());

describe('connection churn (rbench run)', function () {
  this.timeout(120_000);
  const scratch = useScratch();

  it('reconnect every 1 with idle connections: a connect column in the table, the set-up times in the run file, the server agreeing', async () => {
    const file = scratch.write(
      'churn.rbench',
      '### churn\nclients 4\nrequests 300\nreconnect every 1\nidle-connections 6\nGET k:__key__\n\n### plain\nclients 4\nrequests 300\nGET k:__key__\n',
    );
    const result = await runCli(['run', '--yes', file, '--out', 'churn'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const [churn, plain] = scratch.runFiles('churn').map((run) => loads(run)[0]);
    // 300 connections for the requests (4 opened, 296 cycled) and 6 idle: each timed.
    assert.equal(churn.connections.opened, 4);
    assert.equal(churn.connections.cycles, 296);
    assert.equal(churn.connections.idle, 6);
    assert.equal(churn.connections.reconnects, 0);
    assert.equal(churn.connections.setup?.latency.count, 306);
    assert.ok(churn.connections.setup.histogram.length > 0);
    // The server saw a PING per connection made and the 300 GETs, and nothing it could not place.
    assert.equal(churn.sent?.handshakes?.ping, 306);
    assert.equal(churn.server?.commands.get.calls, 300);
    assert.equal(churn.server?.commands.ping?.calls, 306, JSON.stringify(churn.server?.commands));
    assert.equal(churn.server?.foreign, undefined, JSON.stringify(churn.server?.foreign));
    // A test with one connection per client still has its set-up times in the file, but no connect column.
    assert.equal(plain.connections.setup?.latency.count, 4);
    assert.equal(plain.connections.cycles, undefined);
    const [churnTable, plainTable] = result.stdout.split(/\n(?=plain\s+→)/);
    const header = churnTable.split('\n').find((line) => line.startsWith('command'))!;
    assert.match(header, /connect p50\/p99 ms\s+connections(?:\s+limit)?$/);
    const row = churnTable.split('\n').find((line) => line.startsWith('GET'))!;
    assert.match(row, /\d+\.\d{3} \/ \d+\.\d{3}\s+306(?:\s+\S.*)?$/);
    assert.doesNotMatch(plainTable, /connect p50/);
  });

  it('ramp clients 1..3 step 1 every 1s: a row per step under the total, the steps in the run file', async () => {
    const file = scratch.write('ramp.rbench', '### ramp\nthreads 1\nramp clients 1..3 step 1 every 1s\nGET k:__key__\n');
    const result = await runCli(['run', '--yes', file, '--out', 'ramp', '--csv', 'ramp.csv'], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const lines = result.stdout.split('\n');
    const total = lines.findIndex((line) => line.startsWith('GET'));
    assert.match(lines[total], /^GET\s+[\d,]+\s+3\s+1\s/);
    assert.match(lines[total + 1], /^ {2}step 1: 1 client\s+[\d,]+\s+1\s+1\s/);
    assert.match(lines[total + 2], /^ {2}step 2: 2 clients\s+[\d,]+\s+2\s+1\s/);
    assert.match(lines[total + 3], /^ {2}step 3: 3 clients\s+[\d,]+\s+3\s+1\s/);
    // The CSV export: a line per step under the test's.
    const csv = readFileSync(join(scratch.dir, 'ramp.csv'), 'utf8').trim().split('\n');
    assert.deepEqual(
      csv.slice(1).map((line) => line.split(',')[0]),
      ['"GET"', '"GET step 1: 1 client"', '"GET step 2: 2 clients"', '"GET step 3: 3 clients"'],
    );
    const [load] = loads(scratch.runFiles('ramp')[0]);
    // The three steps of 1 s; on a busy machine the window closed up to a millisecond late (measured to the last reply).
    assert.ok(load.durationMs >= 3000 && load.durationMs < 3030, String(load.durationMs));
    assert.deepEqual(
      load.ramp?.map((step) => step.clients),
      [1, 2, 3],
    );
    // The steps share out the window's replies.
    assert.equal(
      load.ramp!.reduce((sum, step) => sum + step.replies, 0),
      load.timeline.reduce((sum, second) => sum + Math.round((second.ops * (second.partialMs ?? 1000)) / 1000), 0),
    );
  });
});
