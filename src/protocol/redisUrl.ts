// The redis:// / rediss:// / unix:// / redis-sentinel:// target URL grammar: parsing into its parts, the
// display form without the password, and redaction for messages. Plain text in, plain data out: the file
// and network rules a target is held to are src/redis/target.ts's.
import { formatAddress } from '../gates/network';
import { isSentinelUrl, parseSentinelUrl, sentinelList, type SentinelNode } from './sentinelUrl';

export const DEFAULT_PORT = 6379;

export interface ParsedRedisUrl {
  tls: boolean;
  host: string;
  port: number;
  /** A unix socket (`unix:///path/redis.sock`); host and port are then `localhost` and 0. */
  path?: string;
  user?: string;
  password?: string;
  db?: number;
  /** A Sentinel target: host and port are then the first sentinel's until the primary is discovered. */
  sentinel?: { name: string; nodes: SentinelNode[] };
}

/**
 * `redis://user@host:port/db`, with IPv6 hosts in brackets and db only when not 0; `unix:///path` (`?db=N`) for a socket;
 * `redis-sentinel://user@host:port,…/name` (`?db=N`) for a Sentinel target.
 */
export function displayUrl(parts: {
  tls: boolean;
  host: string;
  port: number;
  path?: string;
  user?: string;
  db?: number;
  sentinel?: { name: string; nodes: SentinelNode[] };
}): string {
  const user = parts.user ? `${encodeURIComponent(parts.user)}@` : '';
  if (parts.sentinel) {
    const scheme = parts.tls ? 'rediss-sentinel' : 'redis-sentinel';
    return `${scheme}://${user}${sentinelList(parts.sentinel.nodes)}/${parts.sentinel.name}${parts.db ? `?db=${parts.db}` : ''}`;
  }
  // A unix URL has no place for a user (its authority is empty): the `user` setting names it.
  if (parts.path !== undefined) return `unix://${encodeURI(parts.path)}${parts.db ? `?db=${parts.db}` : ''}`;
  const db = parts.db ? `/${parts.db}` : '';
  return `${parts.tls ? 'rediss' : 'redis'}://${user}${formatAddress(parts)}${db}`;
}

export function parseRedisUrl(text: string): ParsedRedisUrl | string {
  const expected = 'expected redis://[user@]host[:port][/db], rediss://…, unix:///path/redis.sock or redis-sentinel://host:port/primary-name';
  if (isSentinelUrl(text)) return sentinelTarget(text);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `the target "${redactUrl(text)}" is not a valid URL: ${expected}`;
  }
  if (url.protocol === 'unix:') return parseUnixUrl(url, redactUrl(text));
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    return `the target "${redactUrl(text)}" uses ${url.protocol}// : only redis:// and rediss:// (TLS) are supported, unix:// for a socket and redis-sentinel:// for a Sentinel-managed primary`;
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) return `the target "${redactUrl(text)}" has no host: ${expected}`;
  if (url.search || url.hash) {
    return `the target "${redactUrl(text)}" has URL options (?…/#…), which are not read: use the target settings (db, tls, user) instead`;
  }
  const path = url.pathname.replace(/^\//, '');
  let db: number | undefined;
  if (path !== '') {
    if (!/^\d+$/.test(path)) return `the target "${redactUrl(text)}" has path /${path}: the path can only be a database number, e.g. /2`;
    db = Number(path);
  }
  const parsed: ParsedRedisUrl = { tls: url.protocol === 'rediss:', host, port: url.port ? Number(url.port) : DEFAULT_PORT };
  if (url.username) parsed.user = decodeURIComponent(url.username);
  if (url.password) parsed.password = decodeURIComponent(url.password);
  if (db !== undefined) parsed.db = db;
  return parsed;
}

/** A Sentinel URL as a ParsedRedisUrl: host and port of the first sentinel, the rest under `sentinel`. */
function sentinelTarget(text: string): ParsedRedisUrl | string {
  const parsed = parseSentinelUrl(text, redactUrl(text));
  if (typeof parsed === 'string') return parsed;
  const url: ParsedRedisUrl = { tls: parsed.tls, host: parsed.nodes[0].host, port: parsed.nodes[0].port, sentinel: { name: parsed.name, nodes: parsed.nodes } };
  if (parsed.user !== undefined) url.user = parsed.user;
  if (parsed.password !== undefined) url.password = parsed.password;
  if (parsed.db !== undefined) url.db = parsed.db;
  return url;
}

/** Longest unix socket path the kernel takes (sun_path is 108 bytes on Linux, 104 on macOS, with a NUL). */
const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

/** `unix:///absolute/path/redis.sock[?db=N]`: the path names a socket on this machine. */
function parseUnixUrl(url: URL, shown: string): ParsedRedisUrl | string {
  if (url.hostname) {
    return `the target "${shown}" names a host (${url.hostname}): a unix socket URL has three slashes and an absolute path, e.g. unix:///var/run/redis/redis.sock`;
  }
  if (url.hash) return `the target "${shown}" has a #fragment, which is not read: remove it`;
  const path = decodeURIComponent(url.pathname);
  if (!path.startsWith('/') || path === '/') return `the target "${shown}" has no socket path: write unix:///path/to/redis.sock`;
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    return `the unix socket path ${path} is ${Buffer.byteLength(path)} bytes long, more than the ${MAX_SOCKET_PATH_BYTES} the system allows: use a shorter path (e.g. a link to the socket)`;
  }
  const parsed: ParsedRedisUrl = { tls: false, host: 'localhost', port: 0, path };
  for (const [name, value] of url.searchParams) {
    if (name !== 'db' || !/^\d+$/.test(value)) {
      return `the target "${shown}" has the option ?${name}=${value}: a unix socket URL only takes ?db=N (or use the \`db\` setting)`;
    }
    parsed.db = Number(value);
  }
  return parsed;
}

/**
 * The URL with any password replaced by `***` (`mark`), for messages and stored targets. Reads up to the
 * last `@` before the path, so a password holding `/`, `:` or `@` is hidden whole even in a URL that did not parse.
 */
export function redactUrl(text: string, mark = ':***'): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^@]*@)?/i.exec(text);
  if (!match) return text;
  const at = text.lastIndexOf('@');
  if (at < match[1].length) return text;
  const userInfo = text.slice(match[1].length, at);
  const colon = userInfo.indexOf(':');
  if (colon < 0) return text;
  const user = userInfo.slice(0, colon);
  // Without a mark and without a user, nothing is left of the user info: `redis://host`.
  return match[1] + (user || mark ? user + mark + text.slice(at) : text.slice(at + 1));
}
