// A throwaway redis-server on a free loopback port with its own temp dir: the default target of the
// CLI and the extension when none is configured, and the server every test runs against.
import type { ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { copyUserNamedFile, FileGateError, scanBoundedFile } from '../gates/files';
import { createServer } from 'node:net';
import { openTcpSocket } from './clientSocket';
import { tmpdir, totalmem } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { ServerDirective } from '../scenario/plan';
import { BINARY_NOT_FOUND, WATCHDOG_SOURCE, watchdogEnv } from './watchdog';

export interface LocalServerOptions {
  /** Extra configuration lines (`save 60 10000`), applied after the defaults. */
  config?: ServerDirective[];
  /** Path or name of the server binary; default `redis-server` from PATH (or RBENCH_REDIS_SERVER). */
  binary?: string;
  /** Give up waiting for the server after this long. */
  startTimeoutMs?: number;
  /** Also listen on a unix socket in the server's temp dir and make `url` point there (as `server unixsocket on` does). */
  unixSocket?: boolean;
  /** Tests only: allow DEBUG (to slow a server on purpose). A scenario never can. */
  debugCommand?: boolean;
  /** The server's `maxmemory` in bytes unless a `server maxmemory` line sets it; default `defaultMaxMemory()`. */
  maxMemory?: number;
  /**
   * Redis modules to load (`rbench run --module PATH`, the machine setting rbench.localServer.modules): the
   * user's own, never a scenario's (its `server loadmodule` stays refused). Checked by `moduleProblem` first.
   */
  modules?: readonly string[];
  /**
   * An RDB file the server loads at start (`rbench run --rdb PATH`): the user's own, never a scenario's (a
   * stranger's RDB would feed the server's loader any bytes). Copied through the file gate into the server's
   * folder as its `dump.rdb`, loaded with `sanitize-dump-payload yes`.
   */
  rdb?: string;
}

/** The largest RDB `--rdb` copies (the copy goes chunk by chunk; the server holds the data in memory). */
export const MAX_RDB_BYTES = 16 * 1024 ** 3;
/** Loading a dataset takes time: the wait for the first PONG with `--rdb`. */
const RDB_START_TIMEOUT_MS = 300_000;

/** The throwaway server's default `maxmemory`: half the machine's memory, in whole MiB. */
export function defaultMaxMemory(total = totalmem()): number {
  return Math.max(64, Math.floor(total / 2 / 1024 ** 2)) * 1024 ** 2;
}

/** The `maxmemory` RBench gives the server (bytes): undefined when the scenario's `server maxmemory` line sets it. */
function givenMaxMemory(options: LocalServerOptions): number | undefined {
  if (options.config?.some((directive) => directive.name === 'maxmemory')) return undefined;
  return options.maxMemory ?? defaultMaxMemory();
}

export interface LocalServer {
  host: string;
  port: number;
  /** Where clients should connect: `unix:///…/redis.sock` when the server has a socket, else `redis://127.0.0.1:port`. */
  url: string;
  /** The unix socket, when the scenario asked for one. */
  socket?: string;
  dir: string;
  /** The redis-server process (not its watchdog). */
  pid: number;
  /** The `maxmemory` given by default (bytes); absent when the scenario's `server maxmemory` line set it. */
  maxMemory?: number;
  /** The modules loaded (absolute paths). */
  modules: string[];
  /** Stops the server (SIGTERM, then SIGKILL) and removes its directory. Safe to call twice. */
  stop(): Promise<void>;
}

export class LocalServerError extends Error {}

/** Finds a free TCP port on 127.0.0.1 by binding port 0. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function quoteConfigArg(arg: string): string {
  return /^[^\s"']+$/.test(arg) ? arg : JSON.stringify(arg);
}

/** No module is larger than this: a bigger file is refused unread. */
const MODULE_READ_LIMIT = 1024 * 1024 * 1024;
const ENTRY_POINT = Buffer.from('RedisModule_OnLoad');

/** The first bytes of a shared library: ELF (Linux, BSD) or Mach-O (macOS). */
function isSharedLibrary(head: Buffer): boolean {
  const magic = head.readUInt32BE(0);
  return head.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) || [0xfeedfacf, 0xcffaedfe, 0xcafebabe, 0xfeedface, 0xcefaedfe].includes(magic);
}

