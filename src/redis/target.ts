// Turns a scenario's target (URL, profile, user, password source, TLS files) into ConnectionOptions,
// plus a display form of the URL that never contains the password.
import { FileGateError, readBoundedFile } from '../gates/files';
import { isIPv4, isIPv6 } from 'node:net';
import { resolve } from 'node:path';
import type { ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import { networkRuleFor, readAllowedHost } from '../gates/network';
import { ownField, ownValue } from '../gates/plainData';
import type { TargetPlan, TlsPlan } from '../scenario/plan';
import { isSentinelUrl, parseSentinelUrl, sentinelList, type SentinelNode } from './sentinelUrl';
import type { ConnectionOptions, ConnectionProfile, SentinelOptions } from './types';

export const DEFAULT_PORT = 6379;

export interface ResolveContext {
  env: Record<string, string | undefined>;
  /** The password from the editor's SecretStorage, or RBENCH_PASSWORD in the CLI. */
  secret?: string;
  profiles?: Record<string, ConnectionProfile>;
  /** Folder that relative TLS file paths are resolved against (the scenario file's folder). */
  baseDir?: string;
  /** Hosts the user allows a cluster's nodes or a Sentinel's primary to be on (`--allow-host`), besides the profile's `allowHosts`. */
  allowHosts?: readonly string[];
}

export interface ResolvedConnection {
  options?: ConnectionOptions;
  error?: string;
  /** The target URL without any password, e.g. `redis://alice@10.0.0.5:6380/2`: what run files and logs show. */
  display: string;
}

interface ParsedUrl {
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

export function resolveConnection(target: TargetPlan, context: ResolveContext): ResolvedConnection {
  const merged = applyProfile(target, context.profiles ?? {});
  if (typeof merged === 'string') return { error: merged, display: target.profile ? `profile ${target.profile}` : '' };
  if (!merged.url) {
    return { error: 'the target has no URL: give `target redis://host:port` or the name of a connection profile', display: '' };
  }
  const url = parseRedisUrl(merged.url);
  if (typeof url === 'string') return { error: url, display: redactUrl(merged.url) };

  const user = merged.user ?? url.user;
  const db = merged.db ?? url.db ?? 0;
  const tlsEnabled = url.tls || merged.tls?.enabled === true;
  const display = displayUrl({ tls: tlsEnabled, host: url.host, port: url.port, path: url.path, user, db, sentinel: url.sentinel });
  if (url.path !== undefined && tlsEnabled) {
    return { error: `the target ${display} is a unix socket, which Redis serves without TLS: remove the tls settings, or use a rediss:// URL`, display };
  }

  const password = lookUpPassword(merged, url, context);
  if (password.error) return { error: password.error, display };
  if (merged.cluster && url.sentinel) {
    return { error: `the target ${display} is a Sentinel target, which serves one primary, but cluster mode is on: turn cluster off, or name a cluster node with redis://`, display };
  }
  if (merged.cluster && db !== 0) {
    return { error: `cluster mode has only database 0, but the target selects db ${db}: remove the db or turn cluster off`, display };
  }
  let tls: TlsConnectionOptions | undefined;
  if (tlsEnabled) {
    const built = buildTlsOptions(merged.tls, context.baseDir ?? process.cwd());
    if (typeof built === 'string') return { error: built, display };
    tls = built;
  }
  const options: ConnectionOptions = {
    host: url.host,
    port: url.port,
    resp: target.resp,
    connectTimeoutMs: target.connectTimeoutMs,
  };
  if (tls) options.tls = tls;
  if (url.path !== undefined) options.path = url.path;
  if (user !== undefined) options.username = user;
  if (password.value !== undefined) {
    options.password = password.value;
    options.passwordSource = password.source;
  }
  if (db !== 0) options.db = db;
  if (merged.cluster) options.cluster = true;
  if (url.sentinel) {
    const sentinel = sentinelOptions(merged, url.sentinel, context);
    if (typeof sentinel === 'string') return { error: sentinel, display };
    options.sentinel = sentinel;
  }
  if (merged.replicaReads) options.replicaReads = true;
  const allowHosts = allowedHosts(target.profile ? context.profiles?.[target.profile] : undefined, target.profile, context.allowHosts ?? []);
  if (typeof allowHosts === 'string') return { error: allowHosts, display };
  // The network gate's rule, fixed now (before any contact) from what the user named.
  options.network = networkRuleFor(options, allowHosts);
  return { options, display };
}

/** The profile's `allowHosts` and the user's own (`--allow-host`), normalised; or a message naming the bad entry. */
function allowedHosts(profile: ConnectionProfile | undefined, name: string | undefined, own: readonly string[]): string[] | string {
  const listed = profile?.allowHosts;
  if (listed !== undefined && !Array.isArray(listed)) {
    return `connection profile "${name}" has "allowHosts" ${JSON.stringify(listed)}: it must be a list of hosts, such as ["10.0.0.6", "10.0.0.7"]`;
  }
  const hosts: string[] = [];
  for (const [from, entries] of [[`connection profile "${name}" "allowHosts"`, listed ?? []], ['--allow-host', own]] as const) {
    for (const entry of entries) {
      const host = readAllowedHost(entry);
      if (typeof host !== 'string') return `${from}: ${host.error}`;
      hosts.push(host);
    }
  }
  return hosts;
}

/** Who the sentinels are and how they authenticate: `sentinel-user`, and `sentinel-password` from the environment or the secret. */
function sentinelOptions(target: TargetPlan, url: { name: string; nodes: SentinelNode[] }, context: ResolveContext): SentinelOptions | string {
  const sentinel: SentinelOptions = { name: url.name, nodes: url.nodes };
  if (target.sentinelUser !== undefined) sentinel.username = target.sentinelUser;
  const password = lookUpPassword({ ...target, passwordEnv: ownField(target, 'sentinelPasswordEnv'), passwordSecret: ownField(target, 'sentinelPasswordSecret') }, {}, context);
  if (password.error) return password.error.replace(/`password /g, '`sentinel-password ');
  if (password.value !== undefined) {
    sentinel.password = password.value;
    sentinel.passwordSource = password.source;
  }
  return sentinel;
}

/** True for names and addresses that stay on this machine (localhost, 127.0.0.0/8, ::1). */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIPv4(bare)) return bare.startsWith('127.');
  if (isIPv6(bare)) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
    if (mapped) return mapped[1].startsWith('127.');
    return /^(0{0,4}:){2,7}0{0,3}1$/.test(bare);
  }
  return false;
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
  const host = parts.host.includes(':') ? `[${parts.host}]` : parts.host;
  const db = parts.db ? `/${parts.db}` : '';
  return `${parts.tls ? 'rediss' : 'redis'}://${user}${host}:${parts.port}${db}`;
}

