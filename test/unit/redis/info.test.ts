import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import type Redis from 'ioredis';
import { closeControlConnection, openControlConnection, testConnection, ioredisLink } from '../../../src/redis/control';
import { parseInfo, parseInfoFields, readServerFacts, sampleFromInfo } from '../../../src/redis/info';
import { useRedisServer } from '../../helpers/redis';
import { optionsFor } from './support';

const installedVersion = /v=(\d+\.\d+\.\d+)/.exec(execFileSync('redis-server', ['--version']).toString())?.[1];

describe('INFO and server facts on a real server', () => {
  const server = useRedisServer({
    config: [
      { name: 'maxmemory', args: ['64mb'] },
      { name: 'maxmemory-policy', args: ['allkeys-lru'] },
    ],
  });
  let redis: Redis;
  before(async () => {
    redis = await openControlConnection(optionsFor(server()));
    await redis.mset('a', '1', 'b', '2', 'c', '3');
    await redis.expire('a', 1000);
    await redis.select(1);
    await redis.set('in-db1', 'x');
    await redis.select(0);
    // Two WRONGTYPE errors for the errorstats section.
    await redis.lpush('a', 'x').catch(() => undefined);
    await redis.lpush('b', 'x').catch(() => undefined);
  });
  after(async () => closeControlConnection(redis));

  it('parses sections, keyspace entries and errorstats from real INFO output', async () => {
    const info = parseInfo(await redis.info('everything'));
    for (const section of ['server', 'clients', 'memory', 'persistence', 'stats', 'keyspace', 'errorstats']) {
      assert.ok(info[section], `section ${section}`);
    }
    assert.equal(info.server.redis_version, installedVersion);
    assert.equal(info.server.tcp_port, String(server().port));
    assert.deepEqual({ ...parseInfoFields(info.keyspace.db0) }, { keys: '3', expires: '1', avg_ttl: parseInfoFields(info.keyspace.db0).avg_ttl });
    assert.equal(parseInfoFields(info.keyspace.db1).keys, '1');
    assert.deepEqual({ ...parseInfoFields(info.errorstats.errorstat_WRONGTYPE) }, { count: '2' });
  });

  it('builds a sample from real INFO', async () => {
    const sample = sampleFromInfo(parseInfo(await redis.info('everything')), 1234);
    assert.equal(sample.t, 1234);
    assert.equal(sample.keys, 4);
    assert.deepEqual({ ...sample.errorstats }, { WRONGTYPE: 2 });
    assert.ok(sample.usedMemory > 100_000 && sample.usedMemoryRss > 0, `memory ${sample.usedMemory}`);
    assert.ok(sample.connectedClients >= 1);
    assert.ok(sample.totalCommandsProcessed >= 8);
    assert.equal(sample.rdbBgsaveInProgress, false);
    assert.equal(sample.rdbLastBgsaveStatus, 'ok');
    assert.equal(sample.rdbSaves, 0);
    assert.equal(sample.aofEnabled, false);
    assert.equal(sample.aofRewrites, 0);
    assert.equal(sample.rdbChangesSinceLastSave > 0, true);
  });

  it('reads version, mode, os, the memory and persistence settings and the key count', async () => {
    const facts = await readServerFacts(ioredisLink(redis));
    assert.equal(facts.version, installedVersion);
    assert.equal(facts.mode, 'standalone');
    assert.match(facts.os ?? '', /Linux/);
    assert.deepEqual(
      { ...facts.config },
      { save: '', appendonly: 'no', appendfsync: 'everysec', maxmemory: String(64 * 1024 * 1024), 'maxmemory-policy': 'allkeys-lru' },
    );
    assert.equal(facts.keys, 3);
  });

  it('still reads the facts an ACL user may see when CONFIG is denied', async () => {
    await redis.call('ACL', 'SETUSER', 'noconfig', 'on', '>pw', '~*', '+@all', '-config');
    const limited = await openControlConnection(optionsFor(server(), { username: 'noconfig', password: 'pw' }));
    try {
      const facts = await readServerFacts(ioredisLink(limited));
      assert.equal(facts.version, installedVersion);
      assert.equal(facts.mode, 'standalone');
      assert.deepEqual({ ...facts.config }, {});
      assert.equal(facts.keys, 3);
    } finally {
      await closeControlConnection(limited);
    }
  });

  it('falls back to HELLO for version and mode when INFO is denied too (`-@dangerous`)', async () => {
    await redis.call('ACL', 'SETUSER', 'safe', 'on', '>pw', '~*', '+@all', '-@dangerous');
    const limited = await openControlConnection(optionsFor(server(), { username: 'safe', password: 'pw' }));
    try {
      assert.match(await limited.info().catch((error: Error) => error.message), /^NOPERM/);
      const facts = await readServerFacts(ioredisLink(limited));
      assert.deepEqual({ ...facts, config: { ...facts.config } }, { version: installedVersion, mode: 'standalone', config: {}, keys: 3 });
    } finally {
      await closeControlConnection(limited);
    }
  });

  it('testConnection returns the facts and a round-trip time', async () => {
    const result = await testConnection(optionsFor(server()));
    assert.ok(result.ok, result.ok ? '' : result.error);
    assert.equal(result.facts.version, installedVersion);
    assert.ok(result.roundTripMs >= 0 && result.roundTripMs < 1000);
  });
});

