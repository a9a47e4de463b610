// A private network namespace for bench/physics.mjs: its own loopback, a redis-server inside it, and a
// clean-up that leaves nothing behind (namespace deleted, every process in it killed, temp folder removed)
// on a normal end, an error, Ctrl-C or SIGTERM.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Runs a command to its end (asynchronously, so a signal is handled at once); rejects on a non-zero exit
 * unless `allowFail`. `track`: a set holding the child while it runs, so it can be cut short.
 */
export function run(command, args, { allowFail = false, input, track } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    track?.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    if (input !== undefined) child.stdin.end(input);
    child.on('error', reject);
    child.on('close', (status, signal) => {
      track?.delete(child);
      const result = { status, signal, stdout, stderr };
      if (status === 0 || allowFail) resolve(result);
      else reject(new Error(`${command} ${args.join(' ')} failed (${status ?? signal}): ${(stderr || stdout).trim().slice(-2000)}`));
    });
  });
}

/**
 * Creates `rbench-phys-XXXX` with its loopback up. `exec(cmd, args)` runs a command inside it; `spawn(cmd,
 * args)` starts a long-lived one there; `close()` (also on exit and on SIGINT/SIGTERM) tears it all down.
 */
export async function createNamespace() {
  const name = `rbench-phys-${randomBytes(3).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const children = new Set(); // long-lived ones (spawn)
  const runs = new Set(); // commands run to their end (exec)
  const abortRuns = () => {
    for (const child of runs) if (child.exitCode === null) child.kill('SIGKILL');
  };
  let closed = false;
  const closeSync = () => {
    if (closed) return;
    closed = true;
    abortRuns();
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    // Whatever else runs inside (a tool cut short by Ctrl-C): killed by pid, then the namespace goes.
    const pids = spawnSync('ip', ['netns', 'pids', name], { encoding: 'utf8' }).stdout?.split('\n').filter(Boolean) ?? [];
    for (const pid of pids) spawnSync('kill', ['-KILL', pid]);
    spawnSync('ip', ['netns', 'del', name]);
    rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (signal) => {
    process.stderr.write(`\n${signal}: deleting namespace ${name}\n`);
    closeSync();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('exit', closeSync);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  await run('ip', ['netns', 'add', name]).catch((error) => {
    closeSync();
    throw error.code === 'ENOENT' ? new Error('needs the ip command: apt-get install -y iproute2') : error;
  });
  try {
    await run('ip', ['-n', name, 'link', 'set', 'lo', 'up']);
  } catch (error) {
    closeSync();
    throw error;
  }
  return {
    name,
    dir,
    exec: (command, args, options) => run('ip', ['netns', 'exec', name, command, ...args], { ...options, track: runs }),
    /** Kills every command running inside now (a tool that would wait forever on a path gone dead). */
    abortRuns,
    spawn: (command, args) => {
      // `ip netns exec` execs the command itself: the child's pid is the command's.
      const child = spawn('ip', ['netns', 'exec', name, command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      children.add(child);
      child.on('exit', () => children.delete(child));
      return child;
    },
    close: async () => {
      closeSync();
      process.off('exit', closeSync);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** Starts redis-server inside the namespace on `port`, persistence off, with a unix socket for the bench's own reads. */
export async function startRedis(ns, port) {
  const socket = join(ns.dir, 'redis.sock');
  const child = ns.spawn('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    ns.dir,
    '--unixsocket',
    socket,
    '--unixsocketperm',
    '700',
  ]);
  let log = '';
  child.stdout.on('data', (d) => (log = (log + d).slice(-4000)));
  // The bench reads counters over the socket: not through the shaped loopback, so never delayed or lost.
  const cli = (...args) => run('redis-cli', ['-s', socket, ...args]);
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`redis-server did not start in ${ns.name}: ${log.trim()}`);
    const ping = await run('redis-cli', ['-s', socket, 'PING'], { allowFail: true });
    if (ping.stdout.trim() === 'PONG') return { port, socket, cli, child };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server did not answer on ${socket} within 5 s: ${log.trim()}`);
}
