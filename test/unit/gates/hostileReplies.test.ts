// Server replies whose words are prototype names: error replies (`-constructor oops`) are counted as the
// kind they name, CONFIG GET pairs and INFO fields never reach a prototype. A fake RESP server answers.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeControlConnection, openControlConnection, ioredisLink } from '../../../src/redis/control';
import { readServerFacts } from '../../../src/redis/info';
import { discoverPrimary, primaryDownAfterMs } from '../../../src/redis/sentinel';
import { readRunFile } from '../../../src/results/runFile';
import { runWarnings } from '../../../src/results/warnings';
import { RunSession, type SessionPorts } from '../../../src/runner/session';
import { buildViewModel } from '../../../src/views/model';
import { optionsFor } from '../redis/support';
import { fakeRedis, type FakeRedis } from './fakeRedis';
import { GlobalsWatch } from './globals';

const INFO = '# Server\r\nredis_version:7.2.4\r\nredis_mode:standalone\r\n';
const ports: SessionPorts = { confirm: async () => true, secret: async () => undefined, log: () => undefined };

describe('gate: hostile words in server replies are data', function () {
  this.timeout(60_000);
  let watch: GlobalsWatch;
  let runs: string;
  const servers: FakeRedis[] = [];
  beforeEach(() => {
    watch = new GlobalsWatch();
    runs = mkdtempSync(join(tmpdir(), 'rbench-gate-replies-'));
  });
  afterEach(async () => {
    watch.restore();
    for (const server of servers.splice(0)) await server.close();
    rmSync(runs, { recursive: true, force: true });
  });

  for (const client of ['fast', 'ioredis'] as const) {
    it(`counts error replies named like prototype machinery as their own kinds (${client} client)`, async () => {
      for (const kind of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
        const fake = await fakeRedis(INFO, new Map([['SET', `-${kind} oops\r\n`]]));
        servers.push(fake);
        const session = new RunSession({ env: {}, runsFolder: runs, trusted: true, userTarget: { value: fake.url, override: true } }, ports);
        const file = { display: 'errors.rbench', text: `### errors\nclient ${client}\nrequests 20\nSET k v\n`, recorded: 'errors.rbench' };
        const resolved = session.resolve(file);
        const prepared = await session.prepare(file, resolved, resolved.scenarios[0]);
        assert.ok(!('kind' in prepared), JSON.stringify(prepared));
        const outcome = await session.execute(prepared);
        assert.equal(outcome.kind, 'finished');
        const total = outcome.kind === 'finished' ? outcome.run.points[0].repeats[0][0].total : undefined;
        assert.ok(total);
        assert.equal(total.errors, 20, kind);
        assert.deepEqual(Object.keys(total.errorsByKind), [kind]);
        assert.equal(Object.getOwnPropertyDescriptor(total.errorsByKind, kind)?.value, 20, `${kind} counted as a number`);
        assert.equal(Object.getOwnPropertyDescriptor(total.errorExamples, kind)?.value, `${kind} oops`);
        // The run file written reads back with the count (a `__proto__` key is dropped on reading) and shows.
        assert.ok(outcome.kind === 'finished' && outcome.path, 'a run file was written');
        const stored = readRunFile(outcome.path);
        const storedKinds = stored.points[0].repeats[0][0].total.errorsByKind;
        assert.equal(Object.getOwnPropertyDescriptor(storedKinds, kind)?.value, kind === '__proto__' ? undefined : 20, kind);
        assert.match(runWarnings(stored).join('\n'), kind === '__proto__' ? /^/ : new RegExp(`20 ${kind} errors`));
        buildViewModel(stored);
        assert.deepEqual(watch.changes(), [], kind);
      }
    });
  }

  it('SENTINEL replies with prototype names as field names and values change nothing shared', async () => {
    const words = ['__proto__', 'passwordEnv', 'constructor', 'x', 'down-after-milliseconds', '5000', 'toString', '1'];
    const master = `*${words.length}\r\n${words.map((word) => `$${word.length}\r\n${word}\r\n`).join('')}`;
    const fake = await fakeRedis(INFO, new Map([['SENTINEL', master]]));
    servers.push(fake);
    const options = { ...optionsFor({ host: '127.0.0.1', port: fake.port }), sentinel: { name: '__proto__', nodes: [{ host: '127.0.0.1', port: fake.port }] } };
    assert.equal(await primaryDownAfterMs(options), 5000);
    const address = await discoverPrimary(options).catch((error: Error) => error);
    assert.ok(address instanceof Error || typeof address.host === 'string');
    assert.deepEqual(watch.changes(), []);
  });

  it('CONFIG GET pairs named like prototype machinery are dropped; the real ones kept', async () => {
    const pairs = ['__proto__', 'x', 'constructor', 'y', 'save', '', 'toString', 'z'];
    const reply = `*${pairs.length}\r\n${pairs.map((word) => `$${word.length}\r\n${word}\r\n`).join('')}`;
    const fake = await fakeRedis(`${INFO}# __proto__\r\nos:polluted\r\n`, new Map([['CONFIG', reply]]));
    servers.push(fake);
    const redis = await openControlConnection(optionsFor({ host: '127.0.0.1', port: fake.port }));
    try {
      const facts = await readServerFacts(ioredisLink(redis));
      assert.deepEqual(Object.keys(facts.config), ['save']);
      assert.equal(facts.config.save, '');
      assert.equal(Object.hasOwn(facts.config, 'constructor'), false);
      assert.equal(facts.os, undefined, 'a field of the dropped section is nobody’s');
      assert.equal(facts.version, '7.2.4');
    } finally {
      await closeControlConnection(redis);
    }
    assert.deepEqual(watch.changes(), []);
  });
});
