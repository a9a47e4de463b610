// Issue 43 (blocking consumers), the language: a group whose command waits for data (the command table's
// `blocking` flag; the stream reads only with BLOCK) is a consumer group, and the checker refuses what a blocked
// connection cannot do (pipeline > 1, a rate, several commands, placeholders), at the group's line, with the fix.
import assert from 'node:assert/strict';
import { checkText } from '../../../src/scenario';
import { consumerWait } from '../../../src/scenario/consumerGroup';

const errors = (text: string) =>
  checkText(text)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.range.start.line + 1} ${d.code}: ${d.message}`);
const kinds = (text: string) =>
  checkText(text)
    .scenarios[0].points[0].phases.at(-1)!
    .groups!.map((group) => `${group.name} ${group.kind}`);
const queue = (consumer: string[]) =>
  ['### queue', 'duration 1s', 'load producers', 'rate 100/s', 'LPUSH jobs __value__', 'load workers', 'clients 4', ...consumer, ''].join('\n');

describe('consumer groups in the language (blocking commands in a load group)', () => {
  it('a group blocked on BRPOP, BLMOVE, BZPOPMIN, BLMPOP or XREADGROUP … BLOCK is a consumer group; its producers are requests', () => {
    for (const command of [
      'BRPOP jobs 1',
      'BLPOP jobs 0.5',
      'BLMOVE jobs done RIGHT LEFT 1',
      'BRPOPLPUSH jobs done 1',
      'BZPOPMIN jobs 1',
      'BLMPOP 1 1 jobs LEFT',
    ]) {
      assert.deepEqual(kinds(queue([command])), ['producers requests', 'workers consumers'], command);
      assert.deepEqual(errors(queue([command])), [], command);
    }
    assert.deepEqual(kinds(queue(['XREADGROUP GROUP g c BLOCK 100 STREAMS jobs >'])), ['producers requests', 'workers consumers']);
    // Without BLOCK the stream reads answer at once: timed as requests.
    assert.deepEqual(kinds(queue(['XREADGROUP GROUP g c STREAMS jobs >'])), ['producers requests', 'workers requests']);
    assert.deepEqual(kinds(queue(['XREAD COUNT 1 STREAMS jobs 0'])), ['producers requests', 'workers requests']);
  });

  it('refuses a consumer group with pipeline > 1, naming the fix', () => {
    assert.deepEqual(errors(queue(['pipeline 4', 'BRPOP jobs 1'])), [
      '6 consumer-pipeline: consumer group `workers` has pipeline 4, but a blocked BRPOP holds its connection (the calls behind it would wait for it) — write `pipeline 1` in group `workers`, or add `clients` for more consumers',
    ]);
  });

  it('refuses a rate, a second command and placeholders in a consumer group', () => {
    const [rate] = errors(queue(['rate 10/s', 'BRPOP jobs 1']));
    assert.match(rate, /consumer-rate: .*remove `rate` from group `workers`/);
    const [mix] = errors(queue(['50% BRPOP jobs 1', '50% GET x']));
    assert.match(mix, /consumer-one-command: .*a `load` group of their own/);
    const [placeholder] = errors(queue(['BRPOP jobs:__key__ 1']));
    assert.match(placeholder, /^8 consumer-placeholder: .*without placeholders/);
  });

  it('reads each wait from the arguments: its keys, its timeout (0: for ever) and a stream group', () => {
    assert.deepEqual(consumerWait('BRPOP', ['a', 'b', '1.5']), { keys: ['a', 'b'], timeoutMs: 1500 });
    assert.deepEqual(consumerWait('BLMPOP', ['2', '1', 'a', 'LEFT']), { keys: ['a'], timeoutMs: 2000 });
    assert.deepEqual(consumerWait('BLMOVE', ['a', 'b', 'LEFT', 'RIGHT', '0']), { keys: ['a', 'b'], timeoutMs: 0 });
    assert.deepEqual(consumerWait('XREADGROUP', ['GROUP', 'g', 'c', 'BLOCK', '250', 'STREAMS', 's', '>']), { keys: ['s'], timeoutMs: 250, streamGroup: 'g' });
  });
});
