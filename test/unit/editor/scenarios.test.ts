import assert from 'node:assert/strict';
import { watchHostLag } from '../../../src/editor/hostLag';
import { blockingErrors, describeErrors, scenarioAtLine } from '../../../src/editor/scenarios';
import { checkText, parseDocument } from '../../../src/scenario';

const TEXT = ['clients 2', '', '### one', 'GET k', '', '### two', 'pipline 4', 'GET k', '### three', 'PING'].join('\n');

describe('editor: the scenario under the cursor', () => {
  const { scenarios } = parseDocument(TEXT);

  it('is the block holding the line, or the first above the first header', () => {
    assert.deepEqual(
      [0, 2, 4, 5, 7, 8, 9].map((line) => scenarioAtLine(scenarios, line)?.name),
      ['one', 'one', 'one', 'two', 'two', 'three', 'three'],
    );
    assert.equal(scenarioAtLine([], 0), undefined);
  });
});

describe('editor: errors that stop a run', () => {
  const resolved = checkText(TEXT, { env: {} });

  it('are those in the scenario’s own block', () => {
    assert.deepEqual(blockingErrors(resolved, resolved.scenarios[0]), []);
    const errors = blockingErrors(resolved, resolved.scenarios[1]);
    assert.equal(errors.length, 1);
    assert.match(describeErrors(errors), /^line 7: .*pipline/);
    assert.deepEqual(blockingErrors(resolved, resolved.scenarios[2]), []);
  });

  it('include the file-level lines every scenario shares', () => {
    const shared = checkText('pipline 4\n### one\nGET k\n### two\nPING\n', { env: {} });
    assert.equal(blockingErrors(shared, shared.scenarios[1]).length, 1);
  });
});

describe('editor: host event-loop lag', () => {
  it('sees a blocked event loop and not an idle one', async () => {
    const idle = watchHostLag();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const idleLag = idle.stop();
    assert.ok(idleLag.p99Ms < 40, `idle lag p99 ${idleLag.p99Ms} ms`);

    const busy = watchHostLag();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const start = Date.now();
    while (Date.now() - start < 120) {
      // block the event loop
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    const busyLag = busy.stop();
    assert.ok(busyLag.maxMs >= 80, `a 120 ms block should show, max was ${busyLag.maxMs} ms`);
  });
});
