// Issue 23: data-file tables on the engine's side. Each worker thread gets the same shared buffers (not serialised,
// never per request; the thread copies them once); a cursor picks entries by key or in order, following the load's claims; the encoder
// writes a row's pairs and an expiry as valid RESP; a plan checked in another thread (the editor's worker)
// has its tables read again before the run, and a file changed since the check is refused.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workerConfigs } from '../../../src/engine/loadPlan';
import { BatchBuilder } from '../../../src/engine/requests/batch';
import { createKeySource, Random } from '../../../src/engine/requests/random';
import { dataCursors, TableCursor, TtlDraw } from '../../../src/engine/requests/tableValues';
import { CompiledCommand } from '../../../src/engine/requests/templateEncoder';
import { loadDataTables, planDataSources } from '../../../src/scenario/dataFile';
import type { PhasePlan } from '../../../src/scenario/plan';
import { forgetTables, keptTable, packTable } from '../../../src/scenario/valueTable';
import { check } from '../scenario/helpers';

describe('data-file tables in the engine (issue 23)', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'rbench-tables-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  function phase(text: string): PhasePlan {
    const resolved = check(text, { baseDir: folder });
    assert.deepEqual(
      resolved.diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
    return resolved.scenarios[0].points[0].phases[0];
  }

  it('every worker thread gets the same SharedArrayBuffers: the table is shared, not copied', () => {
    writeFileSync(join(folder, 'words.txt'), 'alpha\nbeta\ngamma\n');
    const plan = phase('### t\nclients 4\nthreads 2\nvalues from words.txt\nSET k:__key__ __value__\n');
    const request = {
      phase: plan,
      test: plan.tests[0],
      connection: { host: '127.0.0.1', port: 1, resp: 2 as const, connectTimeoutMs: 1000 },
      client: 'fast' as const,
    };
    const configs = workerConfigs(request, {}, { seed: 1, threads: 2, labels: ['SET'], labelIndexes: [0] });
    assert.equal(configs.length, 2);
    const [first, second] = configs.map((config) => config.data!.values!.table);
    assert.ok(first.bytes instanceof SharedArrayBuffer && first.offsets instanceof SharedArrayBuffer);
    assert.equal(first.bytes, second.bytes);
    assert.equal(first.bytes, keptTable(plan.values!)!.bytes);
    // structuredClone (what postMessage does) keeps a SharedArrayBuffer shared.
    const cloned = structuredClone(configs[0]).data!.values!.table;
    new Uint8Array(first.bytes)[0] = 0x41;
    assert.equal(new Uint8Array(cloned.bytes)[0], 0x41);
  });

  it('a cursor picks by key (key mod count) or in order, following the claims of the shared budget', () => {
    const table = packTable(['a', 'bb', 'ccc'].map((text) => Buffer.from(text)));
    const context = { seed: 1, connection: 0, connections: 1 };
    const byKey = new TableCursor({ table, order: 'key' }, context);
    assert.deepEqual(
      [4, 0, 2].map((key) => (byKey.select(key), Buffer.from(byKey.current()).toString())),
      ['bb', 'a', 'ccc'],
    );
    const inOrder = new TableCursor({ table, order: 'sequence' }, context);
    assert.deepEqual(
      [0, 0, 0, 0].map(() => (inOrder.select(99), Buffer.from(inOrder.current()).toString())),
      ['a', 'bb', 'ccc', 'a'],
    );
    inOrder.claimed(2);
    inOrder.select(0);
    assert.equal(Buffer.from(inOrder.current()).toString(), 'ccc');
  });

  it('the encoder writes a row as its field/value pairs and an expiry as a bulk string: valid RESP', () => {
    writeFileSync(join(folder, 'users.csv'), 'name,city\nalice,"New York, NY"\nbob,Paris\n');
    const plan = phase('### t\nkeys 2 sequential\nfields from users.csv\nttl 5s..9s\nclients 1\nHSET u:__key__ __fields__\n');
    const test = plan.tests[0];
    const context = { seed: 7, connection: 0, connections: 1 };
    const cursors = dataCursors({ fields: { table: keptTable(plan.fields!)!, order: 'key' }, ttl: plan.ttl }, context);
    const builder = new BatchBuilder(test, plan.value, createKeySource(plan.keys, context), {
      seed: 7,
      client: 0,
      pipeline: 2,
      keySpace: 2,
      keyWidth: 1,
      labelIndexes: [1, 2],
      ...cursors,
    });
    const length = builder.build(2);
    const commands = parseCommands(builder.buffer.subarray(0, length));
    assert.deepEqual(commands.slice(0, 3), [
      ['HSET', 'u:0', 'name', 'alice', 'city', 'New York, NY'],
      ['EXPIRE', 'u:0', commands[1][2]],
      ['HSET', 'u:1', 'name', 'bob', 'city', 'Paris'],
    ]);
    for (const ttl of [commands[1][2], commands[3][2]]) assert.ok(Number(ttl) >= 5 && Number(ttl) <= 9, ttl);
  });

  it('expiries are drawn across the whole range', () => {
    const draw = new TtlDraw({ min: 10, max: 20, unit: 's' });
    const random = new Random(3);
    const seen = new Set(Array.from({ length: 2000 }, () => draw.next(random)));
    assert.deepEqual(
      [...seen].sort((a, b) => a - b),
      Array.from({ length: 11 }, (_, i) => 10 + i),
    );
  });

  it('a plan checked elsewhere has its tables read again before the run; a file changed since is refused', () => {
    writeFileSync(join(folder, 'words.txt'), 'one\ntwo\n');
    const resolved = check('### t\nvalues from words.txt\nSET k __value__\n', { baseDir: folder });
    const sources = planDataSources(resolved.scenarios[0]);
    assert.equal(sources.length, 1);
    forgetTables();
    assert.equal(keptTable(sources[0]), undefined);
    assert.equal(loadDataTables(sources, folder), undefined);
    assert.ok(keptTable(sources[0]));
    forgetTables();
    writeFileSync(join(folder, 'words.txt'), 'one\ntwo\nthree\n');
    assert.match(loadDataTables(sources, folder)!, /`words\.txt` changed after the scenario was checked/);
  });

  it('a compiled command never lays out a row or an expiry', () => {
    const command = new CompiledCommand({ name: 'SET', label: 'SET', args: [['k'], ['v'], ['EX'], [{ placeholder: 'ttl' }]] }, 0, { keyWidth: 1, client: 0 });
    assert.ok(command.hasTtl);
    assert.throws(() => command.layout(0), /cannot be laid out/);
  });
});

/** RESP arrays of bulk strings → their strings, read by the lengths they declare (a malformed one fails). */
function parseCommands(bytes: Buffer): string[][] {
  const commands: string[][] = [];
  let at = 0;
  const line = (): string => {
    const end = bytes.indexOf('\r\n', at);
    assert.ok(end > at, `a line at ${at}`);
    const text = bytes.toString('latin1', at, end);
    at = end + 2;
    return text;
  };
  while (at < bytes.length) {
    const header = line();
    assert.match(header, /^\*\d+$/);
    const args: string[] = [];
    for (let i = 0; i < Number(header.slice(1)); i++) {
      const bulk = line();
      assert.match(bulk, /^\$\d+$/);
      const length = Number(bulk.slice(1));
      args.push(bytes.toString('utf8', at, at + length));
      assert.equal(bytes.toString('latin1', at + length, at + length + 2), '\r\n');
      at += length + 2;
    }
    commands.push(args);
  }
  return commands;
}
