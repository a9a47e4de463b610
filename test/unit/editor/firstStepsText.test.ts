// The first steps' texts: the new scenario template, the new file's name, and the examples' summaries.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { dataFilesOf, exampleSummary, NEW_SCENARIO_TEMPLATE, freeScenarioFileName } from '../../../src/editor/firstStepsText';
import { check, repoRoot } from '../scenario/helpers';

describe('first steps texts', () => {
  it('the new scenario template resolves with zero diagnostics to one short scenario with no target', () => {
    const resolved = check(NEW_SCENARIO_TEMPLATE);
    assert.deepEqual(resolved.diagnostics, []);
    assert.equal(resolved.scenarios.length, 1);
    const [scenario] = resolved.scenarios;
    assert.equal(scenario.name, 'SET and GET');
    assert.equal(scenario.target.url ?? scenario.target.profile, undefined, 'no target: a run goes to the selected target (default: a throwaway server)');
    assert.equal(scenario.points.length, 1);
    assert.equal(scenario.points[0].phases.at(-1)?.load.requests, 20_000);
  });

  it('names a new file benchmark.rbench, else the next free benchmark-N.rbench', () => {
    assert.equal(
      freeScenarioFileName(() => false),
      'benchmark.rbench',
    );
    const taken = new Set(['benchmark.rbench', 'benchmark-2.rbench']);
    assert.equal(
      freeScenarioFileName((name) => taken.has(name)),
      'benchmark-3.rbench',
    );
    assert.equal(
      freeScenarioFileName(() => true),
      undefined,
      'gives up instead of looping forever',
    );
    assert.equal(
      freeScenarioFileName((name) => name === 'list-push-pop.rbench', 'list-push-pop.rbench'),
      'list-push-pop-2.rbench',
    );
  });

  it('sums each shipped example up in its first comment sentence', () => {
    const folder = path.join(repoRoot(), 'examples');
    const files = readdirSync(folder).filter((file) => file.endsWith('.rbench'));
    assert.ok(files.length > 0);
    for (const file of files) {
      const summary = exampleSummary(readFileSync(path.join(folder, file), 'utf8'));
      assert.ok(summary.length > 10 && summary.length < 200, `${file}: "${summary}"`);
      assert.doesNotMatch(summary, /^#/);
    }
    assert.equal(exampleSummary('# Two lines: the first\n# and more.\nclients 4\n'), 'Two lines:');
    assert.equal(exampleSummary('### no comment\nGET k\n'), '');
  });

  it("names the data files a scenario reads, as written (the shipped examples' are shipped beside them)", () => {
    assert.deepEqual(dataFilesOf('fields from data/users.csv\n### a\nvalues from "my values.txt" in order\nHSET u:__key__ __fields__\n'), [
      'data/users.csv',
      'my values.txt',
    ]);
    assert.deepEqual(dataFilesOf('### a\nvalue 10\nSET k __value__\n# values from x.csv\n'), []);
    const folder = path.join(repoRoot(), 'examples');
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.rbench'))) {
      for (const data of dataFilesOf(readFileSync(path.join(folder, file), 'utf8'))) {
        assert.ok(existsSync(path.join(folder, data)), `${file} reads ${data}, which is not shipped in examples/`);
      }
    }
    assert.deepEqual(dataFilesOf(readFileSync(path.join(folder, 'hash-from-csv.rbench'), 'utf8')), ['data/users.csv']);
  });
});
