import assert from 'node:assert/strict';
import { BatchBuilder, keyWidth } from '../../../src/engine/requests/batch';
import { Random, type KeySource } from '../../../src/engine/requests/random';
import { encodeInlineCommand, encodeRespCommand } from '../../../src/protocol/respEncode';
import { writeDigits } from '../../../src/engine/requests/templateEncoder';
import type { TestPlan, ValuePlan } from '../../../src/scenario/plan';
import { ReplyScanner } from '../../../src/protocol/respScanner';
import { mixTest, singleTest } from './plans';

/** A key source that remembers what it handed out, so the test can rebuild the expected commands. */
class RecordingKeys implements KeySource {
  readonly drawn: number[] = [];
  private readonly random: Random;
  constructor(
    private readonly space: number,
    seed: number,
  ) {
    this.random = new Random(seed);
  }
  next(): number {
    const key = this.random.nextInt(this.space);
    this.drawn.push(key);
    return key;
  }
  restart(): void {}
}

/** Splits a batch into commands by parsing RESP arrays of bulk strings (or inline lines). */
function parseCommands(bytes: Buffer): string[][] {
  const commands: string[][] = [];
  let at = 0;
  const line = () => {
    const end = bytes.indexOf('\r\n', at);
    const text = bytes.toString('latin1', at, end);
    at = end + 2;
    return text;
  };
  while (at < bytes.length) {
    if (bytes[at] !== 0x2a) {
      commands.push(line().split(' '));
      continue;
    }
    const count = Number(line().slice(1));
    const args: string[] = [];
    for (let i = 0; i < count; i++) {
      const length = Number(line().slice(1));
      args.push(bytes.toString('latin1', at, at + length));
      assert.equal(bytes.toString('latin1', at + length, at + length + 2), '\r\n');
      at += length + 2;
    }
    commands.push(args);
  }
  return commands;
}

function builder(test: TestPlan, value: ValuePlan, keys: KeySource, pipeline: number, space = 1000, size = 12, client = 7) {
  const labels = [...new Set(test.commands.map((c) => c.command.label))];
  return new BatchBuilder(test, value, keys, {
    seed: 1,
    pipeline,
    keySpace: space,
    labelIndexes: test.commands.map((c) => labels.indexOf(c.command.label)),
    keyWidth: keyWidth(space, size),
    client,
  });
}

