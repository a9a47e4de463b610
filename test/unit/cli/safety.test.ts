// `rbench run` with files written by a stranger: remote targets, admin commands, environment values in
// traffic, a runs folder that cannot be written, and the CLI killed while its throwaway server runs.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { useRedisServer } from '../../helpers/redis';
import { runCli, startCli, useScratch } from '../../helpers/cli';
import { startLocalServer } from '../../../src/redis/localServer';
import type { ServerDirective } from '../../../src/scenario/plan';

const useRedisServerNow = (config: ServerDirective[]) => startLocalServer({ config });

function tryConnect(port: number): Promise<boolean> {
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 });
  // A refused connection is the answer asked for, not an unhandled error event to print.
  client.on('error', () => undefined);
  return client.connect().then(
    () => (client.disconnect(), true),
    () => (client.disconnect(), false),
  );
}

async function until(condition: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

describe('rbench run: what a shared file may not do', function () {
  this.timeout(60_000);
  const server = useRedisServer();
  const scratch = useScratch();

  it('does not run against a server that the file names without --yes, listing what it would do', async () => {
    // 192.0.2.1 is TEST-NET: nothing is contacted, the refusal comes first.
    const file = scratch.write('remote.rbench', 'target redis://192.0.2.1:6379\n### remote\nrequests 10\nSET k v\n');
    const result = await runCli(['run', file], { cwd: scratch.dir });
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /remote\.rbench: "remote" was not run on redis:\/\/192\.0\.2\.1:6379: rbench asks before any run on a server other than its throwaway one\. What it would do:/,
    );
    assert.match(
      result.stderr,
      /\n {2}Target: redis:\/\/192\.0\.2\.1:6379 \(from the file: the file names it \(its target line\)\)\n {2}Connects to: 192\.0\.2\.1:6379\n {2}Writes: SET\n {2}Writes keys matching: k\nTo run it as listed, pass --yes\.\n/,
    );
    assert.deepEqual(scratch.runFiles(), []);
  });

  it('asks (refuses without --yes) before writes on your own loopback --url, and runs with --yes', async () => {
    const file = scratch.write('writes.rbench', '### writes\nrequests 50\nSET consent:k v\nGET consent:k\n');
    const refused = await runCli(['run', file, '--url', server().url], { cwd: scratch.dir });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /"writes" was not run on redis:\/\/127\.0\.0\.1:\d+/);
    assert.match(
      refused.stderr,
      /Target: redis:\/\/127\.0\.0\.1:\d+ \(yours: you chose it \(--url\)\)\n {2}Connects to: 127\.0\.0\.1:\d+\n {2}Reads: GET\n {2}Writes: SET\n {2}Writes keys matching: consent:k\nTo run it as listed, pass --yes\./,
    );
    assert.deepEqual(scratch.runFiles(), []);
    const keys = await new Redis(server().url).pipeline().exists('consent:k').quit().exec();
    assert.equal(keys?.[0]?.[1], 0, 'nothing was written');

    const allowed = await runCli(['run', file, '--url', server().url, '--yes'], { cwd: scratch.dir });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(scratch.runFiles().length, 1);

    const reads = scratch.write('reads.rbench', '### reads\nrequests 50\nGET consent:k\n');
    const read = await runCli(['run', reads, '--url', server().url], { cwd: scratch.dir });
    assert.equal(read.code, 0, `reads on your own --url need no --yes: ${read.stderr}`);
  });

  it('names the other flags a run needed in its refusal (--allow-admin, --allow-env)', async () => {
    const file = scratch.write('flags.rbench', '### flags\nrequests 10\nCONFIG GET maxmemory\nSET k ${env:RBENCH_FLAG}\n');
    const refused = await runCli(['run', file, '--url', server().url, '--allow-admin', '--allow-env', 'RBENCH_FLAG'], {
      cwd: scratch.dir,
      env: { RBENCH_FLAG: 'v' },
    });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /Sends environment variable RBENCH_FLAG: in commands \(yours\)/);
    assert.match(refused.stderr, /To run it as listed, pass --yes --allow-admin --allow-env RBENCH_FLAG\./);
  });

  it('refuses admin commands unless the user passes --allow-admin', async () => {
    const file = scratch.write('admin.rbench', '### admin\nrequests 10\nCONFIG GET maxmemory\n');
    const refused = await runCli(['run', file, '--url', server().url], { cwd: scratch.dir });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /sends CONFIG GET, an admin command.*--allow-admin/);
    assert.deepEqual(scratch.runFiles(), []);
    const allowed = await runCli(['run', '--yes', file, '--url', server().url, '--allow-admin'], { cwd: scratch.dir });
    assert.equal(allowed.code, 0, allowed.stderr);
  });

  it('sends no environment value to the server (seen with MONITOR) unless the user allows the name', async () => {
    const secret = 'ghp_do_not_send_' + Date.now();
    const client = new Redis(server().url);
    const monitor = await client.monitor();
    const seen: string[] = [];
    monitor.on('monitor', (_time: string, args: string[]) => seen.push(args.join(' ')));
    try {
      const file = scratch.write('exfil.rbench', '### exfil\nrequests 20\nECHO ${env:RBENCH_TEST_TOKEN}\n');
      const refused = await runCli(['run', file, '--url', server().url], { cwd: scratch.dir, env: { RBENCH_TEST_TOKEN: secret } });
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /exfil\.rbench:3:6: error: the value of the environment variable RBENCH_TEST_TOKEN would be sent to the server/);
      assert.ok(!(refused.stdout + refused.stderr).includes(secret));

      const allowed = await runCli(['run', '--yes', file, '--url', server().url, '--allow-env', 'RBENCH_TEST_TOKEN'], {
        cwd: scratch.dir,
        env: { RBENCH_TEST_TOKEN: secret },
      });
      assert.equal(allowed.code, 0, allowed.stderr);
      await until(() => seen.some((line) => line.includes(secret)), 3000);
      assert.equal(seen.filter((line) => line.includes(secret)).length, 20, 'the allowed value is sent, once per request');
      const [run] = scratch.runFiles();
      assert.ok(!JSON.stringify(run).includes(secret), 'but the run file keeps the placeholder');
      assert.match(JSON.stringify(run.plan), /\$\{env:RBENCH_TEST_TOKEN\}/);
    } finally {
      monitor.disconnect();
      client.disconnect();
    }
  });

  it('prints the table when the runs folder cannot be written, exits 4, removes the temp file and runs the next scenario', async () => {
    scratch.write('blocker', 'a file where the runs folder should be');
    const file = scratch.write('two.rbench', '### first\nrequests 500\nPING\n### second\nrequests 700\nPING\n');
    const result = await runCli(['run', '--yes', file, '--url', server().url, '--out', 'blocker/runs'], { cwd: scratch.dir });
    assert.equal(result.code, 4, result.stderr);
    assert.doesNotMatch(result.stderr, /internal error|\n\s+at /);
    assert.match(result.stdout, /^PING\s+500\s/m);
    assert.match(result.stdout, /^PING\s+700\s/m, 'the second scenario still ran');
    const errors = result.stderr.split('\n').filter((line) => line.startsWith('error: the run file could not be saved in blocker/runs'));
    assert.equal(errors.length, 2, result.stderr);
    assert.match(errors[0], /a file stands where a folder is needed \(ENOTDIR\)|EEXIST/);
    assert.deepEqual(readdirSync(scratch.dir).sort(), ['blocker', 'two.rbench']);
  });

  it('keeps a password from ${env:REDIS_URL} out of the output, the run file, --json and --csv, also when it is wrong or the URL is invalid', async () => {
    const password = 'cli-Pw-71c0ffee';
    const secured = useRedisServerNow([{ name: 'requirepass', args: [password] }]);
    const local = await secured;
    try {
      const file = scratch.write('url.rbench', 'target ${env:REDIS_URL}\n### url\nrequests 200\nSET k v\n');
      const outputs: string[] = [];
      for (const url of [
        `redis://:${password}@127.0.0.1:${local.port}`,
        `redis://:${password}x@127.0.0.1:${local.port}`,
        `redis://:${password}@127.0.0.1:notaport`,
      ]) {
        // --allow-env: a file alone cannot put an environment value into the target (the environment rule).
        const result = await runCli(['run', '--yes', file, '--allow-env', 'REDIS_URL', '--json', 'all.json', '--csv', 'all.csv'], {
          cwd: scratch.dir,
          env: { REDIS_URL: url },
        });
        outputs.push(`exit ${result.code}`, result.stdout, result.stderr);
        for (const name of ['all.json', 'all.csv']) outputs.push(existsSync(join(scratch.dir, name)) ? readFileSync(join(scratch.dir, name), 'utf8') : '');
      }
      assert.match(outputs.join('\n'), /exit 0[^]*exit 3[^]*exit 2/, outputs.join('\n'));
      const runFiles = scratch.runFiles();
      assert.equal(runFiles.length, 2, 'the good and the wrong password ran');
      assert.equal(runFiles[0].plan.target.url, `redis://127.0.0.1:${local.port}`);
      for (const text of [...outputs, ...runFiles.map((run) => JSON.stringify(run))]) assert.ok(!text.includes(password), text);
    } finally {
      await local.stop();
    }
  });

  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`stops its throwaway server and removes its folder when the CLI gets ${signal}`, async () => {
      const temp = mkdtempSync(join(tmpdir(), 'rbench-kill-'));
      try {
        const file = scratch.write('long.rbench', '### long\nclients 2\nduration 60s\nPING\n');
        const cli = startCli(['run', file], { cwd: scratch.dir, env: { TMPDIR: temp } });
        await cli.waitFor(/throwaway redis-server \(redis:\/\/127\.0\.0\.1:\d+\)/);
        const port = Number(/throwaway redis-server \(redis:\/\/127\.0\.0\.1:(\d+)\)/.exec(cli.output())?.[1]);
        assert.equal(await tryConnect(port), true, 'the server answers while the run goes on');
        const servers = readdirSync(temp).filter((name) => name.startsWith('rbench-redis-'));
        assert.equal(servers.length, 1, 'one throwaway server folder while it runs');
        cli.kill(signal);
        await cli.done;
        assert.ok(await until(async () => !(await tryConnect(port)), 10_000), 'the server is gone');
        assert.ok(await until(() => !existsSync(join(temp, servers[0])), 10_000), 'its folder is removed');
      } finally {
        rmSync(temp, { recursive: true, force: true });
      }
    });
  }
});