/**
 * Why `path` cannot be loaded as a Redis module, in a sentence naming it; undefined when it can. A module is a
 * regular file, a shared library, and exports RedisModule_OnLoad (found in its symbol table's names).
 */
export function moduleProblem(path: string): string | undefined {
  const absolute = resolve(path);
  let size: number;
  try {
    const stat = statSync(absolute);
    if (!stat.isFile()) return `the module ${path} is not a file: give the path of a module's .so file, such as /usr/lib/redis/modules/redisearch.so`;
    size = stat.size;
  } catch {
    return `the module ${path} does not exist: give the path of a module's .so file, such as /usr/lib/redis/modules/redisearch.so`;
  }
  if (size < 4 || size > MODULE_READ_LIMIT) return `${path} is not a Redis module (${size < 4 ? 'it is nearly empty' : 'it is larger than any module'})`;
  let head: Buffer | undefined;
  let exported = false;
  try {
    // Read in chunks through the file gate (each window overlapping the last by the name's length): memory stays
    // flat whatever the file's size.
    let carry = Buffer.alloc(0);
    scanBoundedFile(absolute, { maxBytes: MODULE_READ_LIMIT, userNamed: true }, (chunk) => {
      head ??= Buffer.from(chunk.subarray(0, Math.min(chunk.length, 4)));
      const window = Buffer.concat([carry, chunk]);
      exported = window.includes(ENTRY_POINT);
      carry = Buffer.from(window.subarray(Math.max(0, window.length - ENTRY_POINT.length)));
      return !exported;
    });
  } catch (error) {
    return `cannot read the module ${path}: ${(error as Error).message}`;
  }
  if (!head || head.length < 4 || !isSharedLibrary(head))
    return `${path} is not a Redis module: it is not a shared library (a module is the .so file a module's package installs)`;
  if (!exported) return `${path} is a shared library but not a Redis module: it has no RedisModule_OnLoad`;
  return undefined;
}

/**
 * The throwaway server's binary (`--server-binary`, the user's word: a file never names one): a path, or a bare name
 * looked up in PATH as a shell would; an executable file, or why not. Whether it is a Redis-compatible server
 * shows when it starts.
 */
export function serverBinaryPath(given: string): { path: string } | { problem: string } {
  const candidates = given.includes('/')
    ? [resolve(given)]
    : (process.env.PATH ?? '')
        .split(':')
        .filter(Boolean)
        .map((dir) => join(dir, given));
  let problem = given.includes('/')
    ? `the server binary ${given} does not exist: give the path of a redis-server or valkey-server executable`
    : `no ${given} in PATH: give the path of a redis-server or valkey-server executable`;
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) {
        problem = `the server binary ${given} is not a file: give the path of a redis-server or valkey-server executable`;
        continue;
      }
      accessSync(candidate, constants.X_OK);
      return { path: candidate };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problem = `the server binary ${given} is not executable (chmod +x it, or give another)`;
    }
  }
  return { problem };
}

export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  for (const module of options.modules ?? []) {
    const problem = moduleProblem(module);
    if (problem) throw new LocalServerError(problem);
  }
  const binary = options.binary ?? process.env.RBENCH_REDIS_SERVER ?? 'redis-server';
  // Ports can be taken between probing and binding; a few attempts make that race harmless.
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    // A folder per attempt: the watchdog removes it when its server exits.
    const dir = mkdtempSync(join(tmpdir(), 'rbench-redis-'));
    try {
      return await launch(binary, dir, port, options);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      lastError = error;
      if (error instanceof LocalServerError && /not found|ENOENT|could not load the module|--rdb/.test(error.message)) break;
    }
  }
  throw lastError;
}

