import assert from 'node:assert/strict';
import { scenarioCandidates } from '../../../src/views/scenarioLink';

describe('opening the scenario of a run file', () => {
  const folders = ['/ws/app', '/ws/lib'];

  it('opens a .rbench file inside a workspace folder', () => {
    assert.deepEqual(scenarioCandidates('bench/get.rbench', folders), ['/ws/app/bench/get.rbench', '/ws/lib/bench/get.rbench']);
    assert.deepEqual(scenarioCandidates('/ws/lib/x.rbench', folders), ['/ws/lib/x.rbench']);
  });

  it("opens nothing a stranger's run file points elsewhere", () => {
    assert.deepEqual(scenarioCandidates('/etc/passwd', folders), []);
    assert.deepEqual(scenarioCandidates('../../srv/me/.ssh/id_rsa', folders), []);
    assert.deepEqual(scenarioCandidates('../../srv/me/x.rbench', folders), []);
    assert.deepEqual(scenarioCandidates('/srv/me/x.rbench', folders), []);
    assert.deepEqual(scenarioCandidates('/ws/application/x.rbench', folders), [], 'a sibling folder with a common prefix is not inside');
  });
});