describe('command template encoding', () => {
  it('writes digits zero-padded to the width on both sides of the int32 fast path', () => {
    const target = new Uint8Array(16);
    for (const value of [0, 7, 999, 1000, 99_999, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 3, 999_999_999_999]) {
      for (const width of [12, 13]) {
        target.fill(0x78);
        writeDigits(target, 2, width, value);
        assert.equal(Buffer.from(target.subarray(2, 2 + width)).toString('latin1'), String(value).padStart(width, '0'), `${value} in ${width}`);
        assert.equal(target[1], 0x78);
        assert.equal(target[2 + width], 0x78);
      }
    }
  });

  it('rewrites key slots in place: every batch equals the reference RESP encoding', () => {
    const keys = new RecordingKeys(1_000_000, 3);
    const batches = builder(singleTest('SET key:__key__ __value__'), { kind: 'fixed', size: 10 }, keys, 16, 1_000_000, 12);
    for (let round = 0; round < 50; round++) {
      const count = round % 16 === 0 ? 5 : 16; // short batches too (the end of a request budget)
      keys.drawn.length = 0;
      const length = batches.build(count);
      const expected = Buffer.concat(keys.drawn.map((key) => encodeRespCommand(['SET', `key:${String(key).padStart(12, '0')}`, 'x'.repeat(10)])));
      assert.equal(keys.drawn.length, count);
      assert.deepEqual(batches.buffer.subarray(0, length), expected);
    }
  });

  it('uses one key draw per command for repeated __key__, and expands __client__ and __rand_int__', () => {
    const keys = new RecordingKeys(5000, 4);
    const batches = builder(singleTest('HSET h:__key__:__client__ f:__key__ r:__rand_int__'), { kind: 'fixed', size: 3 }, keys, 4, 5000, 2, 42);
    const length = batches.build(4);
    const commands = parseCommands(batches.buffer.subarray(0, length));
    assert.equal(commands.length, 4);
    commands.forEach((args, i) => {
      const key = String(keys.drawn[i]).padStart(4, '0'); // size 2 is widened to fit key 4999
      assert.equal(args[0], 'HSET');
      assert.equal(args[1], `h:${key}:42`);
      assert.equal(args[2], `f:${key}`);
      assert.match(args[3], /^r:\d{12}$/);
      assert.ok(Number(args[3].slice(2)) < 5000);
    });
    assert.deepEqual(batches.buffer.subarray(0, length), Buffer.concat(commands.map((args) => encodeRespCommand(args))));
  });

  it('rewrites only the low digits in place: wide key and __rand_int__ fields stay zero-padded batch after batch', () => {
    const keys = new RecordingKeys(5000, 9);
    const batches = builder(singleTest('SET k:__key__:__rand_int__ v'), { kind: 'fixed', size: 3 }, keys, 8, 5000, 12);
    const rands = new Set<number>();
    for (let round = 0; round < 40; round++) {
      keys.drawn.length = 0;
      const count = round % 5 === 0 ? 3 : 8;
      const length = batches.build(count);
      const commands = parseCommands(batches.buffer.subarray(0, length));
      assert.equal(commands.length, count);
      commands.forEach((args, i) => {
        const match = /^k:(\d{12}):(\d{12})$/.exec(args[1]);
        assert.ok(match, args[1]);
        assert.equal(match[1], String(keys.drawn[i]).padStart(12, '0'));
        assert.ok(Number(match[2]) < 5000);
        rands.add(Number(match[2]));
      });
    }
    assert.ok(rands.size > 100, `${rands.size} distinct __rand_int__ values`);
  });

  it('re-encodes variable value sizes with correct lengths (range and weighted)', () => {
    for (const value of [
      { kind: 'range', min: 1, max: 300 },
      {
        kind: 'weighted',
        choices: [
          { size: 8, weight: 1 },
          { size: 1024, weight: 1 },
          { size: 99999, weight: 1 },
        ],
      },
    ] as ValuePlan[]) {
      const keys = new RecordingKeys(100, 5);
      const batches = builder(singleTest('SET k:__key__ pre__value__post'), value, keys, 8, 100, 3);
      const sizes = new Set<number>();
      for (let round = 0; round < 40; round++) {
        keys.drawn.length = 0;
        const commands = parseCommands(batches.buffer.subarray(0, batches.build(8)));
        commands.forEach((args, i) => {
          assert.equal(args[1], `k:${String(keys.drawn[i]).padStart(3, '0')}`);
          const payload = args[2];
          assert.ok(payload.startsWith('pre') && payload.endsWith('post'));
          const size = payload.length - 7;
          assert.equal(payload.slice(3, -4), 'x'.repeat(size));
          sizes.add(size);
        });
      }
      if (value.kind === 'range') {
        assert.ok([...sizes].every((s) => s >= 1 && s <= 300));
        assert.ok(sizes.size > 100, `range sizes should vary (${sizes.size} distinct)`);
      } else {
        assert.deepEqual(
          [...sizes].sort((a, b) => a - b),
          [8, 1024, 99999],
        );
      }
    }
  });

  it('encodes a weighted mix per slot, labels each slot, and keeps the bytes exact', () => {
    const keys = new RecordingKeys(100, 6);
    const test = mixTest([
      [3, 'GET k:__key__'],
      [1, 'SET k:__key__ __value__'],
      [1, 'PING'],
    ]);
    const batches = builder(test, { kind: 'fixed', size: 5 }, keys, 10, 100, 3);
    const counts = [0, 0, 0];
    for (let round = 0; round < 500; round++) {
      keys.drawn.length = 0;
      const commands = parseCommands(batches.buffer.subarray(0, batches.build(10)));
      let keyAt = 0;
      commands.forEach((args, i) => {
        const label = batches.labels[i];
        counts[label]++;
        assert.equal(args[0], ['GET', 'SET', 'PING'][label]);
        if (label !== 2) assert.equal(args[1], `k:${String(keys.drawn[keyAt++]).padStart(3, '0')}`);
        if (label === 1) assert.equal(args[2], 'xxxxx');
      });
      assert.equal(keyAt, keys.drawn.length);
    }
    const total = counts.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(counts[0] / total - 0.6) < 0.03, `GET share ${counts[0] / total}`);
    assert.ok(Math.abs(counts[2] / total - 0.2) < 0.03, `PING share ${counts[2] / total}`);
  });

  it('sends inline commands as a text line', () => {
    const keys = new RecordingKeys(10, 7);
    const batches = builder(singleTest('PING', { inline: true, label: 'PING_INLINE' }), { kind: 'fixed', size: 3 }, keys, 3, 10, 1);
    assert.equal(batches.buffer.subarray(0, batches.build(3)).toString(), 'PING\r\nPING\r\nPING\r\n');
    const withKey = builder(singleTest('GET k:__key__', { inline: true }), { kind: 'fixed', size: 3 }, keys, 1, 10, 1);
    keys.drawn.length = 0;
    const bytes = withKey.buffer.subarray(0, withKey.build(1));
    assert.deepEqual(bytes, encodeInlineCommand(['GET', `k:${keys.drawn[0]}`]));
  });

  it('produces bytes a RESP parser sees as exactly one command each', () => {
    // Cross-check with the reply scanner: RESP commands are arrays of bulk strings, valid RESP values too.
    const batches = builder(singleTest('SET key:__key__ __value__'), { kind: 'range', min: 0, max: 50 }, new RecordingKeys(10, 8), 32, 10, 1);
    const scanner = new ReplyScanner();
    assert.equal(scanner.scan(batches.buffer.subarray(0, batches.build(32))), 32);
  });
});
