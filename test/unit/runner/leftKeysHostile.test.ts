// The count of the keys a run left (src/runner/leftKeys.ts) reads SCAN replies' bytes on a raw connection: a
// server that answers with something else, more than the control limits, or nothing, gets no count (the run goes
// on without one), and a well-formed answer is counted across cursors with repeated keys once.
import assert from 'node:assert/strict';
import { countLeftKeys } from '../../../src/runner/leftKeys';
import { startFakeRedis, type FakeReply, type FakeServer } from '../../helpers/fakeRedis';

describe('the count of the keys a run left, against hostile servers', function () {
  this.timeout(20_000);
  let server: FakeServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const countOn = async (scan: (args: string[]) => FakeReply, connectTimeoutMs = 2000, mostKeys?: number) => {
    server = await startFakeRedis('127.0.0.1', { answer: (args) => (args[0].toUpperCase() === 'SCAN' ? scan(args) : undefined) });
    const options = { host: server.host, port: server.port, resp: 2 as const, connectTimeoutMs, clientName: 'rbench-run:t:abc' };
    return countLeftKeys(options, ['bench:*'], mostKeys === undefined ? {} : { mostKeys });
  };

  it('counts across cursors, a key SCAN returns twice once, and names its connection as the run', async () => {
    const pages: Record<string, FakeReply> = {
      '0': ['17', ['bench:1', 'bench:2']],
      '17': ['42', []],
      '42': ['0', ['bench:2', 'bench:3']],
    };
    assert.deepEqual(await countOn((args) => pages[args[1]]), [{ pattern: 'bench:*', count: 3 }]);
    assert.deepEqual(server!.commands[server!.commands.length - 4], ['CLIENT', 'SETNAME', 'rbench-run:t:abc']);
    assert.deepEqual(
      server!.commands.filter((c) => c[0] === 'SCAN').map((c) => c.slice(1)),
      [
        ['0', 'MATCH', 'bench:*', 'COUNT', '1000'],
        ['17', 'MATCH', 'bench:*', 'COUNT', '1000'],
        ['42', 'MATCH', 'bench:*', 'COUNT', '1000'],
      ],
    );
  });

  // Seen in CI: a real server's SCAN handed over all 1,000 keys before its last (empty) page, and the count said
  // "at least 1,000" of exactly 1,000. Only more keys than the bound make the count a lower bound.
  it('a scan that has found exactly its bound of keys reads on to the end: "at least" only past the bound', async () => {
    const keys = (from: number, n: number) => Array.from({ length: n }, (_, i) => `bench:${from + i}`);
    const exact: Record<string, FakeReply> = { '0': ['17', keys(0, 10)], '17': ['42', []], '42': ['0', []] };
    assert.deepEqual(await countOn((args) => exact[args[1]], 2000, 10), [{ pattern: 'bench:*', count: 10 }]);
    await server?.close();
    const more: Record<string, FakeReply> = { '0': ['17', keys(0, 10)], '17': ['42', keys(10, 1)], '42': ['0', keys(11, 5)] };
    assert.deepEqual(await countOn((args) => more[args[1]], 2000, 10), [{ pattern: 'bench:*', count: 11, capped: true }]);
  });

  const hostile: [string, (args: string[]) => FakeReply, RegExp][] = [
    ['an error', () => ({ error: "NOPERM this user has no permissions to run the 'scan' command" }), /refused SCAN: NOPERM/],
    ['keys that are not strings', () => ['0', [1, 2]], /':' where a key/],
    ['a reply that promises two million keys', () => ({ raw: '*2\r\n$1\r\n0\r\n*2000000\r\n' }), /more than 1,000,000 elements/],
    ['bytes that are not RESP', () => ({ raw: 'HTTP/1.1 400 Bad Request\r\n\r\n' }), /not valid RESP/],
    ['a cursor that never ends the scan, past its bound of calls', () => ['5', []], /^capped$/],
  ];
  for (const [what, answer, refusal] of hostile) {
    it(`a server answering SCAN with ${what}: no count, or a capped one`, async () => {
      const outcome = await countOn(answer).then(
        (counts) => (counts.length === 1 && counts[0].capped ? 'capped' : JSON.stringify(counts)),
        (error: Error) => error.message,
      );
      assert.match(outcome, refusal);
    });
  }

  it('a server that starts a reply and never ends it: refused after the timeout, not waited on', async () => {
    const started = performance.now();
    await assert.rejects(
      countOn(() => ({ raw: '*2\r\n$1\r\n0\r\n*3\r\n$5\r\nbench' }), 300),
      /no answer to SCAN within 300 ms/,
    );
    assert.ok(performance.now() - started < 5000);
  });
});