/** The socket file of a throwaway server: in its own temp dir, never a path a scenario names. */
export const LOCAL_SOCKET_NAME = 'redis.sock';

/** The throwaway server's socket when `server unixsocket on` (the last such line wins) or the launcher's option asks for one. */
function socketPath(dir: string, options: LocalServerOptions): string | undefined {
  const lines = (options.config ?? []).filter((directive) => directive.name === 'unixsocket');
  const last = lines[lines.length - 1];
  const wanted = last ? /^(on|yes)$/i.test(last.args[0] ?? '') : options.unixSocket === true;
  return wanted ? join(dir, LOCAL_SOCKET_NAME) : undefined;
}

/** The redis.conf of a throwaway server: the launcher's lines, then the scenario's (already vetted) directives. */
export function localServerConfig(dir: string, port: number, options: LocalServerOptions): string {
  const socket = socketPath(dir, options);
  // Persistence is off unless the scenario turns it on: a benchmark should not measure disk by accident.
  const lines: string[] = [
    `port ${port}`,
    'bind 127.0.0.1',
    `dir ${quoteConfigArg(dir)}`,
    `pidfile ${quoteConfigArg(join(dir, 'redis.pid'))}`,
    'save ""',
    'appendonly no',
    'daemonize no',
    'protected-mode yes',
    'logfile ""',
    'loglevel warning',
    // A scenario is written by a stranger: no module loading, no DEBUG, no changing paths at run time.
    `enable-debug-command ${options.debugCommand ? 'local' : 'no'}`,
    'enable-module-command no',
    'enable-protected-configs no',
  ];
  // A memory cap unless the scenario sets one: a plan that outgrows the machine gets OOM errors in its
  // results, not a swapping machine; noeviction, so that nothing is dropped silently.
  const config = options.config ?? [];
  const maxMemory = givenMaxMemory(options);
  if (maxMemory !== undefined) lines.push(`maxmemory ${maxMemory}`);
  if (!config.some((directive) => directive.name === 'maxmemory-policy')) lines.push('maxmemory-policy noeviction');
  // The user's dataset, copied in as dump.rdb: checked deeply as it loads (a corrupt file stops the server, not a crash inside it).
  if (options.rdb) lines.push('dbfilename dump.rdb', 'sanitize-dump-payload yes');
  // The user's modules (absolute: the server runs in its temp dir); a scenario's `loadmodule` never gets here.
  for (const module of options.modules ?? []) lines.push(`loadmodule ${quoteConfigArg(resolve(module))}`);
  // Only this user may open the socket, as only loopback clients may reach the port.
  if (socket) lines.push(`unixsocket ${quoteConfigArg(socket)}`, 'unixsocketperm 700');
  for (const directive of options.config ?? []) {
    // `server binary NAME` chose the executable (the session's doing): no redis.conf line.
    if (directive.name === 'unixsocket' || directive.name === 'binary') continue;
    lines.push([directive.name, ...directive.args.map(quoteConfigArg)].join(' '));
  }
  return lines.join('\n') + '\n';
}

