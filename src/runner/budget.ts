// What a run may cost before anything starts: the scenario file's size (refused before any parsing) and
// the memory limits the checker holds a plan's estimate to (src/scenario/memory.ts), with the user's
// raised limit (`rbench run --max-memory`, the user setting `rbench.maxMemory`).
import { formatBytes, MEMORY_LIMITS, type MemoryLimits } from '../scenario/memory';

/** A scenario file a run reads, at most: the format has no use for more, and checking more costs the caller. */
export const SCENARIO_FILE_LIMIT = 1024 * 1024;
/** What the CLI and the Testing view read of a scenario file at most (the budget above then decides a run): text written by people is far below this. */
export const SCENARIO_READ_LIMIT = 16 * 1024 * 1024;

/** Why `text` is too large to run, or undefined. Looks at the length only (no parsing). */
export function scenarioFileRefusal(display: string, text: string): string | undefined {
  // UTF-8 takes at least a byte a character: a short text is not measured further.
  if (text.length <= SCENARIO_FILE_LIMIT / 3) return undefined;
  const bytes = text.length > SCENARIO_FILE_LIMIT ? text.length : Buffer.byteLength(text, 'utf8');
  if (bytes <= SCENARIO_FILE_LIMIT) return undefined;
  return `${display} is ${formatBytes(bytes)}, more than the ${formatBytes(SCENARIO_FILE_LIMIT)} a scenario file may have to run — split it into several files`;
}

/** The limits for the user's chosen maximum (bytes, for the server's and the client's estimate alike), or the defaults. */
export function memoryLimits(maxMemory?: number): MemoryLimits {
  return maxMemory === undefined ? MEMORY_LIMITS : { server: maxMemory, client: maxMemory, raised: true };
}
