// `rbench capture … --verify` as a user runs it (dist/cli.js): the file is written and checks clean, and the
// reproduction on a throwaway server agrees with the capture and with the source's counters.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { useRedisServer, withRedis } from '../../helpers/redis';
import { populate, startTraffic } from './knownWorkload';

describe('rbench capture --verify (CLI, real servers)', function () {
  this.timeout(120_000);
  const server = useRedisServer();
  let folder: string;
  before(() => (folder = mkdtempSync(join(tmpdir(), 'rbench-capture-'))));
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('writes a scenario that checks clean, and the reproduction agrees with the capture', async () => {
    await withRedis(server(), populate);
    const traffic = startTraffic(server(), 8);
    let result;
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      result = await runCli(
        ['capture', '--url', `redis://${server().host}:${server().port}`, '--duration', '3s', '--out', 'w.rbench', '--verify', '--monitor'],
        {
          cwd: folder,
        },
      );
    } finally {
      await traffic.stop();
    }
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const text = readFileSync(join(folder, 'w.rbench'), 'utf8');
    assert.doesNotMatch(text, /secretvalue|pageviews/);
    const check = await runCli(['check', 'w.rbench'], { cwd: folder });
    assert.equal(check.code, 0, check.stdout + check.stderr);
    // Each command's share, captured against reproduced (the replay's counters), within 3 points.
    for (const name of ['GET', 'SET', 'HINCRBY']) {
      const row = new RegExp(`^${name} share\\s+([\\d.]+)%\\s+([\\d.]+)%`, 'm').exec(result.stdout);
      assert.ok(row, result.stdout);
      assert.ok(Math.abs(Number(row[1]) - Number(row[2])) < 3, result.stdout);
    }
    assert.match(result.stdout, /^rate\s+[\d,]+\/s\s+[\d,]+\/s/m);
    assert.match(result.stdout, /Largest difference: /);
    // Against the source's counters: each command's rate and each pattern's keys, within 5% (else exit 1).
    assert.match(result.stdout, /^Against the source's counters \(outside MONITOR\):/m);
    for (const row of ['GET rate', 'SET rate', 'HINCRBY rate', 'keys user:__key__:profile', 'keys stats:__key__'])
      assert.match(result.stdout, new RegExp(`^${row}\\s+[\\d,/s]+\\s+[\\d,/s]+\\s+\\d+\\.\\d%$`, 'm'));
    assert.doesNotMatch(result.stderr, /mismatch: /);
  });

  it('refuses bad options with a plain message', async () => {
    const noUrl = await runCli(['capture', '--duration', '3s'], { cwd: folder });
    assert.equal(noUrl.code, 2);
    assert.match(noUrl.stderr, /name the server to capture with --url/);
    const badDuration = await runCli(['capture', '--url', 'redis://127.0.0.1:1', '--duration', 'soon'], { cwd: folder });
    assert.equal(badDuration.code, 2);
    assert.match(badDuration.stderr, /--duration soon: `soon` is not a duration/);
    const unreachable = await runCli(['capture', '--url', 'redis://127.0.0.1:1', '--duration', '1s', '--out', 'none.rbench'], { cwd: folder });
    assert.equal(unreachable.code, 3);
    assert.match(unreachable.stderr, /cannot connect to 127\.0\.0\.1:1/);
    assert.doesNotMatch(unreachable.stderr, /\n\s+at /);
  });
});