/** The profile's settings, overridden by whatever the scenario's target states itself. */
function applyProfile(target: TargetPlan, profiles: Record<string, ConnectionProfile>): TargetPlan | string {
  if (!target.profile) return target;
  // By own property only: a profile named `constructor` is unknown, not Object.
  const profile = ownValue(profiles, target.profile);
  if (!profile) {
    const known = Object.keys(profiles);
    return `unknown connection profile "${target.profile}": ${
      known.length ? `known profiles are ${known.map((name) => `"${name}"`).join(', ')}` : 'no profiles are defined in the settings'
    }`;
  }
  // Credential fields by own property only: a polluted Object.prototype must not name a password source.
  const passwordEnv = ownField(target, 'passwordEnv');
  const passwordSecret = ownField(target, 'passwordSecret');
  const sentinelPasswordEnv = ownField(target, 'sentinelPasswordEnv');
  const sentinelPasswordSecret = ownField(target, 'sentinelPasswordSecret');
  const ownPassword = passwordEnv !== undefined || passwordSecret === true;
  const ownSentinelPassword = sentinelPasswordEnv !== undefined || sentinelPasswordSecret === true;
  const profileTls: TlsPlan | undefined = profile.tls ? { enabled: true, ...profile.tls } : undefined;
  return {
    ...target,
    url: target.url ?? profile.url,
    user: target.user ?? profile.user,
    passwordEnv: ownPassword ? passwordEnv : ownField(profile, 'passwordEnv'),
    passwordSecret: ownPassword ? passwordSecret : ownField(profile, 'passwordSecret'),
    tls: target.tls ?? profileTls,
    cluster: target.cluster || profile.cluster === true,
    sentinelUser: target.sentinelUser ?? profile.sentinelUser,
    sentinelPasswordEnv: ownSentinelPassword ? sentinelPasswordEnv : ownField(profile, 'sentinelPasswordEnv'),
    sentinelPasswordSecret: ownSentinelPassword ? sentinelPasswordSecret : ownField(profile, 'sentinelPasswordSecret'),
    ...(target.replicaReads || profile.replicaReads === true ? { replicaReads: true } : {}),
  };
}

export function parseRedisUrl(text: string): ParsedUrl | string {
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
  const parsed: ParsedUrl = { tls: url.protocol === 'rediss:', host, port: url.port ? Number(url.port) : DEFAULT_PORT };
  if (url.username) parsed.user = decodeURIComponent(url.username);
  if (url.password) parsed.password = decodeURIComponent(url.password);
  if (db !== undefined) parsed.db = db;
  return parsed;
}