async function launch(binary: string, dir: string, port: number, options: LocalServerOptions): Promise<LocalServer> {
  const socket = socketPath(dir, options);
  const conf = join(dir, 'redis.conf');
  if (options.rdb) {
    try {
      copyUserNamedFile(options.rdb, dir, 'dump.rdb', MAX_RDB_BYTES);
    } catch (error) {
      if (error instanceof FileGateError) throw new LocalServerError(`the RDB file (--rdb): ${error.message}`);
      throw error;
    }
  }
  writeFileSync(conf, localServerConfig(dir, port, options), { mode: 0o600 });
  // The watchdog holds our pipe on its stdin: when this process ends, however it ends, the server goes too.
  // Required here, not at the top: child_process brings dgram and the socket list, which a run against a
  // server of the user's (the common case) never needs, yet paid for at every start.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  const child = spawn(process.execPath, ['-e', WATCHDOG_SOURCE, binary, conf, dir], {
    cwd: dir,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: watchdogEnv(),
    windowsHide: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stdin?.on('error', () => undefined);
  const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.on('error', (error) => resolve({ code: null, error }));
    child.on('exit', (code) => resolve({ code }));
  });

  const deadline = Date.now() + (options.startTimeoutMs ?? (options.rdb ? RDB_START_TIMEOUT_MS : 10_000));
  for (;;) {
    const result = await Promise.race([exited, delay(50).then(() => undefined)]);
    if (result) {
      if (result.code === BINARY_NOT_FOUND) {
        throw new LocalServerError(`redis-server not found: install it (Debian/Ubuntu: apt-get install redis-server) or set RBENCH_REDIS_SERVER to its path.`);
      }
      const failedModule = /Module (\S+) failed to load/.exec(output)?.[1];
      if (failedModule)
        throw new LocalServerError(
          `redis-server could not load the module ${basename(failedModule)} (${failedModule}): ${output.trim().split('\n').slice(-3).join(' ')}`,
        );
      if (options.rdb && /RDB|DB format|Short read|loading/i.test(output))
        throw new LocalServerError(`redis-server could not load the RDB file (--rdb ${options.rdb}): ${rdbFailure(output)}`);
      throw new LocalServerError(`redis-server exited with code ${result.code}: ${output.trim() || result.error?.message}`);
    }
    if (await answersPing(port)) break;
    if (Date.now() > deadline) {
      child.stdin?.end();
      child.kill('SIGKILL');
      throw new LocalServerError(`redis-server did not answer on 127.0.0.1:${port} within the start timeout: ${output.trim()}`);
    }
  }
  const pid = readPid(join(dir, 'redis.pid'));
  const maxMemory = givenMaxMemory(options);
  return {
    host: '127.0.0.1',
    port,
    url: socket ? `unix://${encodeURI(socket)}` : `redis://127.0.0.1:${port}`,
    ...(socket ? { socket } : {}),
    dir,
    pid,
    ...(maxMemory === undefined ? {} : { maxMemory }),
    modules: (options.modules ?? []).map((module) => resolve(module)),
    stop: once(() => stopChild(child, exited, dir, pid)),
  };
}

/** The lines of a failed start that say why the dataset did not load (Redis logs the counts it read around them). */
function rdbFailure(output: string): string {
  const lines = output.trim().split('\n');
  const why = lines.filter((line) => /wrong|fatal|bad|short read|error|invalid|unexpected/i.test(line));
  return (why.length > 0 ? why : lines).slice(-3).join(' ');
}

function readPid(path: string): number {
  try {
    return Number(readFileSync(path, 'utf8').trim()) || -1;
  } catch {
    return -1;
  }
}

async function stopChild(child: ChildProcess, exited: Promise<unknown>, dir: string, serverPid: number): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    // Closing the pipe is the watchdog's signal to stop the server (SIGTERM, then SIGKILL after 5 s).
    child.stdin?.end();
    const stopped = await Promise.race([exited.then(() => true), delay(7000).then(() => false)]);
    if (!stopped) {
      child.kill('SIGKILL');
      if (serverPid > 0) killQuietly(serverPid);
      await exited;
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = openTcpSocket({ port, host: '127.0.0.1' });
    let reply = '';
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => finish(false));
    socket.on('error', () => finish(false));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      // -LOADING while the dataset loads: not ready yet. -NOAUTH: up, with requirepass set.
      if (reply.includes('\r\n')) finish(reply.startsWith('+PONG') || reply.startsWith('-NOAUTH'));
    });
    socket.once('connect', () => socket.write('PING\r\n'));
  });
}

/** A timer that does not keep the process alive (a race's loser must not delay exit). */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => (promise ??= fn());
}
