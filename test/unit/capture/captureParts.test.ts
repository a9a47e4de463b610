// The pieces of a capture on their own: MONITOR lines (escapes, binary, truncation), key shapes, the fits,
// and the bounds of the MONITOR and SCAN samples against real servers (lines, a huge value, a large keyspace,
// binary keys, a module's type, commands a scenario cannot replay).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import Redis from 'ioredis';
import { ZipfKeys } from '../../../src/engine/requests/random';
import { captureWorkload } from '../../../src/capture/capture';
import { fitKeys, fitSizes } from '../../../src/capture/fit';
import { keyShape } from '../../../src/capture/keyShape';
import { sampleKeyspace } from '../../../src/capture/keyspace';
import { ARG_TEXT_LIMIT, parseMonitorLine } from '../../../src/capture/monitorLine';
import { readMonitor } from '../../../src/capture/monitorReader';
import { scenarioText } from '../../../src/capture/scenarioText';
import { DEFAULT_CAPTURE } from '../../../src/capture/types';
import { buildWorkload } from '../../../src/capture/workload';
import { freePort } from '../../../src/redis/localServer';
import { checkText } from '../../../src/scenario';
import { useRedisServer, withRedis } from '../../helpers/redis';
import { createServer, type Socket } from 'node:net';
import { serveOnLoopback } from '../../helpers/fakeRedis';

const connection = (server: { host: string; port: number }) => ({ host: server.host, port: server.port, resp: 2 as const, connectTimeoutMs: 5000 });

describe('capture: MONITOR lines', () => {
  it('decodes sdscatrepr escapes and counts decoded bytes', () => {
    const line = parseMonitorLine('1700000000.123456 [3 127.0.0.1:5000] "SET" "a\\"b" "x\\x00\\n\\\\y"');
    assert.ok(line);
    assert.equal(line.db, 3);
    assert.equal(line.source, '127.0.0.1:5000');
    assert.deepEqual(
      line.args.map((a) => [a.text, a.length]),
      [
        ['SET', 3],
        ['a"b', 3],
        ['x\u0000\n\\y', 5],
      ],
    );
    assert.equal(line.time, 1700000000.123456);
  });

  it('keeps at most ARG_TEXT_LIMIT characters of an argument and reads garbage as no line', () => {
    const long = 'v'.repeat(ARG_TEXT_LIMIT * 3);
    const line = parseMonitorLine(`1.5 [0 lua] "SET" "k" "${long}"`);
    assert.equal(line?.args[2].text.length, ARG_TEXT_LIMIT);
    assert.equal(line?.args[2].length, ARG_TEXT_LIMIT * 3);
    for (const garbage of ['OK', '', '1.5 [0 x] SET k', '1.5 [0 x] "unterminated', 'ERR no']) assert.equal(parseMonitorLine(garbage), undefined, garbage);
  });
});

describe('capture: key shapes', () => {
  it('keeps structure words and replaces identifiers', () => {
    assert.deepEqual(keyShape('user:1042:profile'), { pattern: 'user:__key__:profile', id: '1042' });
    assert.deepEqual(keyShape('session:9f86d081884c7d65'), { pattern: 'session:__key__', id: '9f86d081884c7d65' });
    assert.deepEqual(keyShape('shard7:queue'), { pattern: 'shard__key__:queue', id: '7' });
    assert.deepEqual(keyShape('cache:Alice:x'), { pattern: 'cache:__key__:x', id: 'Alice' });
    assert.deepEqual(keyShape('counter'), { pattern: 'counter' });
    assert.equal(keyShape('\u0000\u00ffbin').pattern, 'bin:__key__');
  });

  it('keeps names with --keep-names, numbers and hex identifiers still replaced', () => {
    assert.deepEqual(keyShape('cache:Alice:42', true), { pattern: 'cache:Alice:__key__', id: '42' });
    assert.deepEqual(keyShape('tok:deadbeef99', true), { pattern: 'tok:__key__', id: 'deadbeef99' });
  });
});

