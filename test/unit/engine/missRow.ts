// A read's row of a load result, asserted to count misses (issue 43's hits-and-misses tests).
import assert from 'node:assert/strict';
import type { CommandResult } from '../../../src/engine/types';

export function missRow(commands: readonly CommandResult[], command: string): CommandResult & { misses: number } {
  const row = commands.find((c) => c.command === command);
  assert.ok(row?.misses !== undefined, `${command} counts misses`);
  return { ...row, misses: row.misses };
}
