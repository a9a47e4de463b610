import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { Socket } from 'node:net';
import { defaultMaxMemory, localServerConfig, startLocalServer, LocalServerError } from '../../../src/redis/localServer';

function sendInline(port: number, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let reply = '';
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.endsWith('\r\n')) {
        socket.destroy();
        resolve(reply);
      }
    });
    socket.connect(port, '127.0.0.1', () => socket.write(line + '\r\n'));
  });
}

describe('local throwaway redis-server', () => {
  it('starts on a free loopback port with persistence off, applies directives, and cleans up', async () => {
    const server = await startLocalServer({ config: [{ name: 'maxmemory', args: ['64mb'] }] });
    try {
      assert.match(server.url, /^redis:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(await sendInline(server.port, 'PING'), '+PONG\r\n');
      assert.match(await sendInline(server.port, 'CONFIG GET save'), /\$0\r\n\r\n$/);
      assert.match(await sendInline(server.port, 'CONFIG GET maxmemory'), /67108864/);
    } finally {
      await server.stop();
    }
    assert.equal(existsSync(server.dir), false);
    await server.stop(); // idempotent
  });

  it('caps its memory by default (half the machine, noeviction) unless the scenario sets maxmemory (issue 18)', async () => {
    const server = await startLocalServer();
    try {
      assert.match(await sendInline(server.port, 'CONFIG GET maxmemory'), new RegExp(`\\r\\n${defaultMaxMemory()}\\r\\n$`));
      assert.match(await sendInline(server.port, 'CONFIG GET maxmemory-policy'), /noeviction\r\n$/);
    } finally {
      await server.stop();
    }
    assert.ok(defaultMaxMemory() > 0);
    assert.equal(defaultMaxMemory(8 * 1024 ** 3), 4 * 1024 ** 3);
    assert.equal(defaultMaxMemory(3 * 1024 ** 2 + 5), 64 * 1024 ** 2, 'at least 64 MiB');
    assert.equal(defaultMaxMemory(1000 * 1024 ** 2 + 3 * 1024 ** 2), 501 * 1024 ** 2, 'whole MiB');
    const own = localServerConfig('/var/rbench-x', 1, {
      config: [
        { name: 'maxmemory', args: ['1gb'] },
        { name: 'maxmemory-policy', args: ['allkeys-lru'] },
      ],
    });
    assert.deepEqual(
      own.split('\n').filter((line) => line.startsWith('maxmemory')),
      ['maxmemory 1gb', 'maxmemory-policy allkeys-lru'],
    );
    const chosen = localServerConfig('/var/rbench-x', 1, { maxMemory: 1234 });
    assert.deepEqual(
      chosen.split('\n').filter((line) => line.startsWith('maxmemory')),
      ['maxmemory 1234', 'maxmemory-policy noeviction'],
    );
  });

  it('names the package to install when the binary is missing', async () => {
    await assert.rejects(startLocalServer({ binary: 'redis-server-that-does-not-exist' }), (error: Error) => {
      assert.ok(error instanceof LocalServerError);
      assert.match(error.message, /apt-get install redis-server/);
      return true;
    });
  });

  it('reports a bad directive with the server output', async () => {
    await assert.rejects(startLocalServer({ config: [{ name: 'no-such-directive', args: ['1'] }] }), /no-such-directive|Bad directive/i);
  });
});

describe('local throwaway redis-server with a password', () => {
  it('starts when requirepass is set (readiness sees NOAUTH)', async () => {
    const server = await startLocalServer({ config: [{ name: 'requirepass', args: ['s3cret'] }] });
    try {
      assert.match(await sendInline(server.port, 'PING'), /^-NOAUTH/);
      assert.equal(await sendInline(server.port, 'AUTH s3cret'), '+OK\r\n');
    } finally {
      await server.stop();
    }
  });
});

describe('local throwaway redis-server as a sandbox', () => {
  it('refuses module loading, DEBUG and changing protected paths at run time', async () => {
    const server = await startLocalServer();
    try {
      assert.match(await sendInline(server.port, 'MODULE LOAD /nonexistent/evil.so'), /^-ERR .*MODULE command not allowed/);
      assert.match(await sendInline(server.port, 'DEBUG SLEEP 0'), /^-ERR .*DEBUG command not allowed/);
      assert.match(await sendInline(server.port, 'CONFIG SET dir /tmp'), /^-ERR .*protected config/);
      assert.match(await sendInline(server.port, 'CONFIG SET dbfilename authorized_keys'), /^-ERR .*protected config/);
    } finally {
      await server.stop();
    }
  });

  it('reports the redis-server pid, not its watchdog, and stops both', async () => {
    const server = await startLocalServer();
    const info = await sendInline(server.port, 'INFO server');
    const pid = Number(/process_id:(\d+)/.exec(info)?.[1]);
    assert.equal(server.pid, pid);
    await server.stop();
    assert.throws(() => process.kill(pid, 0), /ESRCH/);
    assert.equal(existsSync(server.dir), false);
  });
});
