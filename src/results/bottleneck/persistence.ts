// persistence: writing to disk set the pace. With `appendfsync always` every write waits for an fsync before
// its reply (the server fsyncs the AOF before answering, once per event-loop pass); with `everysec` a disk
// that falls behind delays writes (aof_delayed_fsync); the latency monitor names AOF stalls. A fork (BGSAVE,
// AOF rewrite) stops the main thread for its length: it is the cause only when that pause holds more than
// 1 % of the window (in a closed loop the requests waiting through it are then more than 1 %: it sets p99);
// a shorter one is a note. The fork also puts a child on the machine that writes the dataset: where the
// scheduler shows the client or the server waiting for a core while the child ran, the child took a share of
// the cores they waited for — its share of all the CPU the machine spent in the window — and it is a cause
// when that share of their wait holds more than the same 1 % of the window.
import { ownValue } from '../../gates/plainData';
import { isWriteCommand } from '../../scenario/commands';
import type { BottleneckJudge, Evidence } from './judge';
import { clientSide, serverSide } from './cpuShares';
import { count, finePercent, length, micros, percent } from './figures';

/** A pause holding more than this share of the window delays more than this share of a closed loop's requests: p99 moves. */
export const FORK_SHARE = 0.01;

/** Writes the test sent that the server ran (its own counts), or undefined when it did not say. */
function writes({ server }: Evidence): number | undefined {
  if (!server?.sent) return undefined;
  let n = 0;
  for (const name of Object.keys(server.sent)) if (isWriteCommand(name.split('|')[0])) n += ownValue(server.commands, name)?.calls ?? 0;
  return n;
}

/** The latency monitor's AOF events (`aof-fsync-always`, `aof-write-pending-fsync`…) in the window: `aof-fsync-always max 12 ms`. */
function aofEvents({ server }: Evidence): string[] {
  return (server?.latencyEvents ?? []).filter((e) => /(^|\s)aof-/.test(e.event)).map((e) => `${e.event} max ${e.maxMs} ms`);
}

function fsyncWhy(evidence: Evidence): string | undefined {
  const { server, load } = evidence;
  const aof = server?.aof;
  if (!aof) return undefined;
  const events = aofEvents(evidence);
  const monitor = events.length > 0 ? `; LATENCY LATEST: ${events.join(', ')}` : '';
  const n = writes(evidence);
  if (aof.fsync === 'always' && n !== undefined && n > 0) {
    const serverTime = server.usecPerCall !== undefined ? `, ${micros(server.usecPerCall)} of command time in the server` : '';
    return (
      `appendfsync always: each of the ${count(n)} writes waited for an fsync of the AOF before its reply ` +
      `(p50 ${micros(load.total.latency.p50Us)} at the client${serverTime}${monitor}): the disk set the pace — appendfsync everysec, or a faster disk`
    );
  }
  if (aof.delayedFsyncs) {
    return `the AOF's fsync fell behind ${count(aof.delayedFsyncs)}× (aof_delayed_fsync, appendfsync ${aof.fsync ?? 'not read'}): the disk could not keep up and writes were held${monitor}`;
  }
  if (events.length > 0) return `the AOF stalled the server (LATENCY LATEST: ${events.join(', ')})`;
  return undefined;
}

/** The forks in the window, named (`1 BGSAVE`), and their pause as a share of the window; undefined without one. */
function forks({ server, events, windowMs }: Evidence): { text: string; share?: number } | undefined {
  const saves = events.filter((event) => event.kind === 'bgsave-start').length;
  const rewrites = events.filter((event) => event.kind === 'aof-rewrite-start').length;
  const named = [saves ? `${count(saves)} BGSAVE` : '', rewrites ? `${count(rewrites)} AOF rewrite${rewrites === 1 ? '' : 's'}` : '']
    .filter(Boolean)
    .join(' and ');
  const n = server?.forks ?? 0;
  if (n === 0 && !named) return undefined;
  const forked = n > 0 ? `the server forked ${count(n)}× during the test` : 'the server persisted during the test';
  if (n === 0 || server?.forkUsec === undefined) return { text: `${forked}${named ? ` (${named})` : ''}; the fork's length was not read` };
  const share = (n * server.forkUsec) / 1000 / windowMs;
  return { text: `${forked}${named ? ` (${named})` : ''}, the fork took ${micros(server.forkUsec)} (${finePercent(share)} of the window)`, share };
}

/**
 * The fork child's CPU beside sides that waited for a core: `the fork's child ran 850 ms of CPU in the window while
 * the client and the server waited 1.2 s for a core`, when the wait it can explain (at most its CPU) is material.
 */
function childCompeted(evidence: Evidence): string | undefined {
  const schedule = evidence.server?.schedule;
  const [childMs, machineMs] = [schedule?.childrenRunMs, schedule?.machineBusyMs];
  if (childMs === undefined || machineMs === undefined || childMs <= 0 || machineMs <= 0) return undefined;
  const sides = [clientSide(evidence), serverSide(evidence)].filter((side) => side?.shares !== undefined);
  const waitMs = sides.reduce((sum, side) => sum + side!.shares!.wait * evidence.windowMs, 0);
  const childShare = Math.min(1, childMs / machineMs);
  if (childShare * waitMs < FORK_SHARE * evidence.windowMs) return undefined;
  const who = sides.length === 2 ? 'the client and the server' : 'the test';
  return (
    `the fork's child ran ${length(childMs)} of CPU in the window, ${percent(childShare)} of all the machine's, while ${who} waited ${length(waitMs)} for a core ` +
    `(its share ${length(childShare * waitMs)}): writing the snapshot took cores the test needed — snapshot outside the test, or leave the server a core for its child`
  );
}

export const persistence: BottleneckJudge = {
  kind: 'persistence',
  description:
    'Writing to disk set the pace: an fsync per write (appendfsync always), an AOF fsync that fell behind, or a fork (BGSAVE, AOF rewrite) whose pause held a material share of the test.',
  judge: (evidence) => {
    const fork = forks(evidence);
    // A fork whose length was not read cannot be weighed: it is named, as before, rather than dropped.
    const forkHeld = fork !== undefined && (fork.share === undefined || fork.share >= FORK_SHARE);
    const child = fork !== undefined ? childCompeted(evidence) : undefined;
    const parts = [fsyncWhy(evidence), forkHeld || child ? fork?.text : undefined, child].filter(Boolean);
    return parts.length > 0 ? parts.join('; ') : undefined;
  },
  note: (evidence) => {
    const fork = forks(evidence);
    if (fork?.share === undefined || fork.share >= FORK_SHARE || childCompeted(evidence)) return undefined;
    return `${fork.text}: too short to set the pace (under ${percent(FORK_SHARE)} of the window)`;
  },
};
