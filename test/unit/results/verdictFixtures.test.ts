// The bottleneck rule judged again on recorded evidence: each fixture in test/fixtures/verdicts/ is one run of
// a calibration condition whose cause was controlled (bench/calibrate.mjs --record: a CPU cap, hogs pinned
// beside one side, a heavy script, fsync, a fork, a memory limit, another client's load, a freeze, an open-loop
// schedule, a lossy path; bench/calibration/*.mjs), with the kinds that cause must give (`!kind`: a kind that must
// not hold). The rule of today reads the run's load results as a run file holds them (the verdict is judged again,
// not read back); right and contradicting mean what they mean in bench/calibrate.mjs.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadResult } from '../../../src/engine/types';
import { bottleneckOf } from '../../../src/results/bottleneck';

const folder = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'verdicts');
const fixtures = readdirSync(folder)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => ({ name, ...(JSON.parse(readFileSync(join(folder, name), 'utf8')) as { expected: string[]; loads: LoadResult[] }) }));

describe('bottleneck: the calibration runs, judged again from their evidence', () => {
  it('there are recorded runs of every condition', () => {
    const conditions = new Set(fixtures.map((fixture) => fixture.name.replace(/-\d+\.json$/, '')));
    for (const name of [
      'quiet-get',
      'client-beside-hogs',
      'client-capped-20',
      'server-beside-hogs',
      'server-capped-20',
      'eval-4-clients',
      'eval-1-client',
      'eval-1-client-light',
      'eval-1-client-cheap',
      'get-16k-1-client',
      'eval-50-clients',
      'busy-client',
      'both-capped',
      'appendfsync-always',
      'appendfsync-everysec',
      'fork-1500k-keys',
      'fork-100k-keys',
      'maxmemory-noeviction',
      'maxmemory-allkeys-lru',
      'foreign-get-flood',
      'foreign-ping-flood',
      'foreign-set-load',
      'ft-search-nested-calls',
      'freeze-sigstop-2s',
      'open-loop-below-capacity',
      'open-loop-on-time',
      'open-loop-above-capacity',
      'loss-1-percent',
    ]) {
      assert.ok(conditions.has(name), name);
    }
  });

  // Advice follows from the cause: "add clients or pipeline" only where the cause was the round trip, "free the
  // machine" or "understate the server" never there; a forbidden kind (`!kind`) never holds with its advice.
  for (const fixture of fixtures) {
    it(`${fixture.name}: its advice does not contradict the cause (${fixture.expected.join(' or ')})`, () => {
      const verdict = judge(fixture);
      const text = JSON.stringify(verdict);
      const forbidden = fixture.expected.filter((kind) => kind.startsWith('!')).map((kind) => kind.slice(1));
      if (forbidden.length > 0) {
        for (const kind of forbidden) assert.ok(!kindsOf(verdict).includes(kind), text);
        if (forbidden.includes('round-trip')) assert.doesNotMatch(text, /add clients or pipeline/);
      } else if (!fixture.expected.includes('round-trip')) assert.doesNotMatch(text, /add clients or pipeline/);
      else assert.doesNotMatch(text, /free the machine|understate the server/);
    });
  }

  // The share the rule got right when these runs were recorded (bench/calibrate.mjs --runs 3 --record on a quiet
  // machine, 2026-12-06: 69 of 69, 25 of them with the cause inside a mixed verdict; see bench/README.md). On the
  // same machine busy with eight other jobs the live harness got 61 of 69: there the conditions no longer control
  // the cause (both sides wait for cores the other jobs hold). A change to the rule may raise it, never lower it.
  // Five conditions of 2026-12-07 took it to 84 (recorded with the server's thread over the load's window): the rule
  // before called eval-1-client-cheap's idle rounds server-cpu 3/3 (its thread at 57–58 % of the window, holding the
  // path's kernel work, 15 % in commands) and read eval-50-clients's saturated server (95–96 % of the counters'
  // window, under 50/51) undetermined 3/3: 78 of 84.
  it('the rule gets all 84 recorded causes right', () => {
    const wrong = fixtures.filter((fixture) => !right(fixture.expected, judge(fixture)));
    assert.ok(fixtures.length - wrong.length >= 84, wrong.map((fixture) => `${fixture.name}: ${judge(fixture).kind}`).join('\n'));
  });
});

/** The kinds that hold: the verdict's, or the parts of `mixed`. */
function kindsOf(verdict: { kind: string; parts?: { kind: string }[] }): string[] {
  return verdict.parts ? verdict.parts.map((part) => part.kind) : [verdict.kind];
}

/** Right: an expected kind holds, or (all `!kind`) none of the forbidden kinds does. */
function right(expected: string[], verdict: { kind: string; parts?: { kind: string }[] }): boolean {
  const kinds = kindsOf(verdict);
  return expected.every((kind) => kind.startsWith('!'))
    ? expected.every((kind) => !kinds.includes(kind.slice(1)))
    : expected.some((kind) => kinds.includes(kind));
}

/** The verdict of today's rule on the fixture's evidence (the stored verdict dropped). */
function judge(fixture: { loads: LoadResult[] }) {
  return bottleneckOf({ ...fixture.loads[0], bottleneck: undefined });
}
