// The control connection of the editor, capture and `rbench check`: one ioredis client beside the load, for
// INFO, CONFIG, facts and cleanup. It fails fast with a clear message instead of retrying in the background.
// A run's own control connections are raw sockets (src/engine/fast/rawControl.ts); ioredis is required only
// here, when such a connection opens, so that a run never parses it.
import type Redis from 'ioredis';
import type { RedisOptions } from 'ioredis';
import type { CommandTally } from './commandTally';
import type { BatchReply, ControlArg, ControlLink } from './controlLink';
import { address, describeConnectionError, describeServerError, errorPlace } from './errors';
import { isReplyError, readServerFacts } from './info';
import { CONTROL_REPLY_LIMITS, guardReplies } from './replyGuard';
import { discoverPrimary } from './sentinel';
import { sentinelClientOptions } from './sentinelClient';
import type { ConnectionOptions, ServerFacts } from './types';

/** A failure to reach, authenticate with or use the server; the message is meant for the user as is. */
export class RedisConnectionError extends Error {
  override name = 'RedisConnectionError';
}

/** Client name in CLIENT LIST, so the control connection can be told apart from the load. */
export const CONTROL_CLIENT_NAME = 'rbench-control';

/** A reconnect after a dropped connection is tried this many times, then the client gives up. */
const MAX_RECONNECTS = 3;
/** A command without an answer for this long fails rather than hanging the run. */
const COMMAND_TIMEOUT_MS = 10_000;

/**
 * Connects, authenticates and selects the database, then checks that the server answers. The control
 * connection always speaks RESP2 (ioredis does not parse RESP3); `resp 3` only concerns the load connections.
 */
export async function openControlConnection(options: ConnectionOptions, tally?: CommandTally): Promise<Redis> {
  // Asked first by us, so that a wrong primary name or an unreachable sentinel gets a plain message.
  if (options.sentinel)
    await discoverPrimary({ ...options, sentinel: options.sentinel }).catch((error: Error) => Promise.reject(new RedisConnectionError(error.message)));
  // No reconnect before the first answer: a server that answers with an error and closes (max clients, a
  // proxy refusing) would otherwise be reconnected to again and again until the command timeout, its error lost.
  let opened = false;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when used (see the top)
  const { default: RedisClient } = require('ioredis') as typeof import('ioredis');
  const redis = new RedisClient(controlClientOptions(options, () => opened));
  // Before connecting: the handshake's commands count as RBench's own too.
  tally?.watch(redis);
  guardReplies(redis, CONTROL_REPLY_LIMITS, { where: address(errorPlace(options)), reconnect: false });
  // Later failures surface through the commands that fail; without a listener ioredis prints them to stderr.
  redis.on('error', () => undefined);
  // ioredis reports AUTH and SELECT failures as 'error' events, and then only rejects connect() with
  // "Connection is closed": keep the first event, which says what went wrong.
  let firstError: unknown;
  const recordError = (error: unknown) => (firstError ??= error);
  redis.on('error', recordError);
  try {
    await redis.connect();
    await pingMs(redis);
    if (firstError !== undefined) throw firstError;
    // Named after the first answer (ioredis' connectionName would send CLIENT SETNAME first and drop its error):
    // other runs tell RBench's connections apart by it (src/runner/otherRuns.ts); a reconnect names itself again.
    const name = options.clientName ?? CONTROL_CLIENT_NAME;
    await redis.client('SETNAME', name).catch(() => undefined);
    redis.on('ready', () => void redis.client('SETNAME', name).catch(() => undefined));
    opened = true;
  } catch (error) {
    redis.disconnect();
    throw new RedisConnectionError(describeConnectionError(firstError ?? error, errorPlace(options)));
  } finally {
    redis.off('error', recordError);
  }
  return redis;
}

export type ConnectionTest = { ok: true; facts: ServerFacts; roundTripMs: number } | { ok: false; error: string };

/** Backs the editor's "Test Connection" command: connects, reads the facts, closes. */
export async function testConnection(options: ConnectionOptions): Promise<ConnectionTest> {
  let redis: Redis | undefined;
  try {
    redis = await openControlConnection(options);
    const roundTripMs = await pingMs(redis);
    const facts = await readServerFacts(ioredisLink(redis));
    const major = Number(facts.version.split('.')[0]);
    if (options.resp === 3 && major < 6) {
      return { ok: false, error: `the target asks for RESP3 (\`resp 3\`), but Redis ${facts.version} only speaks RESP2 (HELLO needs 6.0+): use \`resp 2\`` };
    }
    return { ok: true, facts, roundTripMs };
  } catch (error) {
    if (error instanceof RedisConnectionError) return { ok: false, error: error.message };
    if (isReplyError(error)) return { ok: false, error: describeServerError(error.message) };
    return { ok: false, error: describeConnectionError(error, errorPlace(options)) };
  } finally {
    redis?.disconnect();
  }
}

/** An ioredis client as a ControlLink, for the readers a run shares (info.ts, commandTable.ts, cleanup.ts). */
export function ioredisLink(redis: Redis): ControlLink {
  return {
    call: (command: string, ...args: ControlArg[]) => redis.call(command, ...args),
    batch: async (commands: ControlArg[][]) => ((await redis.pipeline(commands.map((command) => ['call', ...command])).exec()) ?? []) as BatchReply[],
    close: () => closeControlConnection(redis),
    disconnect: () => redis.disconnect(),
  };
}

/** Closes a control connection politely (QUIT), or at once when the server is already gone. */
export async function closeControlConnection(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => undefined);
  redis.disconnect();
}

function controlClientOptions(options: ConnectionOptions, opened: () => boolean): RedisOptions {
  const settings: RedisOptions = {
    host: options.host,
    port: options.port,
    path: options.path,
    db: options.db ?? 0,
    connectTimeout: options.connectTimeoutMs,
    commandTimeout: COMMAND_TIMEOUT_MS,
    lazyConnect: true,
    enableOfflineQueue: false,
    // The ready check runs INFO, which restricted ACL users may not run; pingMs checks the connection instead.
    enableReadyCheck: false,
    maxRetriesPerRequest: 1,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => (opened() && attempt <= MAX_RECONNECTS ? attempt * 200 : null),
    disableClientInfo: true,
  };
  if (options.username !== undefined) settings.username = options.username;
  if (options.password !== undefined) settings.password = options.password;
  if (options.tls) settings.tls = options.tls;
  return { ...settings, ...sentinelClientOptions(options) };
}

/**
 * Milliseconds for a PING round trip. An answer proves the connection works and AUTH/SELECT went
 * through; a NOPERM answer (a user without PING) proves it too, and so does MISCONF (a server whose last
 * snapshot failed refuses PING with writes: the load then measures those refusals).
 */
async function pingMs(redis: Redis): Promise<number> {
  const sent = performance.now();
  try {
    await redis.ping();
  } catch (error) {
    if (!(isReplyError(error) && /^(NOPERM|MISCONF)/.test(error.message))) throw error;
  }
  return performance.now() - sent;
}
