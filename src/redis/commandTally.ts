// What RBench's own control and sampling connections (raw or ioredis) send, counted as it is sent: the foreign-load
// accounting subtracts it from the server's counts exactly (src/results/serverDelta.ts), instead of leaving
// commands out by name. Counted under the server's names (`info`, `client|list`), as INFO commandstats does.
import type Redis from 'ioredis';
import { recordFromMap } from '../gates/plainData';
import { isContainer } from '../scenario/commands';

/** One moment of a tally: every command sent so far, and how many of them had no reply yet. */
export interface TallyMark {
  sent: Map<string, number>;
  /** Sent but not answered at the mark: the server may count them on either side of it. */
  inFlight: number;
}

/** The server's name of a command ioredis sends: `get`, `client|setname` (Redis 7 counts a container's subcommand apart). */
export function tallyName(name: string, args: readonly unknown[]): string {
  const command = name.toLowerCase();
  const first = args[0];
  if (isContainer(command) && (typeof first === 'string' || Buffer.isBuffer(first))) return `${command}|${String(first).toLowerCase()}`;
  return command;
}

export class CommandTally {
  private readonly sent = new Map<string, number>();
  private inFlight = 0;
  /** ioredis sends a command queued while offline through sendCommand again: each counts once. */
  private readonly counted = new WeakSet<object>();

  /** Counts every command `redis` sends from now on (handshakes, pipelines, reconnects included). */
  watch(redis: Redis): void {
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = (command, ...rest) => {
      if (this.counted.has(command)) return send(command, ...rest);
      this.counted.add(command);
      const settled = this.sending(command.name, command.args);
      command.promise.then(settled, settled);
      return send(command, ...rest);
    };
  }

  /** Counts one command as it is sent; the function returned marks it answered (or failed). */
  sending(name: string, args: readonly unknown[]): () => void {
    const counted = tallyName(name, args);
    this.sent.set(counted, (this.sent.get(counted) ?? 0) + 1);
    this.inFlight++;
    let settled = false;
    return () => {
      if (!settled) this.inFlight--;
      settled = true;
    };
  }

  mark(): TallyMark {
    return { sent: new Map(this.sent), inFlight: this.inFlight };
  }
}

/** What was sent between two marks, and how many of those commands the server may have counted outside them. */
export function tallyBetween(from: TallyMark, to: TallyMark): { sent: Record<string, number>; uncertain: number } {
  const sent = new Map<string, number>();
  for (const [name, n] of to.sent) {
    const since = n - (from.sent.get(name) ?? 0);
    if (since > 0) sent.set(name, since);
  }
  return { sent: recordFromMap(sent), uncertain: from.inFlight + to.inFlight };
}
