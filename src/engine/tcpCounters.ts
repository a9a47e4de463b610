// This network namespace's TCP counters (Linux: /proc/net/snmp `Tcp:` and /proc/net/netstat `TcpExt:`, a
// header line of names and a line of values each): the segments sent and retransmitted, and the
// retransmission timeouts, read before and after a load. They count every socket of the namespace, the
// load's and any other traffic's: the verdict says "on this host". Elsewhere (no such files) absent.
import { readFileSync } from 'node:fs';
import type { TcpCounters } from './types';

/** The most bytes read of either file (a few kB on any kernel). */
const MAX_BYTES = 64 * 1024;

interface TcpReading {
  outSegs: number;
  retransSegs: number;
  timeouts?: number;
  lossProbes?: number;
}

/** `Prefix: name name …` then `Prefix: value value …`: the named values of the first such pair (exported for its test). */
export function namedValues(text: string, prefix: string): Map<string, number> {
  const lines = text.slice(0, MAX_BYTES).split('\n');
  const at = lines.findIndex((line) => line.startsWith(`${prefix}:`));
  const values = new Map<string, number>();
  if (at < 0 || !lines[at + 1]?.startsWith(`${prefix}:`)) return values;
  const names = lines[at]
    .slice(prefix.length + 1)
    .trim()
    .split(/\s+/);
  const numbers = lines[at + 1]
    .slice(prefix.length + 1)
    .trim()
    .split(/\s+/)
    .map(Number);
  names.forEach((name, i) => {
    if (Number.isFinite(numbers[i])) values.set(name, numbers[i]);
  });
  return values;
}

function readKernelFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return undefined;
  }
}

/** The counters now, or undefined where the system does not tell. */
export function readTcp(): TcpReading | undefined {
  const snmp = readKernelFile('/proc/net/snmp');
  if (snmp === undefined) return undefined;
  const tcp = namedValues(snmp, 'Tcp');
  const outSegs = tcp.get('OutSegs');
  const retransSegs = tcp.get('RetransSegs');
  if (outSegs === undefined || retransSegs === undefined) return undefined;
  const ext = namedValues(readKernelFile('/proc/net/netstat') ?? '', 'TcpExt');
  const [timeouts, lossProbes] = [ext.get('TCPTimeouts'), ext.get('TCPLossProbes')];
  return { outSegs, retransSegs, ...(timeouts !== undefined ? { timeouts } : {}), ...(lossProbes !== undefined ? { lossProbes } : {}) };
}

/** What happened between two readings; undefined when either is missing or a counter went backwards. */
export function tcpBetween(before: TcpReading | undefined, after: TcpReading | undefined): TcpCounters | undefined {
  if (!before || !after) return undefined;
  const segments = after.outSegs - before.outSegs;
  const retransmits = after.retransSegs - before.retransSegs;
  if (segments < 0 || retransmits < 0) return undefined;
  const counters: TcpCounters = { scope: 'host', segments, retransmits };
  if (before.timeouts !== undefined && after.timeouts !== undefined && after.timeouts >= before.timeouts) counters.timeouts = after.timeouts - before.timeouts;
  if (before.lossProbes !== undefined && after.lossProbes !== undefined && after.lossProbes >= before.lossProbes) {
    counters.lossProbes = after.lossProbes - before.lossProbes;
  }
  return counters;
}
