// Compare with client groups (issue 43), on run files of real runs: rows pair by (group, command), never a
// group's with another group's or with a test's of the same name, and a group that one run lacks is said so.
import assert from 'node:assert/strict';
import { compareRuns } from '../../../src/results/compare';
import { comparisonToText } from '../../../src/results/compareFormat';
import { runOnUserServer } from '../../helpers/userServerRun';
import { useRedisServer } from '../../helpers/redis';

const rowIds = (rows: ReturnType<typeof compareRuns>['rows']) =>
  rows.map((row) => `${row.group !== undefined ? 'group ' : ''}${row.test} ${row.command} [${row.cells.map((cell) => (cell ? 'x' : '-')).join('')}]`);

describe('compare: client groups', function () {
  this.timeout(90_000);
  const server = useRedisServer();
  const run = (text: string) => runOnUserServer(server(), text);

  it('pairs rows by group and command; a group in one run only is listed as such', async () => {
    const a = await run(
      '### a\nkeys 100\nload readers\nclients 2\nrequests 2000\nGET rbench:cmpg:__key__\nload writers background\nclients 1\nrequests 500\nSET rbench:cmpg:__key__ v\n',
    );
    const b = await run(
      '### a\nkeys 100\nload readers\nclients 4\nrequests 2000\nGET rbench:cmpg:__key__\nload scans background\nclients 1\nrequests 300\nSCAN 0 COUNT 10\n',
    );
    for (const file of [a, b]) assert.equal(file.status, 'complete', file.error);
    const comparison = compareRuns([a, b]);
    assert.deepEqual(rowIds(comparison.rows), [
      'group readers total [xx]',
      'group readers GET [xx]',
      'group writers total [x-]',
      'group writers SET [x-]',
      'group scans total [-x]',
      'group scans SCAN [-x]',
    ]);
    const texts = comparison.differences.map((difference) => difference.text);
    assert.ok(texts.includes('group writers: only in #1'), texts.join('\n'));
    assert.ok(texts.includes('group scans: only in #2'), texts.join('\n'));
    assert.ok(texts.includes('group readers: clients: 2 → 4'), texts.join('\n'));
    assert.match(comparisonToText(comparison), /^group readers › GET\s+ops\/s/m);
  });

  it("never pairs a group's rows with a test's of the same name", async () => {
    const test = await run('### b\nkeys 100\nclients 2\nrequests 1000\nGET rbench:cmpg:__key__\n');
    const group = await run('### b\nkeys 100\nload GET\nclients 2\nrequests 1000\nGET rbench:cmpg:__key__\n');
    for (const file of [test, group]) assert.equal(file.status, 'complete', file.error);
    assert.deepEqual(rowIds(compareRuns([test, group]).rows), ['GET total [x-]', 'group GET total [-x]', 'group GET GET [-x]']);
  });
});