describe('capture: fits', () => {
  for (const exponent of [0.7, 1.0, 1.3]) {
    it(`recovers a zipf exponent of ${exponent} within 0.1 from 30k draws over 10k keys`, () => {
      const keys = new ZipfKeys(10_000, exponent, { seed: 3, connection: 0, connections: 1 });
      const hits = new Map<number, number>();
      for (let i = 0; i < 30_000; i++) {
        const key = keys.next();
        hits.set(key, (hits.get(key) ?? 0) + 1);
      }
      const fit = fitKeys(hits.values());
      assert.equal(fit.kind, 'zipf');
      assert.ok(Math.abs((fit.kind === 'zipf' ? fit.exponent : 0) - exponent) <= 0.1, JSON.stringify(fit));
    });
  }

  it('reads uniform hits as uniform', () => {
    const hits = new Map<number, number>();
    for (let i = 0; i < 30_000; i++) {
      const key = Math.floor(Math.random() * 10_000);
      hits.set(key, (hits.get(key) ?? 0) + 1);
    }
    assert.equal(fitKeys(hits.values()).kind, 'uniform');
  });

  it('writes even sizes as a range, skewed ones as weighted deciles, one size as fixed', () => {
    const even = Array.from({ length: 5000 }, () => 100 + Math.floor(Math.random() * 901));
    assert.deepEqual(fitSizes(even)?.kind, 'range');
    const skewed = [...Array(900).fill(64), ...Array(100).fill(4096)];
    const fit = fitSizes(skewed);
    assert.equal(fit?.kind, 'weighted');
    assert.deepEqual(fit?.kind === 'weighted' ? fit.choices : [], [
      { size: 64, weight: 90 },
      { size: 4096, weight: 10 },
    ]);
    assert.deepEqual(fitSizes([300, 300, 300]), { kind: 'fixed', size: 300 });
    assert.equal(fitSizes([]), undefined);
  });
});

describe('capture: a long MONITOR line that arrives in many reads', () => {
  it('counts the bytes of a cut value exactly, however the reads split its escapes', async () => {
    // A server that answers MONITOR with +OK, then one line whose 64 KiB value is `\xfe` escapes (4 characters a
    // byte), written in pieces of 4,099 characters with a pause between them, so most reads end inside an escape.
    const value = '\\xfe'.repeat(64 * 1024);
    const line = `+1700000000.123456 [0 127.0.0.1:5000] "SET" "big" "${value}"\r\n`;
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.once('data', async () => {
        socket.write('+OK\r\n');
        for (let at = 0; at < line.length && !socket.destroyed; at += 4099) {
          socket.write(line.slice(at, at + 4099));
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      });
    });
    const fake = await serveOnLoopback(server, sockets);
    try {
      const seen: number[] = [];
      const outcome = await readMonitor(
        connection({ host: '127.0.0.1', port: fake.port }),
        { maxLines: 1, maxBytes: 64 * 1024 * 1024, maxMs: 10_000 },
        (parsed) => seen.push(parsed.args[parsed.args.length - 1].length),
      );
      assert.equal(outcome.end, 'lines');
      // The reader keeps the line's start and counts the rest: only the one escape cut where keeping stops may be off.
      assert.ok(Math.abs(seen[0] - 64 * 1024) <= 3, `counted ${seen[0]} bytes of ${64 * 1024}`);
    } finally {
      await fake.close();
    }
  });
});

