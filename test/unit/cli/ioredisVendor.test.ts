// Issue 46: ioredis is a file of its own in dist (dist/ioredis-vendor.js, esbuild.mjs), loaded by the commands
// that talk through it. The reply gate (src/redis/replyGuard.ts) must still patch the DataHandler module object
// that this very copy of ioredis reads at every connect: a gate on another copy would let a hostile reply through.
import assert from 'node:assert/strict';
import { basename, join } from 'node:path';
import { repoRoot, runCli, useScratch } from '../../helpers/cli';
import { fakeRedis, type FakeRedis } from '../gates/fakeRedis';

const INFO = '# Server\r\nredis_version:7.2.4\r\nredis_mode:standalone\r\n';

describe('rbench check --url: ioredis from its own file, behind the reply gate', function () {
  this.timeout(60_000);
  const scratch = useScratch();
  let fake: FakeRedis | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('loads dist/ioredis-vendor.js, and the gate refuses a reply declaring 2,000,000 elements at once', async () => {
    // Without the gate, ioredis waits for the 2,000,000 elements until its retries give up ("max retries").
    fake = await fakeRedis(INFO, new Map([['COMMAND', '*2000000\r\n:1\r\n']]));
    const file = scratch.write('s.rbench', '### s\nGET k\n');
    const check = await runCli(['check', file, '--url', fake.url], { cwd: scratch.dir, env: { NODE_DEBUG: 'module' } });
    assert.equal(check.code, 0, check.stdout + check.stderr);
    const loaded = [...check.stderr.matchAll(/^MODULE \d+: load "([^"]+)"/gm)].map((match) => match[1]);
    const dist = [...new Set(loaded.filter((path) => path.startsWith(join(repoRoot, 'dist'))).map((path) => basename(path)))].sort();
    assert.deepEqual(dist, ['cli.js', 'ioredis-vendor.js']);
    assert.match(check.stderr, /could not read the command table of redis:\/\/127\.0\.0\.1:\d+ \(.*\): checking commands against the built-in table instead/);
    assert.doesNotMatch(check.stderr, /max retries/);
    assert.ok(
      fake.commands.some((words) => words[0].toUpperCase() === 'COMMAND'),
      'the check asked the fake server for its command table',
    );
  });
});
