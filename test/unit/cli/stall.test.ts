// `rbench run` against a server that stops answering for good (SIGSTOP, resumed only after the CLI has
// exited): the stall limit ends the test, the run file is saved, the reason is printed and the exit code is 1.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import Redis from 'ioredis';
import { startCli, type CliResult, useScratch } from '../../helpers/cli';
import { useRedisServer, waitForCalls } from '../../helpers/redis';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('rbench run: a server that stops answering for good', function () {
  this.timeout(90_000);
  const server = useRedisServer();
  const scratch = useScratch();

  for (const client of ['fast', 'ioredis'] as const) {
    it(`${client}: \`stall-timeout 2s\` ends the count run: complete-with-errors, the reason printed, exit 1`, async () => {
      const file = scratch.write('stall.rbench', `### stall\nclient ${client}\nclients 4\nrequests 50M\nstall-timeout 2s\nSET k:__key__ __value__\n`);
      // Counts from zero, whatever earlier tests sent to this server.
      const reset = new Redis({ host: server().host, port: server().port });
      await reset.config('RESETSTAT').finally(() => reset.disconnect());
      const cli = startCli(['run', '--yes', file, '--url', server().url], { cwd: scratch.dir });
      let frozenAt: number | undefined;
      let result: CliResult;
      try {
        // Freeze once the load is under way (the server has answered some thousands of SETs).
        const redis = new Redis({ host: server().host, port: server().port });
        try {
          await waitForCalls(redis, 'set', 5000, 500);
        } finally {
          redis.disconnect();
        }
        process.kill(server().pid, 'SIGSTOP');
        frozenAt = performance.now();
        // Bounded: a CLI that waits forever fails here instead of hanging the suite.
        result = await Promise.race([
          cli.done,
          sleep(45_000).then(() => {
            cli.kill('SIGKILL');
            throw new Error(`the CLI did not end 45 s into the freeze; output so far:\n${cli.output()}`);
          }),
        ]);
      } finally {
        if (frozenAt !== undefined) process.kill(server().pid, 'SIGCONT');
      }
      const endedMs = performance.now() - frozenAt!;
      assert.ok(endedMs < 40_000, `the CLI ended ${Math.round(endedMs)} ms into the freeze`);
      assert.equal(result.code, 1, result.stdout + result.stderr);
      assert.match(
        result.stderr,
        /complete-with-errors .*the server sent no reply for 2(\.\d)? s with 4 requests outstanding \(now TIMEOUT errors\); [\d,]+ of 50,000,000 planned requests sent/,
      );
      const [run] = scratch.runFiles();
      const load = run.points[0].repeats[0][0];
      assert.equal(load.status, 'complete-with-errors');
      assert.equal(load.windowKind, 'first-send-to-stall');
      assert.equal(load.total.errorsByKind.TIMEOUT, 4);
      assert.ok(load.total.latency.maxUs >= 2_000_000, `max ${load.total.latency.maxUs} µs`);
    });
  }
});
