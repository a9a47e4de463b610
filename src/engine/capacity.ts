// Before a load opens its connections: can this process hold that many sockets (file descriptors),
// and will the server accept that many clients (maxclients)? A storm of connections that fails half
// way gives misleading errors (connect timeouts, EMFILE) and a half-started run; this says why first.
import { readFileSync } from 'node:fs';
import { closeControlConnection, openControlConnection } from '../redis/control';
import { address } from '../redis/errors';
import { parseInfo } from '../redis/info';
import type { ConnectionOptions } from '../redis/types';
import { LoadError } from './errors';
import { groupDigits } from '../scenario/numberText';

/** File descriptors the process needs besides its load connections (stdio, files, workers, control and INFO connections). */
const SPARE_DESCRIPTORS = 64;
/** Connections of this run besides the load's own (control connection, INFO sampler). */
const SPARE_SERVER_CLIENTS = 2;

/** The soft limit on open files (`ulimit -n`) where the platform tells it (Linux), else undefined. */
export function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line && line[1] !== 'unlimited' ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** What the load's connections are, and the setting to lower: `clients`, or with `idle-connections` both together. */
function connectionWords(clients: number, idle: number): { what: string; lower: string } {
  if (idle === 0) return { what: `${groupDigits(clients)} clients`, lower: '`clients`' };
  return { what: `${groupDigits(clients - idle)} clients and ${groupDigits(idle)} idle connections`, lower: '`clients` plus `idle-connections`' };
}

/** Why `clients` connections (`idle` of them idle-connections) cannot be opened by this process, or undefined. */
export function descriptorProblem(clients: number, limit: number | undefined, idle = 0): string | undefined {
  if (limit === undefined || clients + SPARE_DESCRIPTORS <= limit) return undefined;
  const { what, lower } = connectionWords(clients, idle);
  return `${what} need as many open files, but this process may open ${groupDigits(limit)} (ulimit -n) — raise the limit (such as \`ulimit -n ${nextPowerOfTwo(clients + SPARE_DESCRIPTORS)}\` before starting RBench or the editor) or lower ${lower} to at most ${groupDigits(Math.max(1, limit - SPARE_DESCRIPTORS))}`;
}

/** Why the server will refuse `clients` more connections, or undefined (also when INFO does not say). */
export function maxClientsProblem(clients: number, info: { maxclients?: number; connected?: number }, address: string, idle = 0): string | undefined {
  if (info.maxclients === undefined) return undefined;
  const free = info.maxclients - (info.connected ?? 0) - SPARE_SERVER_CLIENTS;
  if (clients <= free) return undefined;
  const needs = idle === 0 ? groupDigits(clients) : `${groupDigits(clients)} (${connectionWords(clients, idle).what})`;
  return `${address} accepts ${groupDigits(info.maxclients)} clients (maxclients) and has ${groupDigits(info.connected ?? 0)} connected; this load needs ${needs} — lower ${connectionWords(clients, idle).lower} to at most ${groupDigits(Math.max(0, free))}, or raise maxclients on the server`;
}

function nextPowerOfTwo(n: number): number {
  return 2 ** Math.ceil(Math.log2(n));
}

/** Throws LoadError when the load's connections cannot all be opened; checks the server when it answers INFO. */
export async function checkConnectionCapacity(connection: ConnectionOptions, clients: number, idle = 0): Promise<void> {
  const local = descriptorProblem(clients, openFileLimit(), idle);
  if (local) throw new LoadError(local);
  if (clients <= 100) return; // far below any real maxclients: no extra round trip for ordinary loads
  let redis;
  try {
    redis = await openControlConnection(connection);
  } catch {
    return; // the load's own connections report why the server cannot be reached
  }
  try {
    const clientsInfo = parseInfo(String(await redis.info('clients'))).clients ?? {};
    const number = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined);
    const problem = maxClientsProblem(
      clients,
      { maxclients: number(clientsInfo.maxclients), connected: number(clientsInfo.connected_clients) },
      address(connection),
      idle,
    );
    if (problem) throw new LoadError(problem);
  } catch (error) {
    if (error instanceof LoadError) throw error;
    // INFO refused (ACL) or renamed: the check is skipped, the load reports what happens.
  } finally {
    await closeControlConnection(redis);
  }
}