/** A Sentinel URL as a ParsedUrl: host and port of the first sentinel, the rest under `sentinel`. */
function sentinelTarget(text: string): ParsedUrl | string {
  const parsed = parseSentinelUrl(text, redactUrl(text));
  if (typeof parsed === 'string') return parsed;
  const url: ParsedUrl = { tls: parsed.tls, host: parsed.nodes[0].host, port: parsed.nodes[0].port, sentinel: { name: parsed.name, nodes: parsed.nodes } };
  if (parsed.user !== undefined) url.user = parsed.user;
  if (parsed.password !== undefined) url.password = parsed.password;
  if (parsed.db !== undefined) url.db = parsed.db;
  return url;
}

/** Longest unix socket path the kernel takes (sun_path is 108 bytes on Linux, 104 on macOS, with a NUL). */
const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

/** `unix:///absolute/path/redis.sock[?db=N]`: the path names a socket on this machine. */
function parseUnixUrl(url: URL, shown: string): ParsedUrl | string {
  if (url.hostname) {
    return `the target "${shown}" names a host (${url.hostname}): a unix socket URL has three slashes and an absolute path, e.g. unix:///var/run/redis/redis.sock`;
  }
  if (url.hash) return `the target "${shown}" has a #fragment, which is not read: remove it`;
  const path = decodeURIComponent(url.pathname);
  if (!path.startsWith('/') || path === '/') return `the target "${shown}" has no socket path: write unix:///path/to/redis.sock`;
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    return `the unix socket path ${path} is ${Buffer.byteLength(path)} bytes long, more than the ${MAX_SOCKET_PATH_BYTES} the system allows: use a shorter path (e.g. a link to the socket)`;
  }
  const parsed: ParsedUrl = { tls: false, host: 'localhost', port: 0, path };
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

function lookUpPassword(
  target: TargetPlan,
  url: Pick<ParsedUrl, 'password'>,
  context: ResolveContext,
): { value?: string; source?: string; error?: string } {
  // Own fields only: a polluted Object.prototype must not name a password source.
  const name = ownField(target, 'passwordEnv');
  if (name !== undefined) {
    const value = ownValue(context.env, name);
    if (value === undefined || value === '') {
      return {
        error:
          `the password comes from the environment variable ${name} (\`password env:${name}\`), but ${name} is ${value === undefined ? 'not set' : 'empty'}: ` +
          `set it where RBench starts (e.g. \`export ${name}=…\` before running the CLI or starting the editor), or use \`password secret\``,
      };
    }
    return { value, source: `environment variable ${name}` };
  }
  if (ownField(target, 'passwordSecret')) {
    if (context.secret === undefined || context.secret === '') {
      return {
        error:
          'the target uses `password secret`, but no password is stored: in the editor run "RBench: Set Password"; ' +
          'for the CLI set the RBENCH_PASSWORD environment variable',
      };
    }
    return { value: context.secret, source: 'the stored secret (RBENCH_PASSWORD in the CLI)' };
  }
  if (url.password !== undefined) return { value: url.password, source: 'the target URL' };
  return {};
}

function buildTlsOptions(plan: TlsPlan | undefined, baseDir: string): TlsConnectionOptions | string {
  const options: TlsConnectionOptions = {};
  if (!plan) return options;
  if ((plan.cert === undefined) !== (plan.key === undefined)) {
    return 'TLS client certificates need both a cert file and a key file: set both `tls cert` and `tls key`, or neither';
  }
  for (const kind of ['ca', 'cert', 'key'] as const) {
    const file = plan[kind];
    if (file === undefined) continue;
    const content = readTlsFile(kind, resolve(baseDir, file));
    if (typeof content === 'string') return content;
    options[kind] = content;
  }
  if (plan.servername) options.servername = plan.servername;
  if (plan.insecure) options.rejectUnauthorized = false;
  return options;
}

/** Certificates and keys are a few KB; a bundle of every public CA is ~200 KB. */
export const MAX_TLS_FILE_BYTES = 1024 * 1024;

/**
 * A TLS file through the file gate: a regular file, at most MAX_TLS_FILE_BYTES, opened without blocking
 * (`tls ca /dev/stdin` or a FIFO cannot hang the run, `/dev/zero` cannot fill memory).
 */
function readTlsFile(kind: 'ca' | 'cert' | 'key', path: string): Buffer | string {
  try {
    return readBoundedFile(path, { userNamed: true, maxBytes: MAX_TLS_FILE_BYTES });
  } catch (error) {
    if (!(error instanceof FileGateError)) throw error;
    if (error.problem === 'missing') return `TLS ${kind} file not found: ${path} (check the \`tls ${kind}\` path; relative paths start at the scenario's folder)`;
    return `cannot read TLS ${kind} file: ${error.message} (check the \`tls ${kind}\` path)`;
  }
}
