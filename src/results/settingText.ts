// A server setting's value for people: the sizes Redis reads back in bytes (`CONFIG GET maxmemory` says
// 12637437952) in human units (`11.8 GiB`), for comparison titles and differences and Test Connection.
import { formatBytes } from '../scenario/numberText';

/**
 * The settings Redis keeps in bytes (its config table's memory settings: CONFIG GET gives no type, so they are
 * named here). Any other setting reads as Redis wrote it.
 */
const BYTE_SETTINGS: ReadonlySet<string> = new Set([
  'maxmemory',
  'maxmemory-clients',
  'proto-max-bulk-len',
  'client-query-buffer-limit',
  'repl-backlog-size',
  'auto-aof-rewrite-min-size',
  'active-defrag-ignore-bytes',
]);

/** `11.8 GiB` for `maxmemory 12637437952`; `0` (no limit) and anything not a whole byte count as written. */
export function settingText(name: string, value: string): string {
  if (!BYTE_SETTINGS.has(name.toLowerCase()) || !/^\d+$/.test(value) || value === '0') return value;
  return formatBytes(Number(value));
}
