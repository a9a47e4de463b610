import assert from 'node:assert/strict';
import { isScenarioFile } from '../../../src/editor/scenarioFiles';

describe('editor: which paths are Test Explorer items', () => {
  const excluded = ['/ws/.rbench/runs', '/ws/.rbench'];

  it('lists a .rbench file', () => {
    assert.equal(isScenarioFile('/ws/bench/cache.rbench', 'file', excluded), true);
  });

  it('never lists a folder, even one named like a scenario file (the runs folder .rbench/ matches **/*.rbench)', () => {
    assert.equal(isScenarioFile('/ws/.rbench', 'directory', excluded), false);
    assert.equal(isScenarioFile('/ws/odd.rbench', 'directory', []), false);
    assert.equal(isScenarioFile('/ws/gone.rbench', 'missing', []), false);
  });

  it('never lists a file inside the runs folder or .rbench/', () => {
    assert.equal(isScenarioFile('/ws/.rbench/runs/copy.rbench', 'file', excluded), false);
    assert.equal(isScenarioFile('/ws/custom-runs/x.rbench', 'file', ['/ws/custom-runs']), false);
    assert.equal(isScenarioFile('/ws/custom-runs-not/x.rbench', 'file', ['/ws/custom-runs']), true);
  });
});
