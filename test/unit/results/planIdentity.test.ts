// One plan-equality rule, on settings only, for merge, the regression gate and compare (src/results/planIdentity.ts).
import assert from 'node:assert/strict';
import { compareRuns, plansMatch } from '../../../src/results/compare';
import { planDifference, samePlan } from '../../../src/results/planIdentity';
import { runGate } from '../../../src/results/regression';
import { checkText, type ScenarioPlan } from '../../../src/scenario';
import { loadResult, makeRun } from '../compare/fixtures';

const SCENARIO = '### s\nclients 4\nrequests 1000\nexpect p99 < 5ms\nSET k:__key__ v\n';

function planOf(text: string): ScenarioPlan {
  return checkText(text).scenarios[0];
}

describe('plan identity: settings only', () => {
  it('a comment line, a trailing comment, the name, the expectations and the clean-up are not settings', () => {
    const plan = planOf(SCENARIO);
    for (const text of [
      `# a comment line added on one machine\n${SCENARIO}`,
      SCENARIO.replace('clients 4\n', 'clients 4    # per machine\n'),
      SCENARIO.replace('### s', '### renamed'),
      SCENARIO.replace('expect p99 < 5ms', 'expect p99 < 9ms'),
      SCENARIO.replace('SET', 'cleanup k:*\nSET'),
    ]) {
      assert.equal(planDifference(planOf(text), plan), undefined, text);
    }
    assert.ok(samePlan(planOf(`\n\n${SCENARIO}`), plan));
  });

  it("the key positions a server's command table gave the runner are no setting: a baseline from before them is the same plan", () => {
    const plan = planOf(SCENARIO);
    const withKeys = structuredClone(plan);
    withKeys.points[0].phases[0].tests[0].commands[0].command.keys = [0];
    assert.equal(planDifference(withKeys, plan), undefined);
  });

  it('a changed setting differs, named by its place in the plan', () => {
    const plan = planOf(SCENARIO);
    assert.equal(planDifference(planOf(SCENARIO.replace('clients 4', 'clients 8')), plan), 'points[0].phases[0].load.clients: 8 vs 4');
    assert.equal(
      planDifference(planOf(SCENARIO.replace('SET k:__key__ v', 'SET k:__key__ w')), plan),
      'points[0].phases[0].tests[0].commands[0].command.args[1][0]: "w" vs "v"',
    );
    assert.match(planDifference(planOf(SCENARIO.replace('SET', 'value-fill x\nSET')), plan)!, /^points\[0\]\.phases\[0\]\.value/);
  });

  it('compare and the gate follow the same rule: a setting compare does not list still makes the plans differ', () => {
    const results = { '': [[loadResult('main', 'SET', { ops: 10_000, p99: 1000 })]] };
    const baseline = makeRun({ text: SCENARIO, id: 'before', results });
    const commented = makeRun({ text: `# moved a line down\n${SCENARIO}`, id: 'after', results });
    assert.ok(plansMatch(compareRuns([baseline, commented])));
    assert.deepEqual(runGate(baseline, commented, { maxRegressionPercent: 10 }).regressions, []);

    const stall = makeRun({ text: SCENARIO.replace('SET', 'stall-timeout 3s\nSET'), id: 'after', results });
    const comparison = compareRuns([baseline, stall]);
    assert.ok(!plansMatch(comparison));
    assert.deepEqual(
      comparison.differences.filter((d) => d.kind === 'plan').map((d) => d.text),
      ['settings of #2: points[0].phases[0].load.stallTimeoutMs: absent vs 3000'],
    );
    const [refused] = runGate(baseline, stall, { maxRegressionPercent: 10 }).regressions;
    assert.equal(refused.kind, 'not-comparable');
    assert.match(refused.message, /the plans differ \(settings of this run: points\[0\]\.phases\[0\]\.load\.stallTimeoutMs: absent vs 3000\)/);
  });
});
