// The listening gate: the one place that decides where RBench may accept connections (today: the
// `--metrics` endpoint). Connecting is the network gate's (network.ts); listening is the other door, and
// it opens the run's figures to whoever can reach the address. So the address comes from the user alone
// (a command-line flag, never a scenario file or a workspace setting), loopback unless an address is
// written out, and "every interface" (0.0.0.0, ::) only when written out as such.
import { isIPv4, isIPv6 } from 'node:net';
import { isLoopbackHost, normaliseHost } from './network';

export interface ListenAddress {
  host: string;
  port: number;
  /** Reachable from other machines: the run says so when it starts. */
  exposed: boolean;
}

/** Who wrote the address: only the user's own flag or user setting may open one. */
export type ListenOrigin = 'user' | 'workspace' | 'file';

export class ListenRefused extends Error {}

const DEFAULT_HOST = '127.0.0.1';

/**
 * `9464`, `127.0.0.1:9464`, `[::1]:9464`, `0.0.0.0:9464`: where to listen. `flag` names the place in
 * messages (`--metrics`). Throws ListenRefused with the fix.
 */
export function listenAddress(spec: string, origin: ListenOrigin, flag: string): ListenAddress {
  if (origin !== 'user') throw new ListenRefused(`${flag}: an address to listen on comes from your own command line, not from a ${origin}`);
  const written = spec.trim();
  const match = /^(?:(\[[^\]]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(written);
  if (!match) throw new ListenRefused(`${flag} ${JSON.stringify(spec)}: write PORT or HOST:PORT, e.g. ${flag} 9464 or ${flag} 127.0.0.1:9464`);
  const port = Number(match[2]);
  if (port < 1 || port > 65535) throw new ListenRefused(`${flag} ${spec}: the port must be 1–65535`);
  const host = match[1] === undefined ? DEFAULT_HOST : normaliseHost(match[1]);
  if (!isIPv4(host) && !isIPv6(host) && host !== 'localhost') {
    // A name would need a DNS lookup to know which interface it opens: ask for the address itself.
    throw new ListenRefused(`${flag} ${spec}: give an IP address to listen on (127.0.0.1, ::1, or this machine's address), not a host name`);
  }
  const everyInterface = host === '0.0.0.0' || host === '::';
  return { host, port, exposed: everyInterface || !isLoopbackHost(host) };
}
