// Issue 44: `rbench capture --raw FILE` keeps the MONITOR sample as MONITOR prints it, and `rbench replay FILE`
// sends it back. Real servers; the commands are sent once the capture's MONITOR client is on the server's
// CLIENT LIST, so the sample holds all of them whatever the machine's speed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { runCli, startCli, useScratch } from '../../helpers/cli';
import { useRedisServer, withRedis } from '../../helpers/redis';
import { parseReplayText } from '../../../src/capture/replayFile';

describe('rbench capture --raw (issue 44)', function () {
  this.timeout(120_000);
  const server = useRedisServer();
  const scratch = useScratch();

  it('keeps every command sent during the window, without its own, and the file replays to the same data', async () => {
    const url = `redis://${server().host}:${server().port}`;
    const capture = startCli(['capture', '--url', url, '--duration', '4s', '--monitor', '--out', 'w.rbench', '--raw', 'raw.txt', '--scan-keys', '10'], {
      cwd: scratch.dir,
    });
    // No ready check: this client sends nothing but what the test says.
    const redis = new Redis({ host: server().host, port: server().port, enableReadyCheck: false });
    try {
      for (let i = 0; i < 400 && !/cmd=monitor/.test((await redis.client('LIST')) as string); i++) await sleep(25);
      for (let i = 0; i < 100; i++) {
        await redis.set(`raw:${i}`, `value "${i}"\n\x01 end`);
        await redis.hset('raw:h', `f${i}`, String(i));
      }
      await redis.incrby('raw:n', 5);
    } finally {
      redis.disconnect();
    }
    const result = await capture.done;
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stderr + result.stdout, /Wrote raw\.txt: \d+ MONITOR lines/);
    const file = parseReplayText(readFileSync(join(scratch.dir, 'raw.txt'), 'utf8'), 'raw.txt');
    assert.equal(file.kind, 'monitor');
    const names = file.commands.map((command) => command.args[0].toUpperCase());
    const count = (name: string) => names.filter((n) => n === name).length;
    assert.equal(count('SET'), 100);
    assert.equal(count('HSET'), 100);
    assert.equal(count('INCRBY'), 1);
    assert.equal(count('INFO'), 0, "the capture's own INFO is left out");

    // Admin commands (the CLIENT LIST above) never reach MONITOR: nothing in the sample needs --allow-admin.
    assert.equal(count('CLIENT'), 0);
    // Replayed into another database: the same values, escapes and all.
    const replay = await runCli(['replay', 'raw.txt', '--url', `${url}/9`, '--yes'], { cwd: scratch.dir });
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    await withRedis(server(), async (redis) => {
      await redis.select(9);
      assert.equal(await redis.get('raw:42'), 'value "42"\n\x01 end');
      assert.equal(await redis.hlen('raw:h'), 100);
      assert.equal(await redis.get('raw:n'), '5');
    });
  });

  it('--raw with --no-monitor is a plain refusal', async () => {
    const result = await runCli(['capture', '--url', 'redis://127.0.0.1:1', '--no-monitor', '--raw', 'x.txt'], { cwd: scratch.dir });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--raw keeps the MONITOR sample: it cannot be combined with --no-monitor/);
  });
});
