// The probe of a module command's own calls (src/runner/nestedCalls.ts): when it cannot run, the test's foreign
// load is not judged — without it a module's HGETALLs inside FT.SEARCH would read as another client's load.
import assert from 'node:assert/strict';
import { probeNestedCalls } from '../../../src/runner/nestedCalls';
import type { CommandTally } from '../../../src/redis/commandTally';
import { planOf } from '../editor/fixtures';

describe('nested calls: the probe', () => {
  const plan = planOf('### search\nrequests 10\nFT.SEARCH idx hello\n');
  const [phase] = plan.points[0].phases;
  const [test] = phase.tests;
  const flags = { modules: new Set(['ft.search']), readOnly: new Set(['ft.search']) };
  const tally = { mark: () => 0 } as unknown as CommandTally;

  it('a probe that fails says so and leaves foreign load unjudged, instead of counting the module’s calls as foreign', async () => {
    const learned = await probeNestedCalls(phase, test, flags, {
      connection: { host: '127.0.0.1', port: 1, resp: 2, connectTimeoutMs: 500 },
      client: 'fast',
      clusterDetected: false,
      readCounters: () => Promise.reject(new Error('Connection refused (127.0.0.1:1)\nstack line')),
      tally,
    });
    assert.equal(learned.nested, undefined);
    assert.equal(
      learned.inexact,
      "the probe of the module commands' own calls (ft.search) failed (Connection refused (127.0.0.1:1)): foreign load is not judged",
    );
  });

  it('a test of core commands only is never probed', async () => {
    const core = planOf('### get\nrequests 10\nGET k\n').points[0].phases[0];
    const learned = await probeNestedCalls(core, core.tests[0], flags, {
      connection: { host: '127.0.0.1', port: 1, resp: 2, connectTimeoutMs: 500 },
      client: 'fast',
      clusterDetected: false,
      readCounters: () => Promise.reject(new Error('never read')),
      tally,
    });
    assert.deepEqual(learned, {});
  });
});
