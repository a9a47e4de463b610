import assert from 'node:assert/strict';
import { confirmationKey, firstWrite, needsWriteConfirmation, readOnlyRefusal } from '../../../src/editor/safety';
import { planOf } from './fixtures';

describe('editor: write safety', () => {
  const reads = planOf('### reads\nGET k\nLRANGE l 0 10\n');
  const writes = planOf('### writes\nGET k\nSET k v\n');
  const flushes = planOf('### flush\nprefill empty\nFLUSHDB\nphase main\nGET k\n');
  const cleansUp = planOf('cleanup bench:*\n### reads then cleanup\nGET bench:k\n');

  it('names the first command that writes, or the cleanup pattern', () => {
    assert.equal(firstWrite(reads), undefined);
    assert.equal(firstWrite(writes), 'SET');
    assert.equal(firstWrite(flushes), 'FLUSHDB');
    assert.equal(firstWrite(cleansUp), 'cleanup bench:*');
  });

  it('asks before writing to a server on another machine, once', () => {
    assert.equal(needsWriteConfirmation(writes, '10.0.0.5', false), true);
    assert.equal(needsWriteConfirmation(flushes, 'redis.example.com', false), true);
    assert.equal(needsWriteConfirmation(cleansUp, '10.0.0.5', false), true);
    assert.equal(needsWriteConfirmation(writes, '10.0.0.5', true), false, 'already confirmed for this target');
  });

  it('does not ask for loopback servers or read-only scenarios', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.1.2.3']) assert.equal(needsWriteConfirmation(writes, host, false), false, host);
    assert.equal(needsWriteConfirmation(reads, '10.0.0.5', false), false);
  });

  it('remembers answers per target', () => {
    assert.notEqual(confirmationKey('redis://10.0.0.5:6379'), confirmationKey('redis://10.0.0.6:6379'));
  });

  it('refuses writing scenarios on a read-only profile, naming the profile and the command', () => {
    assert.equal(
      readOnlyRefusal(writes, 'prod', true),
      'connection profile "prod" is read-only, but "writes" writes (SET): run it against another target, or remove "readOnly" from the profile',
    );
    assert.equal(readOnlyRefusal(reads, 'prod', true), undefined);
    assert.equal(readOnlyRefusal(writes, 'staging', false), undefined);
    assert.equal(readOnlyRefusal(writes, undefined, undefined), undefined);
  });
});
