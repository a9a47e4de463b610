// What reply-driven commands (scenario/replyForms.ts) did, a line per command that has counts: the SCAN passes
// completed and the items they returned, the scripts reloaded after NOSCRIPT, the stream entries read and acked.
import type { CommandResult } from '../engine';
import type { RunFile } from './runFile';
import { groupDigits } from '../scenario/numberText';

/** The counts of one command's result in words (empty: it has none). */
export function replyCountsText(replies: CommandResult['replies']): string {
  if (!replies) return '';
  const parts: string[] = [];
  const of = (name: string) => (Object.hasOwn(replies, name) ? replies[name] : undefined);
  const plural = (count: number, one: string, many: string) => `${groupDigits(count)} ${count === 1 ? one : many}`;
  const items = of('items');
  if (items !== undefined || of('passes') !== undefined)
    parts.push(plural(of('passes') ?? 0, 'full pass', 'full passes'), `${plural(items ?? 0, 'item', 'items')} returned`);
  const reloads = of('reloads');
  if (reloads !== undefined) parts.push(`script reloaded ${plural(reloads, 'time', 'times')} after NOSCRIPT`);
  const read = of('read');
  if (read !== undefined) parts.push(`${plural(read, 'entry', 'entries')} read`);
  const acked = of('acked');
  if (acked !== undefined) parts.push(`${groupDigits(acked)} acked`);
  const skipped = of('skipped');
  if (skipped !== undefined) parts.push(`${plural(skipped, 'XACK', 'XACKs')} skipped (nothing read)`);
  return parts.join(', ');
}

/** `SCAN: 3 full passes, 3,000 items returned`, for each measured load's reply-driven commands (the first repeat's). */
export function replyCountLines(run: RunFile): string[] {
  const lines: string[] = [];
  for (const point of run.points) {
    for (const load of point.repeats[0] ?? []) {
      for (const command of load.commands) {
        const text = replyCountsText(command.replies);
        const name = load.test === command.command ? load.test : `${load.test} ${command.command}`;
        if (text) lines.push(`${point.label ? `${point.label} ` : ''}${name}: ${text}`);
      }
    }
  }
  return lines;
}
