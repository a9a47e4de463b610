// The checker and `expect CMD miss-rate` (issue 43): a command that is no read (by the command table's flags and
// key specs, scenario/replyMisses.ts) counts no misses, so an expectation of its miss rate is warned about.
import assert from 'node:assert/strict';
import { check, codes, only, span } from './helpers';

describe('check: expect CMD miss-rate names a read', () => {
  it('warns on a write (SET), at its command', () => {
    const diagnostic = only(check('### s\nexpect SET miss-rate < 5%\nSET k v\nGET k'), 'miss-rate-not-read');
    assert.equal(diagnostic.severity, 'warning');
    assert.deepEqual(span(diagnostic), [1, 7, 10]);
    assert.match(diagnostic.message, /`SET` is no read/);
  });

  it('warns on a read of the server with no key (PING), and on a group, whose unit is no read', () => {
    assert.ok(codes(check('### s\nexpect PING miss-rate < 5%\nPING')).includes('miss-rate-not-read'));
    assert.ok(codes(check('### s\nexpect PAIR miss-rate < 5%\ngroup pair\n  SET k v\n  GET k\nend')).includes('miss-rate-not-read'));
  });

  it('does not warn on reads: GET, HGETALL, MGET, a read queued in a transaction, or on other metrics of a write', () => {
    for (const text of [
      '### s\nexpect GET miss-rate < 5%\nGET k',
      '### s\nexpect HGETALL miss-rate < 5%\nHGETALL h',
      '### s\nexpect MGET miss-rate < 5%\nMGET a b',
      '### s\nexpect GET miss-rate < 5%\ngroup tx\n  MULTI\n  GET k\n  EXEC\nend',
      '### s\nexpect SET p99 < 5ms\nSET k v',
      '### s\nexpect miss-rate < 5%\nSET k v',
    ])
      assert.ok(!codes(check(text)).includes('miss-rate-not-read'), text);
  });
});
