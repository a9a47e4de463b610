#!/usr/bin/env node
// The floor under any Node client: the least a Node process spends to make the same requests as a
// vs-redis-benchmark configuration. One thread, plain net sockets with `onread` into a reused buffer, one
// prebuilt batch per connection whose key digits are rewritten from Math.random (as redis-benchmark's -r),
// replies counted by a minimal RESP walk (+, -, :, $ only: what SET and GET answer), no latency, no timeline,
// no run file. What RBench spends above this figure is its own (start-up, worker thread, measuring, the run's
// facts); what the floor spends is Node's and the kernel's, which no JavaScript client avoids.
//
//   node bench/node-floor.mjs PORT TEST CLIENTS PIPELINE REQUESTS KEYSPACE SIZE
//
// Prints one line of JSON: {"requests", "ms", "opsPerSec"}. bench/vs-redis-benchmark.mjs --floor runs it
// under /usr/bin/time beside the two tools.
import net from 'node:net';

const [port, test, clients, pipeline, requests, keyspace, size] = process.argv.slice(2).map((v, i) => (i === 1 ? v : Number(v)));
if (!['set', 'get'].includes(test) || ![port, clients, pipeline, requests, keyspace, size].every((n) => Number.isInteger(n) && n > 0)) {
  console.error('usage: node bench/node-floor.mjs PORT set|get CLIENTS PIPELINE REQUESTS KEYSPACE SIZE');
  process.exit(2);
}

const DIGITS = 12; // key:__rand_int__ as redis-benchmark writes it: 12 digits, zero-padded
const key = `key:${'0'.repeat(DIGITS)}`;
const value = 'x'.repeat(size);
const one = test === 'set' ? `*3\r\n$3\r\nSET\r\n$${key.length}\r\n${key}\r\n$${size}\r\n${value}\r\n` : `*2\r\n$3\r\nGET\r\n$${key.length}\r\n${key}\r\n`;
const digitsAt = one.indexOf(key) + 4;

/** A batch of `count` requests and the offsets of their key digits. */
function batchOf(count) {
  const buffer = Buffer.from(one.repeat(count), 'latin1');
  const at = Array.from({ length: count }, (_, i) => i * one.length + digitsAt);
  return { buffer, at };
}

// Only the digits a key number can reach: the leading zeros stay as the batch was built.
const WRITTEN = String(keyspace - 1).length;

function rewrite(batch, count) {
  for (let i = 0; i < count; i++) {
    let n = (Math.random() * keyspace) | 0;
    const end = batch.at[i] + DIGITS;
    for (let d = end - 1; d >= end - WRITTEN; d--) {
      const q = (n / 10) | 0;
      batch.buffer[d] = 48 + n - q * 10;
      n = q;
    }
  }
}

/** Counts whole replies in chunk[0 … length), carrying a partial one in `state` (simple types and bulk strings only). */
function countReplies(state, chunk, length) {
  let replies = 0;
  for (let i = 0; i < length; i++) {
    const byte = chunk[i];
    if (state.skip > 0) {
      const take = Math.min(state.skip, length - i);
      state.skip -= take;
      i += take - 1;
      if (state.skip === 0) replies++;
      continue;
    }
    if (state.header) {
      if (byte === 10) {
        state.header = false;
        if (state.type !== 36 || state.bulk < 0) replies++;
        else state.skip = state.bulk + 2;
      } else if (state.type === 36 && byte === 45)
        state.bulk = -1; // $-1: a nil, no body
      else if (state.type === 36 && state.bulk >= 0 && byte >= 48 && byte <= 57) state.bulk = state.bulk * 10 + byte - 48;
      continue;
    }
    state.type = byte;
    state.header = true;
    state.bulk = 0;
  }
  return replies;
}

let sent = 0;
let answered = 0;
let open = clients;
const started = process.hrtime.bigint();

for (let c = 0; c < clients; c++) {
  const batch = batchOf(pipeline);
  const state = { header: false, type: 0, bulk: 0, skip: 0 };
  let outstanding = 0;
  const socket = net.connect({
    port,
    host: '127.0.0.1',
    noDelay: true,
    onread: {
      buffer: Buffer.allocUnsafe(64 * 1024),
      callback: (length, chunk) => {
        const replies = countReplies(state, chunk, length);
        outstanding -= replies;
        answered += replies;
        if (outstanding === 0) send();
      },
    },
  });
  const send = () => {
    const count = Math.min(pipeline, requests - sent);
    if (count <= 0) {
      socket.destroy();
      if (--open === 0) finish();
      return;
    }
    sent += count;
    outstanding = count;
    rewrite(batch, count);
    socket.write(count === pipeline ? batch.buffer : batch.buffer.subarray(0, count * one.length));
  };
  socket.on('connect', send);
  socket.on('error', (error) => {
    console.error(`node-floor: ${error.message}`);
    process.exit(1);
  });
}

function finish() {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(JSON.stringify({ requests: answered, ms, opsPerSec: (answered / ms) * 1000 }));
}
