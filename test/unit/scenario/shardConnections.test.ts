// The connection budget of a phase's groups on a cluster: an SSUBSCRIBE subscriber subscribes each channel on the
// master of its slot, so it may open a connection per channel argument (one per master its channels need), and
// `check` counts them so, naming the group.
import assert from 'node:assert/strict';
import { check, clean, only, span } from './helpers';

const subscribers = (clients: number, line: string) =>
  [
    '### fan-out',
    'cluster on',
    'duration 5s',
    'load publishers',
    'clients 1',
    'rate 100/s',
    'SPUBLISH news:1 __now__',
    'load subscribers',
    `clients ${clients}`,
    line,
  ].join('\n');

describe('the connection budget counts a cluster SSUBSCRIBE subscriber per master its channels need', () => {
  it('20,000 subscribers × 6 shard channels: 120,001 connections, past the budget; the group is named, with its per-master count', () => {
    const found = only(check(subscribers(20_000, 'SSUBSCRIBE news:1 news:2 news:3 news:4 news:5 news:6')), 'load-clients-budget');
    assert.equal(found.severity, 'error');
    assert.equal(
      found.message,
      'the client groups here open 120,001 connections at once, more than the 100,000 a phase may — lower `clients` in group `subscribers` (20,000, each subscribing its shard channels on up to 6 masters: 120,000 connections) or in the others',
    );
    assert.deepEqual(span(found), [7, 0, 16]);
  });

  it('the same group with one channel per subscriber, plain SUBSCRIBE, or no cluster: a connection per client, within the budget', () => {
    clean(subscribers(20_000, 'SSUBSCRIBE news:__rand(1..6)__'));
    clean(subscribers(20_000, 'SUBSCRIBE news:1 news:2 news:3 news:4 news:5 news:6'));
    clean(subscribers(20_000, 'SSUBSCRIBE news:1 news:2 news:3 news:4 news:5 news:6').replace('cluster on\n', ''));
  });
});
