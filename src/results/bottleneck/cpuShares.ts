// Each side's window as the CPU verdicts read it (client-cpu, client-starved, server-cpu, machine-cpu,
// round-trip): from the scheduler's own accounting where it is known — the client's thread that had work
// longest (ClientHealth.threadCpu) and a local server's main thread (ServerDelta.schedule), each split into
// ran / waited for a core / slept — else, for the server, the utilization law: U = X · S, calls per second
// times the server's time per call (wall time inside commands, so a wait for a core inside one counts), or
// its CPU time where that is more. A side sets the pace when it is saturated: with N requests in flight it
// had work at least N/(N+1) of the window, so it was idle less than one more connection's share, or at least
// BOTH_BUSY_SHARE, so more requests in flight could raise throughput by at most 1/U − 1 (under 18 %).
import { isStarved, scheduleShares, type ScheduleShares } from '../../engine/measure/schedule';
import type { Evidence } from './judge';
import { count, micros, percent } from './figures';
import { serverCpu } from './serverLoad';
import type { ServerDelta } from '../../redis/types';

export interface SideCpu {
  /** Share of the window the side had work (ran or waited for a core); for a server without schedstat, U = X · S at least. */
  busy: number;
  /** The scheduler's split, where it is known. */
  shares?: ScheduleShares;
  /** Waiting for a core was the largest part of its window (src/engine/threadCpu.ts). */
  starved: boolean;
  /** The figures the busy share rests on: `the server's main thread ran 45 %, waited 50 % for a core, slept 5 %`. */
  text: string;
}

/** `ran 45 %, waited 50 % for a core, slept 5 %` of the window. */
function sharesText(shares: ScheduleShares): string {
  return `ran ${percent(shares.run)}, waited ${percent(shares.wait)} for a core, slept ${percent(shares.idle)}`;
}

export function clientSide({ load, windowMs }: Evidence): SideCpu | undefined {
  const shares = load.health.threadCpu && scheduleShares(load.health.threadCpu, windowMs);
  if (!shares) return undefined;
  const thread = load.health.threads === 1 ? "the client's thread" : "the client's busiest thread";
  return { busy: shares.busy, shares, starved: isStarved(shares), text: `${thread} ${sharesText(shares)} of the window` };
}

/** U = X · S from the server's own time in commands (a cluster's busiest master): its share of the window, and the sum. */
export function commandShare(server: ServerDelta): { share: number; text: string } | undefined {
  const inCommands = server.nodes > 1 ? Math.max(0, ...(server.byNode ?? []).map((node) => node.usec)) : server.usec;
  if (!(server.windowMs > 0) || !(inCommands > 0)) return undefined;
  const share = Math.min(1, inCommands / 1000 / server.windowMs);
  const perSecond = (server.calls / server.windowMs) * 1000;
  const perCall = server.calls > 0 ? server.usec / server.calls : 0;
  return { share, text: `${count(perSecond)} calls/s × ${micros(perCall)} per call = ${percent(share)} of the window in commands` };
}

export function serverSide({ server, load, windowMs }: Evidence): SideCpu | undefined {
  if (!server) return undefined;
  // Over the load's own window where the engine read it there (LoadResult.serverThread), else over the counters' reads.
  const shares =
    server.nodes !== 1
      ? undefined
      : load.serverThread
        ? scheduleShares(load.serverThread, windowMs)
        : server.schedule && scheduleShares(server.schedule, server.windowMs);
  if (shares) return { busy: shares.busy, shares, starved: isStarved(shares), text: `the server's main thread ${sharesText(shares)} of the window` };
  const cpu = serverCpu(server);
  const cpuShare = cpu ? Math.min(1, cpu.percent / 100) : undefined;
  const law = commandShare(server);
  if (law === undefined && cpuShare === undefined) return undefined;
  const cpuText = cpu ? `${cpu.what} at ${Math.round(cpu.percent)} % of a core` : undefined;
  const text = `${[law?.text, cpuText].filter(Boolean).join(', ')} (its wait for a core is not known: no schedstat of a verified redis-server on this machine)`;
  return { busy: Math.max(law?.share ?? 0, cpuShare ?? 0), starved: false, text };
}

/** Requests in flight: one per connection (a pipeline's batch arrives as one). */
export function inFlight({ load }: Evidence): number {
  return Math.max(1, load.connections.opened);
}

/**
 * The busy share at which a side is saturated: N/(N+1), where it had no room for one more connection's request, or
 * BOTH_BUSY_SHARE where that is lower (N ≥ 6), where more requests in flight could raise throughput by at most 1/U − 1
 * (under 18 %). Behind many connections N/(N+1) leaves a saturated side too little of the window to idle in (the first
 * requests, the last replies): a server at its limit behind 50 connections had work 97–98 % of the load's window
 * (95–96 % of the counters' wider one), under or at 50/51.
 */
export function saturation(evidence: Evidence): number {
  const n = inFlight(evidence);
  return Math.min(n / (n + 1), BOTH_BUSY_SHARE);
}