describe('capture: bounds and odd input on a real server', function () {
  this.timeout(60_000);
  const server = useRedisServer();

  it('stops MONITOR at its line limit, and keeps a 1 MB value as its size only', async () => {
    const seen: { length: number; text: number }[] = [];
    const reading = readMonitor(connection(server()), { maxLines: 3, maxBytes: 64 * 1024 * 1024, maxMs: 10_000 }, (line) =>
      seen.push({ length: line.args[line.args.length - 1].length, text: line.args[line.args.length - 1].text.length }),
    );
    await withRedis(server(), async (redis) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await redis.set('big', Buffer.alloc(1024 * 1024, 0xfe));
      for (let i = 0; i < 5; i++) await redis.get(`k${i}`);
    });
    const outcome = await reading;
    assert.equal(outcome.end, 'lines');
    assert.equal(outcome.lines, 3);
    // \xfe is 4 characters on the wire: the cut line's value still counts as its 1 MiB.
    const big = seen.reduce((most, item) => (item.length > most.length ? item : most));
    assert.ok(Math.abs(big.length - 1024 * 1024) < 16, JSON.stringify(seen));
    assert.ok(big.text <= ARG_TEXT_LIMIT);
  });

  it('stops MONITOR at its byte limit, and at its time limit on a quiet server', async () => {
    const reading = readMonitor(connection(server()), { maxLines: 1_000_000, maxBytes: 4096, maxMs: 10_000 }, () => undefined);
    await withRedis(server(), async (redis) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (let i = 0; i < 20; i++) await redis.set(`k${i}`, 'v'.repeat(500));
    });
    const outcome = await reading;
    assert.equal(outcome.end, 'bytes');
    assert.ok(outcome.bytes >= 4096 && outcome.bytes < 4096 + 2048, String(outcome.bytes));
    const quiet = await readMonitor(connection(server()), { maxLines: 10, maxBytes: 1024 * 1024, maxMs: 300 }, () => undefined);
    assert.equal(quiet.end, 'time');
  });

  it('samples a large keyspace within its key limit, binary keys included', async () => {
    await withRedis(server(), async (redis) => {
      const pipeline = redis.pipeline();
      for (let i = 0; i < 50_000; i++) pipeline.set(`bulk:${i}`, 'x');
      pipeline.set(Buffer.from([0, 1, 2, 255]), 'binary');
      await pipeline.exec();
      const started = Date.now();
      const sample = await sampleKeyspace(redis, { maxKeys: 1000, maxMs: 5000 }, false);
      assert.ok(Date.now() - started < 5000);
      assert.ok(sample.scanned <= 1000 && sample.scanned > 0, String(sample.scanned));
      assert.equal(sample.complete, false);
      assert.ok((sample.dbsize ?? 0) >= 50_000);
      assert.match(sample.notes.join(' '), /stopped at 1,000 keys/);
      const full = await sampleKeyspace(redis, { maxKeys: 100_000, maxMs: 20_000 }, false);
      assert.ok(full.patterns.has('bin:__key__'), [...full.patterns.keys()].join(' '));
      await redis.flushall();
    });
  });

  it('prefills a huge collection capped at 100 elements, and says so', async () => {
    await withRedis(server(), async (redis) => {
      for (let list = 0; list < 3; list++) {
        const values = Array.from({ length: 5000 }, (_, i) => `e${i}`);
        await redis.rpush(`feed:${list}`, ...values);
      }
    });
    const result = await captureWorkload(connection(server()), 'huge', { ...DEFAULT_CAPTURE, durationMs: 1000 });
    const text = scenarioText(result, buildWorkload(result));
    assert.match(text, /# 3 list keys like feed:__key__, 100 elements each \(the sample's median is 5,000: capped\)/);
    assert.match(text, /RPUSH feed:__key__ __value__\*100/);
    assert.deepEqual(
      checkText(text).diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
    await withRedis(server(), (redis) => redis.flushall());
  });

  it('lists the commands a scenario cannot replay with their share, and the file checks clean', async () => {
    // MONITOR on: the server's instantaneous rate can still show an earlier test's bulk load, which would turn it off.
    const capture = captureWorkload(connection(server()), 'odd', { ...DEFAULT_CAPTURE, durationMs: 1500, monitor: 'on' });
    await withRedis(server(), async (redis) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (let i = 0; i < 50; i++) {
        await redis.get(`page:${i}`);
        await redis.publish('news', 'hello');
        await redis.eval('return 1', 0);
        await redis.blpop(`queue:${i}`, 0.01);
        await redis.multi().incr(`hits:${i}`).exec();
        await redis.call('CLIENT', 'INFO');
      }
    });
    const result = await capture;
    const text = scenarioText(result, buildWorkload(result));
    assert.match(text, /# Not reproduced: \S+% pub\/sub[^\n]*PUBLISH/);
    assert.match(text, /# Not reproduced: \S+% scripts[^\n]*EVAL/);
    assert.match(text, /# Not reproduced: \S+% blocking commands[^\n]*BLPOP/);
    assert.match(text, /# Not reproduced: \S+% MULTI\/EXEC framing[^\n]*MULTI/);
    assert.match(text, /GET page:__key__/);
    assert.match(text, /INCR hits:__key__/);
    assert.doesNotMatch(text, /news|hello/);
    assert.deepEqual(
      checkText(text).diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
  });
});

describe('capture: a module type in the keyspace', function () {
  this.timeout(30_000);
  const module = '/usr/lib/redis/modules/redisearch.so';

  it('skips keys of a module type with a comment, never a crash', async function () {
    if (!existsSync(module)) throw new Error(`${module} is missing: install redis-redisearch (see docs/testing.md)`);
    const port = await freePort();
    const child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no', '--loadmodule', module], { stdio: 'ignore' });
    const redis = new Redis({ port, lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 100 });
    redis.on('error', () => undefined);
    try {
      for (let i = 0; i < 50; i++) {
        try {
          await redis.connect();
          break;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      await redis.call('FT.CREATE', 'docs', 'SCHEMA', 'title', 'TEXT');
      await redis.call('FT.ADD', 'docs', 'doc1', '1.0', 'FIELDS', 'title', 'hello');
      await redis.set('plain:1', 'x');
      const result = await captureWorkload(connection({ host: '127.0.0.1', port }), 'module', { ...DEFAULT_CAPTURE, durationMs: 1000 });
      assert.ok((result.keyspace?.moduleTypes.size ?? 0) > 0, JSON.stringify([...(result.keyspace?.moduleTypes ?? [])]));
      const text = scenarioText(result, buildWorkload(result));
      assert.match(text, /# Skipped: \d+ sampled keys of module type "[^"]+"/);
      assert.deepEqual(
        checkText(text).diagnostics.filter((d) => d.severity === 'error'),
        [],
      );
    } finally {
      redis.disconnect();
      child.kill('SIGKILL');
    }
  });
});
