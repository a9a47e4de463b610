// One run per target at a time inside the editor: a run on a server another run of this window is using waits
// for it (and says so), cancellable while it waits. Throwaway servers are one target here: each is the run's
// own, but they share this machine's CPUs, so a second one waits as on a shared server. Across
// windows and the CLI the runs cannot see this queue: they see each other on the server (src/runner/otherRuns.ts).
import { normaliseHost } from '../gates/network';
import type { ConnectionOptions } from '../redis/types';

/** The server a connection reaches, as one key: `host:port` (normalised), a unix socket, or a Sentinel group. */
export function serverKey(options: ConnectionOptions): string {
  if (options.sentinel) {
    const nodes = options.sentinel.nodes.map((node) => `${normaliseHost(node.host)}:${node.port}`).sort();
    return `sentinel:${options.sentinel.name}@${nodes.join(',')}`;
  }
  if (options.path !== undefined) return `unix:${options.path}`;
  return `${normaliseHost(options.host)}:${options.port}`;
}

/** The one queue of throwaway-server runs (no server key: each run starts its own, on this machine). */
export const THROWAWAY_KEY = 'throwaway:this-machine';
export const THROWAWAY_TARGET = 'a throwaway redis-server on this machine (they share its CPUs)';

export interface QueueHolder {
  /** What the waiting run says: `"cache" (cache.rbench)`. */
  label: string;
  /** The target as shown: `redis://10.0.0.5:6379`. */
  target: string;
}

/** `waiting for the run of "cache" (cache.rbench) on redis://10.0.0.5:6379 to finish`. */
export function waitingMessage(holder: QueueHolder): string {
  return `waiting for the run of ${holder.label} on ${holder.target} to finish`;
}

export class TargetQueue {
  private readonly holders = new Map<string, QueueHolder & { done: Promise<void> }>();

  /** Who holds the target now, if anyone. */
  holder(key: string): QueueHolder | undefined {
    return this.holders.get(key);
  }

  /**
   * Takes the target once the runs ahead of this one are done; `onWait` hears who it waits for (again when
   * another run got the target first). Resolves to the release, or undefined when `signal` aborted the wait.
   */
  async acquire(key: string, holder: QueueHolder, signal: AbortSignal, onWait: (ahead: QueueHolder) => void): Promise<(() => void) | undefined> {
    for (;;) {
      if (signal.aborted) return undefined;
      const ahead = this.holders.get(key);
      if (!ahead) break;
      onWait(ahead);
      const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      await Promise.race([ahead.done, aborted]);
    }
    let release!: () => void;
    const entry = { ...holder, done: new Promise<void>((resolve) => (release = resolve)) };
    this.holders.set(key, entry);
    return () => {
      if (this.holders.get(key) === entry) this.holders.delete(key);
      release();
    };
  }
}
