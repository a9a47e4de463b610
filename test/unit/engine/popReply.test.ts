// Issue 43 (blocking consumers): the jobs one blocked call returned, from the reply's shape, for every
// blocking pop — the values a consumer counts as jobs and reads send stamps from.
import assert from 'node:assert/strict';
import { entryIdsIn, jobsIn } from '../../../src/engine/consumers/popReply';
import { RespErrorReply } from '../../../src/protocol/respValue';

describe('the jobs in a blocking pop’s reply', () => {
  it('reads one job from BRPOP, BZPOPMIN and BLMOVE, several from BLMPOP, BZMPOP and the stream reads; none from a timeout', () => {
    assert.deepEqual(jobsIn(null), []);
    assert.deepEqual(jobsIn([]), []);
    assert.deepEqual(jobsIn(['jobs', 'a']), ['a'], 'BRPOP: [key, value]');
    assert.deepEqual(jobsIn(['jobs', 'm', '1.5']), ['m'], 'BZPOPMIN: [key, member, score]');
    assert.deepEqual(jobsIn('a'), ['a'], 'BLMOVE: the value');
    assert.deepEqual(jobsIn(['jobs', ['a', 'b']]), ['a', 'b'], 'BLMPOP: [key, values]');
    assert.deepEqual(
      jobsIn([
        'jobs',
        [
          ['m', '1'],
          ['n', 2],
        ],
      ]),
      ['m', 'n'],
      'BZMPOP: [key, [[member, score]…]]',
    );
    const entries = [
      ['1-0', ['job', 'x', 'other', 'y']],
      ['2-0', ['job', 'z']],
    ];
    assert.deepEqual(jobsIn([['s', entries]]), ['x', 'z'], 'XREADGROUP (RESP2): each entry’s first value');
    assert.deepEqual(jobsIn(['s', entries, 't', [['3-0', ['job', 'w']]]]), ['x', 'z', 'w'], 'XREAD (RESP3 map)');
    assert.ok(jobsIn(new RespErrorReply('NOGROUP no such group')) instanceof RespErrorReply);
  });

  it('reads the entry IDs a stream read returned, for XACK: RESP2 and RESP3, none from a timeout or a list pop', () => {
    const entries = [
      ['1-0', ['job', 'a']],
      ['1-1', ['job', 'b']],
    ];
    assert.deepEqual(entryIdsIn([['s', entries]]), ['1-0', '1-1'], 'RESP2: [[stream, entries]]');
    assert.deepEqual(entryIdsIn(['s', entries]), ['1-0', '1-1'], 'RESP3: a map, stream → entries');
    assert.deepEqual(entryIdsIn(null), []);
    assert.deepEqual(entryIdsIn(['jobs', 'a']), [], 'BRPOP: no entries');
  });
});
