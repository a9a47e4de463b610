// Issue 43: the checker knows subscriber groups — the kind comes from the command (a subscribe form with the
// command table's pubsub flag); SUBSCRIBE outside a group, `rate`/`pipeline` in a subscriber group, a mix in one
// and subscribers with no publisher beside them are refused with the fix named.
import assert from 'node:assert/strict';
import { check, clean, codes, errors } from './helpers';

const GROUPS = 'load publishers\nclients 1\nrate 100/s\nPUBLISH chat:1 __now__:__value__\nload subscribers\nclients 10\n';

describe('Pub/Sub groups in the checker (issue 43)', () => {
  it('a subscriber group beside a publisher group checks clean; its kind is `subscribers`, the publisher stays `requests`', () => {
    for (const command of ['SUBSCRIBE chat:1 chat:2', 'PSUBSCRIBE chat:*', 'SSUBSCRIBE chat:__rand(1..5,sequential)__', 'SUBSCRIBE chat:__client__']) {
      const plan = clean(`### t\nduration 1s\n${GROUPS}${command}\n`).scenarios[0];
      assert.deepEqual(
        plan.points[0].phases[0].groups!.map((group) => [group.name, group.kind]),
        [
          ['publishers', 'requests'],
          ['subscribers', 'subscribers'],
        ],
        command,
      );
    }
  });

  it('refuses SUBSCRIBE outside a load group, naming the fix', () => {
    const resolved = check('### t\nrequests 10\nSUBSCRIBE chat:1\n');
    const [error] = errors(resolved);
    assert.equal(error?.code, 'subscribe-outside-load');
    assert.match(error.message, /`load subscribers` group beside a `load publishers` group/);
    assert.equal(error.range.start.line, 2);
  });

  it('refuses rate and pipeline in a subscriber group, a mix in one, and subscribers alone', () => {
    assert.ok(codes(check(`### t\nduration 1s\n${GROUPS}rate 10/s\nSUBSCRIBE chat:1\n`)).includes('subscriber-setting'));
    const pipelined = errors(check(`### t\nduration 1s\n${GROUPS}pipeline 4\nSUBSCRIBE chat:1\n`));
    assert.deepEqual(
      pipelined.map((d) => d.code),
      ['subscriber-setting'],
    );
    assert.match(pipelined[0].message, /move `pipeline` to the publisher group/);
    assert.ok(codes(check(`### t\nduration 1s\n${GROUPS}50% SUBSCRIBE chat:1\n50% SUBSCRIBE chat:2\n`)).includes('subscriber-mix'));
    assert.ok(codes(check('### t\nduration 1s\nload subscribers\nclients 2\nSUBSCRIBE chat:1\n')).includes('subscribers-alone'));
  });
});
