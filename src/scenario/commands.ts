// The Redis command table (@ioredis/commands): which words are commands, and which commands write.
import { exists, hasFlag, list } from '@ioredis/commands';

/** Upper-case command names, for did-you-mean suggestions. */
export const COMMAND_NAMES: readonly string[] = list.map((name) => name.toUpperCase());

export function isRedisCommand(word: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_|-]*$/.test(word) && exists(word.toLowerCase());
}

/** True when the command modifies data (the `write` flag). */
export function isWriteCommand(name: string): boolean {
  return isRedisCommand(name) && hasFlag(name.toLowerCase(), 'write');
}
