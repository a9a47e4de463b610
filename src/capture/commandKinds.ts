// Which captured commands a scenario can replay, and why the others cannot: blocking commands, pub/sub,
// transactions and scripts sent by clients, commands that name no key (server and connection commands), and
// commands outside RBench's command table (a module's). One table, read by the traffic tally and the writer.
import { classifyCommand, isRedisCommand } from '../scenario/commands';

export type UnreproducibleKind = 'blocking' | 'pubsub' | 'transaction' | 'script' | 'server' | 'unknown';

export const UNREPRODUCIBLE_WORDS: Record<UnreproducibleKind, string> = {
  blocking: 'blocking commands no job queue replays (each with its reason; see "Job queues" in docs/rbench-format.md)',
  pubsub: 'pub/sub (subscribers hold their connection)',
  transaction: 'MULTI/EXEC framing from clients (the commands inside are counted as themselves)',
  script: 'scripts and functions (their bodies are not captured)',
  server: 'server and connection commands that name no key',
  unknown: "commands RBench's command table does not know (a module's?)",
};

const PUBSUB = new Set(['subscribe', 'psubscribe', 'ssubscribe', 'unsubscribe', 'punsubscribe', 'sunsubscribe', 'publish', 'spublish', 'pubsub']);
const TRANSACTION = new Set(['multi', 'exec', 'discard', 'watch', 'unwatch']);
const SCRIPT = new Set(['eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'fcall', 'fcall_ro', 'script', 'function']);
/** Keyless commands a workload still sends and RBench replays. */
const KEYLESS_REPLAYED = new Set(['ping', 'echo']);

/** Undefined for a command a scenario replays; else why not. `hasKeys`: the command table finds key arguments in it. */
export function unreproducible(command: string, hasKeys: boolean): UnreproducibleKind | undefined {
  const name = command.toLowerCase();
  if (!isRedisCommand(name)) return 'unknown';
  if (PUBSUB.has(name)) return 'pubsub';
  if (TRANSACTION.has(name)) return 'transaction';
  if (SCRIPT.has(name)) return 'script';
  if (classifyCommand(name).has('blocking')) return 'blocking';
  if (!hasKeys && !KEYLESS_REPLAYED.has(name)) return 'server';
  const classes = classifyCommand(name);
  if (classes.has('admin') || classes.has('dangerous')) return 'server';
  return undefined;
}
