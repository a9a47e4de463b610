// The listening gate: the one place that decides where RBench may accept connections (today: the
// `--metrics` endpoint). Connecting is the network gate's (network.ts); listening is the other door, and
// it opens the run's figures to whoever can reach the address. So the address comes from the user alone
// (a command-line flag, never a scenario file or a workspace setting), loopback unless an address is
// written out, and "every interface" (0.0.0.0, ::) only when written out as such. What is listening then
// answers only requests addressed to it by name (answerOnlyItsNames), so no other site's page can read it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';
import { networkInterfaces } from 'node:os';
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

/**
 * The names a listener answers to, each with its port as a `Host` header carries it: its own address, and
 * `localhost` when that is loopback; on every interface (0.0.0.0, ::), each address of this machine's
 * interfaces (`interfaces`: os.networkInterfaces()'s, passed in so the rule stays plain data).
 */
export function servedNames(address: ListenAddress, interfaces: readonly string[] = machineAddresses()): string[] {
  const hosts = address.host === '0.0.0.0' || address.host === '::' ? interfaces.map(normaliseHost) : [address.host];
  if (hosts.some(isLoopbackHost) || isLoopbackHost(address.host)) hosts.push('localhost');
  return [...new Set(hosts)].map((host) => `${host.includes(':') ? `[${host}]` : host}:${address.port}`);
}

/**
 * True when a request's `Host` header names the listener (servedNames): the same host once normalised (case,
 * IPv6 form, a trailing dot) and the same port (none written: 80). A page that rebinds its own DNS name to
 * this machine reaches the listener under that name (`Host: evil.example:9464`), and would read the answer
 * as its own; refusing every name the listener does not serve keeps it out. A request without Host is refused.
 */
export function namesListener(hostHeader: string | undefined, served: readonly string[]): boolean {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/.exec(hostHeader ?? '');
  if (!match || (match[1].startsWith('[') && !isIPv6(match[1].slice(1, -1)))) return false;
  const host = normaliseHost(match[1]);
  const shown = `${host.includes(':') ? `[${host}]` : host}:${match[2] === undefined ? 80 : Number(match[2])}`;
  return served.includes(shown);
}

/** What a misdirected request is told (HTTP 421, plain text): the names to use, never the one it sent. */
export function misdirectedText(served: readonly string[]): string {
  return `this endpoint answers only requests addressed to ${served.join(' or ')}: scrape it by one of those names\n`;
}

function machineAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));
}

/**
 * The request handler of an HTTP listener behind the gate: a request whose Host names another host or port
 * is answered 421 Misdirected Request (plain text) and never reaches `handler`.
 */
export function answerOnlyItsNames(
  address: ListenAddress,
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): (request: IncomingMessage, response: ServerResponse) => void {
  const served = servedNames(address);
  return (request, response) => {
    if (namesListener(request.headers.host, served)) return handler(request, response);
    response.writeHead(421, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' }).end(misdirectedText(served));
  };
}
