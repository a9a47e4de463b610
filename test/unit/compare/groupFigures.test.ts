// Compare shows a consumer group's jobs/s and wake-up p99 and a subscriber group's delivered/s and lost (issue 43),
// on run files of real runs, in the terminal table and the CSV; the CSV's `group` column tells a group's row from a
// test's of the same name.
import assert from 'node:assert/strict';
import { compareRuns } from '../../../src/results/compare';
import { comparisonToCsv, comparisonToText } from '../../../src/results/compareFormat';
import type { LoadResult } from '../../../src/engine/types';
import { formatOps } from '../../../src/results/format';
import { buildCompareViewModel } from '../../../src/views/compareModel';
import { runOnUserServer } from '../../helpers/userServerRun';
import { useRedisServer } from '../../helpers/redis';

const QUEUE = (rate: number) =>
  [
    '### queue',
    'duration 1s',
    'load producers',
    'clients 1',
    `rate ${rate}/s`,
    'LPUSH rbench:cmpq:jobs __now__:__value__',
    'load workers',
    'clients 2',
    'BRPOP rbench:cmpq:jobs 1',
    '',
  ].join('\n');
const FANOUT = [
  '### fanout',
  'warmup 0s',
  'load publishers',
  'clients 1',
  'requests 300',
  'PUBLISH cmpf:__rand(1..2)__ __now__:__value__',
  'load subscribers',
  'clients 4',
  'SUBSCRIBE cmpf:__rand(1..2,sequential)__',
  '',
].join('\n');

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const byTest = (loads: LoadResult[], test: string) => loads.find((load) => load.test === test) ?? assert.fail(`no ${test}`);

describe('compare: consumer and subscriber group figures', function () {
  this.timeout(90_000);
  const server = useRedisServer();
  const run = async (text: string) => {
    const file = await runOnUserServer(server(), text);
    assert.equal(file.status, 'complete', file.error);
    return file;
  };

  it("a consumer group's jobs/s and wake-up p99 are lines under its total in the table, and metrics in the CSV with the group named", async () => {
    const [a, b] = [await run(QUEUE(200)), await run(QUEUE(400))];
    const comparison = compareRuns([a, b]);
    const workers = comparison.rows.find((row) => row.group === 'workers' && row.command === 'total')!;
    const jobs = [a, b].map((file) => byTest(file.points[0].repeats[0], 'workers'));
    assert.deepEqual(
      workers.cells.map((cell) => cell?.figures?.['jobs/s']),
      jobs.map((load) => load.total.opsPerSec),
    );
    assert.deepEqual(
      workers.cells.map((cell) => cell?.figures?.['wake-up p99']),
      jobs.map((load) => load.consumer!.wakeUp.latency.p99Us),
    );
    const text = comparisonToText(comparison);
    assert.match(
      text,
      new RegExp(`^\\s+jobs/s\\s+${escaped(formatOps(jobs[0].total.opsPerSec))}\\s+${escaped(formatOps(jobs[1].total.opsPerSec))}\\s+[+-]\\d+\\.\\d%`, 'm'),
    );
    assert.match(text, /^\s+wake-up p99 ms\s+\S+\s+\S+\s+[+-]\d+\.\d%/m);
    const csv = comparisonToCsv(comparison).trim().split('\n');
    assert.ok(csv[0].endsWith(',"not_comparable","group"'), csv[0]);
    const jobLines = csv.filter((line) => line.includes('"jobs_per_sec"'));
    assert.equal(jobLines.length, 2);
    for (const line of jobLines) assert.match(line, /^"","main","workers","total","jobs_per_sec","#[12]",.*,"workers"$/);
    assert.ok(csv.some((line) => line.startsWith('"","main","workers","total","wakeup_p99_us","#2",')));
    // The comparison panel: the same lines under the group's total.
    const panel = buildCompareViewModel([a, b]).lines.filter((line) => line.metric === 'figure');
    assert.deepEqual(
      panel.map((line) => [line.metricLabel, line.cells[0].text, line.cells[1].change !== undefined]),
      [
        ['jobs/s', formatOps(jobs[0].total.opsPerSec), true],
        ['wake-up p99 ms', text.match(/^\s+wake-up p99 ms\s+(\S+)/m)![1], true],
      ],
    );
    // A figure a producer group has not: no line for it.
    assert.ok(!csv.some((line) => /"producers","total","(jobs_per_sec|delivered_per_sec|lost)"/.test(line)));
  });

  it("a subscriber group's delivered/s and lost: lines in the table, metrics in the CSV", async () => {
    const [a, b] = [await run(FANOUT), await run(FANOUT)];
    const comparison = compareRuns([a, b]);
    const subscribers = comparison.rows.find((row) => row.group === 'subscribers' && row.command === 'total')!;
    const loads = [a, b].map((file) => byTest(file.points[0].repeats[0], 'subscribers'));
    assert.deepEqual(
      subscribers.cells.map((cell) => cell?.figures),
      loads.map((load) => ({ 'delivered/s': load.total.opsPerSec, lost: load.pubsub!.lost })),
    );
    const text = comparisonToText(comparison);
    assert.match(text, /^\s+delivered\/s\s+\S+\s+\S+\s+[+-]\d+\.\d%/m);
    assert.match(text, /^\s+lost\s+0\s+0\s+\+0\.0%/m);
    const csv = comparisonToCsv(comparison);
    assert.match(csv, /^"","main","subscribers","total","lost","#2","[^"]+","0","","","0","","","","","","","subscribers"$/m);
    assert.match(csv, /^"","main","subscribers","total","delivered_per_sec","#1",/m);
  });

  it("the CSV's group column: a group's rows and a test's rows of the same name are told apart", async () => {
    const test = await run('### b\nkeys 100\nclients 2\nrequests 500\nGET rbench:cmpg:__key__\n');
    const group = await run('### b\nkeys 100\nload GET\nclients 2\nrequests 500\nGET rbench:cmpg:__key__\n');
    const csv = comparisonToCsv(compareRuns([test, group]))
      .trim()
      .split('\n');
    const ops = csv.filter((line) => line.startsWith('"","main","GET","total","ops",'));
    assert.equal(ops.length, 4, 'two rows (the test and the group), one line per run each');
    assert.deepEqual(
      ops.map((line) => [line.split(',')[5], line.split(',').at(-1)]),
      [
        ['"#1"', '""'],
        ['"#2"', '""'],
        ['"#1"', '"GET"'],
        ['"#2"', '"GET"'],
      ],
    );
  });
});