describe('parseInfo', () => {
  it('drops sections and fields named like prototype machinery (any case of a section name), keeping the rest', () => {
    const text =
      '__proto__:x\r\n# __proto__\r\npasswordEnv:SOME_SECRET\r\n# CONSTRUCTOR\r\nprototype:y\r\n# Server\r\nconstructor:1\r\ntoString:2\r\nredis_version:7.2.4\r\nConstructor:3\r\n';
    const info = parseInfo(text);
    assert.deepEqual(Object.keys(info), ['server']);
    assert.deepEqual(Object.keys(info.server), ['redis_version', 'Constructor']);
    assert.equal(info.server.Constructor, '3', 'another spelling is just a name');
    assert.equal(Object.getPrototypeOf(info.server), null);
    assert.equal(({} as Record<string, unknown>).passwordEnv, undefined);
    assert.deepEqual(Object.keys(parseInfoFields('keys=1,__proto__=2,constructor=3,hasOwnProperty=4,expires=0')), ['keys', 'expires']);
  });

  it('a sample counts errorstats of any kind the server names, and reads no field from a prototype', () => {
    const sample = sampleFromInfo(parseInfo('# Errorstats\r\nerrorstat_constructor:count=2\r\nerrorstat___proto__:count=1\r\n'), 0);
    assert.deepEqual(Object.keys(sample.errorstats), ['constructor', '__proto__']);
    assert.equal(Object.getOwnPropertyDescriptor(sample.errorstats, '__proto__')?.value, 1);
    assert.equal(sample.errorstats.constructor, 2 as unknown);
    const inherited = Object.create({ memory: { used_memory: '999' } }) as Parameters<typeof sampleFromInfo>[0];
    assert.equal(sampleFromInfo(inherited, 0).usedMemory, 0, 'sections inherited by a caller’s object are not read');
  });

  it('keeps colons inside values and ignores blank lines', () => {
    const info = parseInfo('# Server\r\nexecutable:/usr/bin/redis-server\r\nconfig_file:C:\\redis.conf\r\n\r\n# Errorstats\r\nerrorstat_ERR:count=5\r\n');
    // Records without prototypes (src/gates/plainData.ts): compared by their content.
    assert.equal(Object.getPrototypeOf(info), null);
    assert.deepEqual(JSON.parse(JSON.stringify(info)), {
      server: { executable: '/usr/bin/redis-server', config_file: 'C:\\redis.conf' },
      errorstats: { errorstat_ERR: 'count=5' },
    });
  });
});