/** `N/(N+1) = 80 % with 4 connections`, or `85 % with 50 connections, so … at most 18 %`: the mark a saturated side passed. */
export function saturationText(evidence: Evidence): string {
  const n = inFlight(evidence);
  const connections = `${count(n)} connection${n === 1 ? '' : 's'}`;
  const mark = saturation(evidence);
  return mark < n / (n + 1)
    ? `${percent(mark)} with ${connections}, so more requests in flight could raise throughput by at most ${percent(1 / mark - 1)}`
    : `N/(N+1) = ${percent(mark)} with ${connections}`;
}

/**
 * The client's thread at its limit by the scheduler: it had work (mostly running) at least N/(N+1) of the window.
 * Never with one connection: on loopback the thread's CPU time holds the kernel's work of sending and receiving
 * each request (the path's, not the client's), and the one request in flight leaves it the other side's time.
 */
export function clientSaturated(evidence: Evidence, side: SideCpu | undefined): boolean {
  return side?.shares !== undefined && inFlight(evidence) > 1 && side.busy >= saturation(evidence) && side.shares.run > side.shares.wait;
}

/**
 * The server at its limit by the utilization law: it had work at least N/(N+1) of the window, and it did more
 * work than the client's thread (the busier side bounds throughput; work is the time it ran — its service
 * time, U = X · S — not its wait for a core, the machine's share). `client` is the client's run share, or
 * its busy share where only that is known. With one request in flight see singleTurn.
 */
export function serverSaturated(evidence: Evidence, server: SideCpu, client: number | undefined): boolean {
  if (inFlight(evidence) === 1) return singleTurn(evidence, server) !== undefined;
  return server.busy >= saturation(evidence) && (client === undefined || work(server) >= client);
}

/**
 * One request in flight: the sides take turns, so a side's share of the window is its part of each turn, not the
 * use of a queue, and on loopback the server's thread time holds the kernel's sending and receiving (the path's).
 * Two levers bound what could change: a second request in flight could raise throughput by at most 1/U − 1 for a
 * server that had work U of the window; cheaper commands, by at most 1/(1 − C) − 1 where its commands took C. The
 * server set the pace where the first is under BOTH_BUSY_SHARE's bound (18 %), or the second is at least the first
 * (C ≥ 1 − U); else more requests in flight are the larger lever, and the round trip set the pace.
 */
export function singleTurn(evidence: Evidence, server: SideCpu): string | undefined {
  if (inFlight(evidence) !== 1 || !evidence.server) return undefined;
  const commands = commandShare(evidence.server);
  const busy = Math.max(work(server), commands?.share ?? 0);
  const more = `more requests in flight could raise throughput by at most ${percent(1 / busy - 1)}`;
  if (busy >= BOTH_BUSY_SHARE) return `one request in flight and the server had work ${percent(busy)} of the window: ${more}`;
  if (!commands || commands.share < 1 - busy) return undefined;
  return `one request in flight and ${commands.text}: cheaper commands could raise throughput by up to ${percent(1 / (1 - commands.share) - 1)}, ${more} (the server had work ${percent(busy)} of the window)`;
}

/**
 * A side had work at least this share of the window: busy. Where both sides are, neither alone set the pace: by the
 * utilization law a side busy U of the window can serve at most 1/U times the throughput, so relieving the other side
 * alone could raise it by at most 1/U − 1 (under 18 % here); the engine's own busy mark (src/engine/verdicts.ts) is the same.
 */
export const BOTH_BUSY_SHARE = 0.85;

/**
 * Client and server both busy by the scheduler — each had work (mostly running, not waiting for a core) at least
 * BOTH_BUSY_SHARE of the window, with more than one request in flight (with one, each side's time holds the other's
 * wait): the two set the pace together, and each verdict says how much relieving the other alone could give.
 */
export function bothBusy(evidence: Evidence): { client: SideCpu; server: SideCpu } | undefined {
  const [client, server] = [clientSide(evidence), serverSide(evidence)];
  if (!client?.shares || !server?.shares || inFlight(evidence) <= 1) return undefined;
  const busy = (side: SideCpu) => side.busy >= BOTH_BUSY_SHARE && side.shares!.run > side.shares!.wait;
  return busy(client) && busy(server) ? { client, server } : undefined;
}

/** `relieving the server alone could raise throughput by at most 9 % (the client had work 92 % of the window)`. */
export function reliefBound(other: SideCpu, relieved: 'client' | 'server'): string {
  const gain = 1 / Math.max(other.busy, 1e-9) - 1;
  const side = relieved === 'client' ? 'the server' : 'the client';
  return `a faster ${relieved} alone could raise throughput by at most ${percent(gain)} (${side} had work ${percent(other.busy)} of the window)`;
}

/** The share of the window a side ran (its busy share where the scheduler's split is unknown). */
export function work(side: SideCpu): number {
  return side.shares?.run ?? side.busy;
}

/** The side's capacity at least halved by the machine: it waited for a core at least as long as it ran. */
function halved(side: SideCpu | undefined): boolean {
  return side?.shares !== undefined && side.shares.wait > 0 && side.shares.wait >= side.shares.run;
}

/**
 * The machine, not either side: one side starved and the other's capacity halved too (it waited for a core at
 * least as long as it ran) — client and server share a machine short of CPU.
 */
export function machineStarved(evidence: Evidence): boolean {
  const [client, server] = [clientSide(evidence), serverSide(evidence)];
  return (client?.starved === true && halved(server)) || (server?.starved === true && halved(client));
}
