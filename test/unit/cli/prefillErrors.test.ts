// Issue 41, seen 11: a run that ended `complete-with-errors` because its prefill failed (an `FT.CREATE` the
// server answered "Index already exists") exited 0, where the README promises 1, and its reason read
// "Index 1" (the error's first word, its kind, and a count): the server's own words were never shown.
// A real redis-server 7.0 with the RediSearch module (test/helpers/modules.ts).
import assert from 'node:assert/strict';
import { runCli, useScratch } from '../../helpers/cli';
import { REDISEARCH } from '../../helpers/modules';
import { useRedisServer } from '../../helpers/redis';
import { runVerdict } from '../../../src/results/verdict';

describe('rbench run: a prefill that ends with errors (issue 41)', function () {
  this.timeout(60_000);
  const server = useRedisServer({ modules: [REDISEARCH] });
  const scratch = useScratch();

  it('exits 1 and quotes the server: `FT.CREATE: Index already exists… (1×)`; the Testing view fails the run too', async () => {
    // The second FT.CREATE meets the index the first made: half the prefill's requests fail.
    const file = scratch.write(
      'index.rbench',
      `### index\nclients 1\nprefill index\nrequests 2\nFT.CREATE idx SCHEMA f TEXT\nphase main\nrequests 500\nHSET doc:__key__ f hello\n`,
    );
    const result = await runCli(['run', '--yes', file, '--url', server().url, '-q'], { cwd: scratch.dir });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stderr, /complete-with-errors {2}prefill FT\.CREATE: 50\.0% of requests failed \(FT\.CREATE: Index already exists[^()]*\(1×\)\)/);
    assert.doesNotMatch(result.stderr, /\(Index 1\)/);
    const [run] = scratch.runFiles();
    assert.equal(run.status, 'complete-with-errors');
    const verdict = runVerdict(run);
    assert.equal(verdict.kind, 'failed');
    assert.match(verdict.kind === 'failed' ? (verdict.errors ?? '') : '', /Index already exists/);
  });
});
