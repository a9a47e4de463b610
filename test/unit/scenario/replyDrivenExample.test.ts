// examples/reply-driven.rbench does what its comments say (issue 43), run shortened by --var on throwaway servers:
// each SCAN client follows its own cursor (full passes, every key once a pass); EVALSHA runs a script loaded once;
// the stream consumer acks every entry XREADGROUP returned, so nothing is left pending. Counts are the server's.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runCli, useScratch } from '../../helpers/cli';
import { repoRoot } from './helpers';

const KEYS = 2000;

describe('examples/reply-driven.rbench does what it says', function () {
  this.timeout(240_000);
  const scratch = useScratch();

  it('SCAN passes return every key once; EVALSHA loads its script once; the consumer acks all it read', async () => {
    const example = path.join(repoRoot(), 'examples', 'reply-driven.rbench');
    const result = await runCli(['run', example, '--var', `keys=${KEYS}`], { cwd: scratch.dir });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const loads = scratch.runFiles().flatMap((run) => run.points[0].repeats[0]);
    const load = (test: string) => loads.find((candidate) => candidate.test === test)!;

    const scan = load('SCAN');
    const { passes, items } = scan.commands[0].replies!;
    assert.ok(passes >= 1, `passes ${passes}`);
    // Four cursors: the items fill the passes done, and at most four passes under way, each short of all the keys.
    assert.ok(items >= passes * KEYS && items < (passes + 4) * KEYS, `items ${items} for ${passes} passes`);
    assert.equal(scan.server?.commands?.scan?.calls, scan.total.requests);
    assert.match(result.stdout, /^SCAN: \d+ full pass(es)?, [\d,]+ items returned$/m);

    const evalsha = load('EVALSHA');
    assert.equal(evalsha.total.errors, 0);
    assert.equal(evalsha.server?.commands?.evalsha?.calls, KEYS);
    assert.equal(evalsha.server?.commands?.['script|load']?.calls, 1, 'the script is loaded once');

    const consume = load('consume');
    const read = consume.commands.find((c) => c.command === 'XREADGROUP')!.replies!;
    const ack = consume.commands.find((c) => c.command === 'XACK')!.replies!;
    assert.equal(read.read, KEYS, 'every entry read once');
    assert.equal(ack.acked, KEYS, 'every entry read acked: none pending');
    assert.equal(consume.server?.commands?.xack?.calls, KEYS / 10);
  });
});
