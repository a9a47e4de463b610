// Two runs on throwaway servers: each server had its own free port, which is not a different setup.
import assert from 'node:assert/strict';
import { compareRuns } from '../../../src/results/compare';
import { setGetRun } from './fixtures';

function throwaway(port: number, options: { serverVersion?: string; cores?: number } = {}) {
  const run = setGetRun({ set: { ops: 1000, p99: 500 }, ...options });
  run.target.display = `redis://127.0.0.1:${port}`;
  run.target.local = true;
  return run;
}

const setupTexts = (runs: ReturnType<typeof throwaway>[]) =>
  compareRuns(runs)
    .differences.filter((d) => d.kind === 'setup')
    .map((d) => d.text);

describe('compare: throwaway servers', () => {
  it('compares two throwaway runs on different ports as the same setup', () => {
    assert.deepEqual(setupTexts([throwaway(40123), throwaway(40555)]), []);
  });

  it('still shows a real difference between throwaway runs: version, machine', () => {
    assert.deepEqual(setupTexts([throwaway(40123), throwaway(40555, { serverVersion: '7.4.1' })]), ['server version: 7.2.4 → 7.4.1']);
    assert.deepEqual(setupTexts([throwaway(40123), throwaway(40555, { cores: 2 })]), ['machine: Test CPU (8 cores) → Test CPU (2 cores)']);
  });

  it('tells a throwaway server from a real target', () => {
    const real = setGetRun({ set: { ops: 1000, p99: 500 } });
    assert.deepEqual(setupTexts([throwaway(6379), real]), ['target: throwaway redis-server → redis://127.0.0.1:6379']);
  });
});
