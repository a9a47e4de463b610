// Other RBench runs on the same server: every run names its control and sampling connections
// `rbench-run:<scenario>:<id>` (CLIENT SETNAME, src/redis/control.ts), and reads CLIENT LIST on its idle
// control connection at each load's start and end and every second between. A connection named by
// another run (another editor window, the CLI, another machine) means two RBench loads shared the server:
// the run file, its warnings and the bottleneck verdict say so. One CLIENT LIST costs the server O(clients);
// at this cadence it is noise. A server that refuses CLIENT LIST (ACL) is not asked again.
// The parts of one sharded run (`--shard I/N` with one `--run-id` or `--start-at`) carry their run id and
// part in the name (`rbench-run:cache:1a2b3c4d.2of3:3f9a1c`): a part sees its siblings as parts of its own
// run, never as another run.
import type { ControlLink } from '../redis/controlLink';
import { randomBytes } from 'node:crypto';
import type { OtherRun } from '../results/runFile';
import { RUN_CLIENT_PREFIX } from '../results/bottleneck';
import { CONTROL_CLIENT_NAME as OLDER_CLIENT_NAME } from '../redis/control';

/** How often the control connection looks while a load runs: as often as the INFO sampler, so a short run in between is seen. */
export const OTHER_RUNS_POLL_MS = 1000;
/** Other runs kept per run: enough to name them, bounded however many come and go. */
const MAX_OTHER_RUNS = 8;
/** A name longer than this is cut (a client name is the server's data: bounded before it is kept). */
const MAX_NAME = 80;

/**
 * `rbench-run:cache:3f9a1c`: the scenario (no spaces: CLIENT SETNAME refuses them) and a per-process id;
 * a part of a sharded run puts its run id and part between them: `rbench-run:cache:1a2b3c4d.2of3:3f9a1c`.
 */
export function runClientName(scenario: string, shard?: { index: number; count: number; runId?: string }): string {
  const slug =
    scenario
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'scenario';
  const part = shard?.runId ? `${shard.runId}.${shard.index}of${shard.count}:` : '';
  return `${RUN_CLIENT_PREFIX}${slug}:${part}${randomBytes(3).toString('hex')}`;
}

const PART_NAME = /^rbench-run:([^:]+):([0-9a-f]{8})\.(\d+)of(\d+):[0-9a-f]{6}$/;

/** The run a part's connection name belongs to (`cache:1a2b3c4d` of 3 parts) and its part; undefined for a whole run's name. */
function partOf(name: string): { run: string; index: number } | undefined {
  const match = PART_NAME.exec(name);
  return match ? { run: `${match[1]}:${match[2]}:${match[4]}`, index: Number(match[3]) } : undefined;
}

/** True when `name` is another part of the sharded run `own` is a part of (the same run id and split, another part). */
export function isSiblingPart(name: string, own: string): boolean {
  const [mine, theirs] = [partOf(own), partOf(name)];
  return mine !== undefined && theirs !== undefined && mine.run === theirs.run && mine.index !== theirs.index;
}

/** RBench's connections in a CLIENT LIST reply other than `own`, by `name` and `addr`: other runs', and the sibling parts' of `own`'s run. */
export function rbenchClients(clientList: string, own: string): { others: { name: string; addr?: string }[]; siblings: { name: string; addr?: string }[] } {
  const others = new Map<string, { name: string; addr?: string }>();
  const siblings = new Map<string, { name: string; addr?: string }>();
  for (const line of clientList.split('\n')) {
    const name = field(line, 'name');
    if (name === undefined || name === own) continue;
    if (!name.startsWith(RUN_CLIENT_PREFIX) && name !== OLDER_CLIENT_NAME) continue;
    // Whether a part is a sibling is read from the whole name; only a bounded cut of it is kept.
    const into = isSiblingPart(name, own) ? siblings : others;
    const kept = name.slice(0, MAX_NAME);
    if (!into.has(kept)) into.set(kept, { name: kept, addr: field(line, 'addr')?.slice(0, MAX_NAME) });
  }
  return { others: [...others.values()], siblings: [...siblings.values()] };
}

/** Another run's connections in a CLIENT LIST reply: `name` and `addr` of those named by RBench, not `own` nor its sibling parts. */
export function otherRbenchClients(clientList: string, own: string): { name: string; addr?: string }[] {
  return rbenchClients(clientList, own).others;
}

function field(line: string, key: string): string | undefined {
  const match = new RegExp(`(?:^| )${key}=(\\S*)`).exec(line);
  return match && match[1] !== '' ? match[1] : undefined;
}

export class OtherRunsWatch {
  private readonly seen = new Map<string, OtherRun>();
  /** The sibling parts of this run seen (a sharded run's), kept apart: they are this run, not another. */
  private readonly siblings = new Map<string, OtherRun>();
  private refused = false;
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<void>;

  constructor(
    private readonly redis: ControlLink,
    /** This run's own connection name. */
    private readonly own: string,
    private readonly timeOrigin: number,
  ) {}

  /** Reads CLIENT LIST now; never throws (a failed read is no evidence either way). */
  poll(): Promise<void> {
    if (this.refused) return Promise.resolve();
    this.inFlight ??= this.read().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /** Polls now and every `intervalMs` until stop(). */
  start(intervalMs = OTHER_RUNS_POLL_MS): Promise<void> {
    this.stopTimer();
    const tick = () => {
      this.timer = setTimeout(() => void this.poll().then(() => this.timer && tick()), intervalMs);
      this.timer.unref();
    };
    tick();
    return this.poll();
  }

  /** The other runs seen at or after `fromT` (ms since the run started): those that overlapped a load that began then. */
  seenSince(fromT: number): OtherRun[] {
    return [...this.seen.values()].filter((other) => other.lastT >= fromT);
  }

  /** This run's sibling parts seen at or after `fromT`: their load shared the server with a load that began then. */
  siblingsSince(fromT: number): OtherRun[] {
    return [...this.siblings.values()].filter((sibling) => sibling.lastT >= fromT);
  }

  /** Stops polling; every other run seen, in the order first seen. */
  stop(): OtherRun[] {
    this.stopTimer();
    return [...this.seen.values()];
  }

  private stopTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async read(): Promise<void> {
    let reply: unknown;
    try {
      reply = await this.redis.call('CLIENT', 'LIST', 'TYPE', 'normal');
    } catch (error) {
      // A reply error (NOPERM, unknown command) will not change: stop asking. A lost connection: try next time.
      if ((error as { name?: string }).name === 'ReplyError') this.refused = true;
      return;
    }
    if (typeof reply !== 'string' && !Buffer.isBuffer(reply)) return;
    const t = Date.now() - this.timeOrigin;
    const { others, siblings } = rbenchClients(String(reply), this.own);
    for (const [clients, into] of [
      [others, this.seen],
      [siblings, this.siblings],
    ] as const) {
      for (const client of clients) {
        const known = into.get(client.name);
        if (known) known.lastT = t;
        else if (into.size < MAX_OTHER_RUNS) into.set(client.name, { ...client, firstT: t, lastT: t });
      }
    }
  }
}
