// `rbench merge` compares the parts' plans on their settings only (results/planIdentity.ts), as the gate and
// `rbench compare` do: a comment line added to one machine's copy of the scenario moves every range below it
// and changes nothing that was measured; a changed setting is still refused, by name.
import assert from 'node:assert/strict';
import { runCli, useScratch } from '../../helpers/cli';
import { useRedisServer } from '../../helpers/redis';

const SCENARIO = '### spread\nclients 4\nrequests 2000\nSET merge:__key__ v\n';

describe('rbench merge: one plan, whatever the comments', function () {
  this.timeout(120_000);
  const server = useRedisServer();
  const scratch = useScratch();

  /** Runs part `index` of 2 of `text` (its own file, as on its own machine) into folder `name`; returns its run file's path. */
  async function part(name: string, index: number, text: string): Promise<string> {
    const file = scratch.write(`${name}.rbench`, text);
    const result = await runCli(['run', '--yes', file, '--url', server().url, '--shard', `${index}/2`, '--out', name], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const [run] = scratch.runFiles(name);
    assert.ok(run, result.stdout);
    return `${name}/${run.id}.rbench-run.json`;
  }

  it('merges parts whose files differ by a comment line, and refuses a changed setting, naming it', async () => {
    const first = await part('first', 1, SCENARIO);
    const commented = await part('commented', 2, `# run on the second load machine\n${SCENARIO.replace('clients 4\n', 'clients 4   # two per machine\n')}`);
    const merged = await runCli(['merge', first, commented, '--out', 'merged'], { cwd: scratch.dir });
    assert.equal(merged.code, 0, merged.stdout + merged.stderr);
    const [run] = scratch.runFiles('merged');
    assert.equal(run.points[0].repeats[0][0].total.requests, 2000);

    const moreClients = await part('clients', 2, SCENARIO.replace('clients 4', 'clients 6'));
    const clients = await runCli(['merge', first, moreClients], { cwd: scratch.dir });
    assert.equal(clients.code, 2);
    assert.match(clients.stderr, /ran different plans \(points\[0\]\.phases\[0\]\.load\.shard\.totalClients: 6 vs 4\)/);

    const otherCommand = await part('command', 2, SCENARIO.replace('SET merge:__key__ v', 'SET merge:__key__ w'));
    const command = await runCli(['merge', first, otherCommand], { cwd: scratch.dir });
    assert.equal(command.code, 2);
    assert.match(command.stderr, /ran different plans \(points\[0\]\.phases\[0\]\.tests\[0\]\.commands\[0\]\.command\.args\[1\]\[0\]: "w" vs "v"\)/);
  });
});
