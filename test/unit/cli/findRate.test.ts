// `find rate` against a server whose capacity the test sets: a real redis-server behind a token-bucket proxy
// that passes a fixed number of commands per second. The answer must be confirmed and near that capacity; a
// capacity that drops once the search has its answer must not be reported as held.
import assert from 'node:assert/strict';
import { rateCurve, rateCurveText } from '../../../src/results/rateCurve';
import { CONFIRM_MIN_MS, rateOfProbeLabel, rateSearchOutcome } from '../../../src/results/rateSearch';
import { runScenario } from '../../../src/runner/runScenario';
import { checkText } from '../../../src/scenario';
import { runCli, useScratch } from '../../helpers/cli';
import { startRateLimitProxy, type RateLimitProxy } from '../../helpers/rateLimitProxy';
import { useRedisServer } from '../../helpers/redis';

const CAPACITY = 3000;
// Over capacity the proxy's queue grows for as long as the load lasts: rate r holds p90 under 250 ms while
// (r / capacity - 1) < 0.25 s / (0.9 × the run's length): up to ~1.28× capacity for a 1 s probe, but only ~1.06×
// for a 5 s rerun. So short probes overshoot and the reruns bring the answer back near the capacity. p90, not
// p99, and a limit far above a tick of the proxy: on a shared machine a scheduling stall of 100 ms is common.
const SCENARIO = '### capacity\nfind rate where p90 < 250ms from 400/s to 12800/s\nduration 1s\nwarmup 0s\nclients 4\nGET k\n';

describe('find rate against a server of known capacity', function () {
  this.timeout(150_000);
  const server = useRedisServer();
  const scratch = useScratch();
  let proxy: RateLimitProxy;
  beforeEach(async () => {
    proxy = await startRateLimitProxy(server(), CAPACITY);
  });
  afterEach(async () => {
    await proxy.close();
  });

  it('rbench run finds a confirmed rate near the capacity and prints the bracket', async () => {
    const file = scratch.write('capacity.rbench', SCENARIO);
    const result = await runCli(['run', '--yes', file, '--url', proxy.url], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const [run] = scratch.runFiles();
    const outcome = rateSearchOutcome(run.plan, run.points)!;
    const summary = JSON.stringify(outcome.probes.map((p) => [p.label, p.passed, p.valueUs]));
    assert.ok(outcome.confirmation === 'held' || outcome.confirmation === 'stepped-down', `${outcome.confirmation}: ${summary}`);
    const found = outcome.foundRate!;
    assert.ok(found > CAPACITY * 0.7 && found < CAPACITY * 1.15, `found ${found}/s for a capacity of ${CAPACITY}/s: ${summary}`);
    assert.ok(
      outcome.failedRate !== undefined && outcome.failedRate > found && outcome.failedRate < CAPACITY * 1.5,
      `failed at ${outcome.failedRate}: ${summary}`,
    );
    // The rerun at the found rate ran for at least 5 s and held; the step above it was rerun too (and failed).
    const reruns = run.points.filter((point) => point.label.startsWith('confirm '));
    const atFound = reruns.find((point) => rateOfProbeLabel(point.label) === found)!;
    assert.ok(atFound.repeats[0][0].durationMs >= CONFIRM_MIN_MS * 0.9, `the rerun lasted ${atFound.repeats[0][0].durationMs} ms`);
    assert.ok(
      outcome.probes.some((p) => p.confirm && !p.passed && p.rate === outcome.failedRate) ||
        outcome.probes.some((p) => !p.passed && p.rate === outcome.failedRate),
      summary,
    );
    const sentence = new RegExp(`Highest rate with p90 < 250\\.0 ms: ${found.toLocaleString('en-US')}/s, confirmed by a 5\\.0s rerun`);
    assert.match(result.stdout, sentence);
    assert.match(result.stdout, new RegExp(`${outcome.failedRate.toLocaleString('en-US')}/s failed, so the limit lies between the two`));
    assert.match(result.stdout, /held \(rerun\)/);
  });

  it('a capacity that drops once the search has its answer: the rate does not hold and is not reported as found', async () => {
    const plan = checkText(SCENARIO).scenarios[0];
    let dropped = 0;
    const run = await runScenario(plan, {
      connection: { host: proxy.host, port: proxy.port, resp: 2, connectTimeoutMs: 2000 },
      targetDisplay: proxy.url,
      local: false,
      source: SCENARIO,
      onProgress: (event) => {
        // The first rerun starts: from now on the server takes 20% less than the rate the search found.
        if (event.kind !== 'load-start' || dropped || !event.at.point.startsWith('confirm ')) return;
        dropped = rateOfProbeLabel(event.at.point) * 0.8;
        proxy.setRate(dropped);
      },
    });
    assert.equal(run.status, 'complete', run.error);
    const outcome = rateSearchOutcome(run.plan, run.points)!;
    const summary = JSON.stringify(outcome.probes.map((p) => [p.label, p.passed, p.valueUs]));
    assert.ok(dropped > 0, summary);
    assert.ok(outcome.confirmation === 'stepped-down' || outcome.confirmation === 'not-held', `${outcome.confirmation}: ${summary}`);
    assert.ok(outcome.foundRate === undefined || outcome.foundRate < dropped * 1.1, `found ${outcome.foundRate} with ${dropped}/s left: ${summary}`);
    assert.match(rateCurveText(rateCurve(run)!), /did not hold/);
  });
});
