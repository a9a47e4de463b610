// Turns connection failures and server error replies into one message that names the place and the fix.
// Pure functions, one implementation for every connection: the engine's raw sockets and ioredis load
// connections, the control connection and the monitor; the CLI and the editor show the messages as is.
import type { ConnectionOptions } from './types';

export interface ErrorPlace {
  host: string;
  port: number;
  /** A unix socket path, when the connection goes there instead of host:port. */
  path?: string;
  tls?: boolean;
  /** The TLS server name checked against the certificate, when it differs from the host. */
  servername?: string;
  username?: string;
  /** Where the password came from (`environment variable REDIS_PASSWORD`), when one was sent. */
  passwordSource?: string;
  /** The database the connection selects, when not 0. */
  db?: number;
  /** The connect timeout, named in a timeout's message. */
  connectTimeoutMs?: number;
  /** The connection had been working: a close or reset now means the server went away mid-run. */
  wasConnected?: boolean;
  /** The fix when the certificate is not issued for the name checked, where `tls servername` is not it (a cluster node other than the seed). */
  nameFix?: string;
}

/** The handshake command an error reply answered; the raw load sockets know it, ioredis does not say. */
export type HandshakeStep = 'hello' | 'auth' | 'select' | 'ping';

/**
 * `host:port`, with an IPv6 host in brackets; `unix:/path` for a socket. The bracket rule is gates/network.ts's
 * formatAddress written again: this file is bundled into the results webview (through results/warnings.ts),
 * where network.ts's `node:net` does not resolve.
 */
export function address(where: Pick<ErrorPlace, 'host' | 'port' | 'path'>): string {
  if (where.path !== undefined) return `unix:${where.path}`;
  return where.host.includes(':') ? `[${where.host}]:${where.port}` : `${where.host}:${where.port}`;
}

/** What the messages need to know about a connection. */
export function errorPlace(options: ConnectionOptions): ErrorPlace {
  const place: ErrorPlace = { host: options.host, port: options.port, tls: options.tls !== undefined, connectTimeoutMs: options.connectTimeoutMs };
  if (options.path !== undefined) place.path = options.path;
  if (options.tls?.servername) place.servername = options.tls.servername;
  if (options.username !== undefined) place.username = options.username;
  if (options.passwordSource !== undefined) place.passwordSource = options.passwordSource;
  if (options.db) place.db = options.db;
  return place;
}

/**
 * Codes for failures found before Node reports an error of its own: the connect timeout ran out
 * (TCP not up, or up without a TLS answer), or the server closed the connection during the handshake.
 */
export const CONNECT_TIMEOUT = 'RBENCH_TIMEOUT';
export const TLS_TIMEOUT = 'RBENCH_TLS_TIMEOUT';
export const CLOSED_IN_HANDSHAKE = 'RBENCH_CLOSED';

/** Message of a failure to connect, authenticate or select the database at `where`. */
export function describeConnectionError(error: unknown, where: ErrorPlace): string {
  // The reply gate's refusal (replyGuard.ts) is already the whole message: the place, what was refused and why.
  if (error instanceof Error && error.name === 'ReplyRefusedError') return error.message;
  const place = address(where);
  const code = errorCode(error);
  const message = errorMessage(error).replace(/^Ready check failed: /, '');

  const closed = code === CLOSED_IN_HANDSHAKE || /Connection is closed|Stream isn't writeable/i.test(message);
  const dropped = /^(ECONNRESET|EPIPE|ECONNREFUSED)$/.test(code ?? '') || closed;
  if (where.wasConnected && dropped) {
    return `lost the connection to ${place} — did the server stop, restart or drop this client? (${message || code})`;
  }
  if (where.path !== undefined) {
    const socketMessage = describeSocketError(code, where.path);
    if (socketMessage) return socketMessage;
  }
  switch (code) {
    case 'ECONNREFUSED':
      return `cannot connect to ${place}: connection refused — is redis-server running there? Check the target or start one`;
    case 'ETIMEDOUT':
    case CONNECT_TIMEOUT:
      return `cannot connect to ${place}: no answer within ${timeout(where)} — check the host and port, that a firewall lets the port through, or raise the connect timeout${
        // A plain redis port given a TLS hello usually just waits for the end of the line.
        where.tls ? "; with TLS on, a port that does not speak TLS stays silent too: use redis:// (no TLS) or the server's tls-port" : ''
      }`;
    case TLS_TIMEOUT:
      return `TLS handshake with ${place} failed: TCP connected, but no TLS answer within ${timeout(where)} — a port that does not speak TLS stays silent (a plain-text Redis port never answers a TLS hello): use redis:// (no TLS) or the server's tls-port`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return `cannot connect to ${place}: the host name "${where.host}" does not resolve (DNS) — check its spelling, or use an IP address`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `cannot connect to ${place}: no network route to the host — check the address and your network or VPN`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `the connection to ${place} was reset by the server — ${
        where.tls
          ? 'check that the port speaks TLS and the server accepts this client'
          : 'if that port expects TLS, use rediss://; otherwise check the server log (maxclients, protected-mode)'
      }`;
  }
  const tlsMessage = describeTlsError(code, message, place, where);
  if (tlsMessage) return tlsMessage;
  if (closed) {
    return where.tls
      ? `${place} closed the connection before answering — the port may not speak TLS, or the server wants a client certificate (\`tls cert\`/\`tls key\`)`
      : `${place} closed the connection before answering — if that port only accepts TLS, use rediss:// (or \`tls on\`); otherwise check the server log`;
  }
  if (isReplyText(message)) return describeHandshakeReply(message, where);
  return `cannot connect to ${place}: ${withCode(message, code) || 'unknown error'}`;
}

/**
 * The message of a failed TLS handshake that trying again cannot mend (certificate not trusted or not for
 * that name, no TLS on the port, a client certificate required); undefined for any other failure.
 */
export function tlsRefusal(error: unknown, where: ErrorPlace): string | undefined {
  return describeTlsError(errorCode(error), errorMessage(error), address(where), { ...where, tls: true });
}

/** Failures particular to unix sockets: the file is missing, not a socket, or not ours to open. */
function describeSocketError(code: string | undefined, path: string): string | undefined {
  switch (code) {
    case 'ENOENT':
      return `cannot connect to unix:${path}: no such socket — is redis-server running with \`unixsocket ${path}\`? Check the path`;
    case 'EACCES':
    case 'EPERM':
      return `cannot connect to unix:${path}: permission denied — the socket's permissions (redis.conf \`unixsocketperm\`) or its folder do not let this user in`;
    case 'ECONNREFUSED':
      return `cannot connect to unix:${path}: connection refused — the socket file exists but no redis-server listens on it (a stale file from a stopped server?)`;
    case 'ENOTSOCK':
      return `cannot connect to unix:${path}: that file is not a socket — check the path`;
  }
  return undefined;
}

/**
 * Message of an error reply to a handshake command (HELLO, AUTH, SELECT, PING) at `where`. `step`
 * names the command when known; without it (ioredis) the reply alone tells what failed.
 */
export function describeHandshakeReply(reply: string, where: ErrorPlace, step?: HandshakeStep): string {
  const text = reply.trim();
  const place = address(where);
  const user = where.username ? `user "${where.username}"` : 'the default user';
  if (/^WRONGPASS|invalid username-password pair|^ERR invalid password/i.test(text)) {
    const from = where.passwordSource ? ` (the password came from ${where.passwordSource})` : '';
    return `authentication failed at ${place}: wrong password for ${user}, or that user does not exist or is disabled${from} — check the user and the password`;
  }
  if (
    /^ERR (AUTH <password> called without any password configured|Client sent AUTH, but no password is set)|without any password configured|no password is set/i.test(
      text,
    )
  ) {
    return `${place} has no password set, but the target sends one — remove the password from the target`;
  }
  if (/^NOPERM/.test(text)) {
    return `${place}: ${user} lacks permission for ${deniedThing(text)} — grant it (ACL SETUSER ${where.username ?? 'default'} …) or use another user`;
  }
  if (step === 'hello' && /unknown command|^ERR/i.test(text)) {
    return `the server at ${place} does not support RESP3 (HELLO 3 failed: ${text}) — use \`resp 2\``;
  }
  const hint = serverErrorHint(text);
  if (step === 'select') return `cannot select database ${where.db ?? '?'} on ${place}: ${hint ? withReply(hint, text) : text}`;
  if (hint || step === undefined) return `${place}: ${hint ? withReply(hint, text) : text}`;
  return `connection handshake with ${place} failed at ${step.toUpperCase()}: ${text}`;
}

function timeout(where: ErrorPlace): string {
  return where.connectTimeoutMs !== undefined ? `${where.connectTimeoutMs} ms (the connect timeout)` : 'the connect timeout';
}

/** `message (CODE)`, unless the message already names the code. */
function withCode(message: string, code: string | undefined): string {
  if (!code) return message;
  if (!message) return code;
  return message.includes(code) ? message : `${message} (${code})`;
}

function withReply(hint: string, text: string): string {
  return `${hint} (server said: ${text})`;
}

/** Explains an error reply a user's scenario or server setup causes; unknown replies come back unchanged. */
export function describeServerError(text: string): string {
  const hint = serverErrorHint(text.trim());
  return hint ? withReply(hint, text.trim()) : text.trim();
}

function serverErrorHint(text: string): string | undefined {
  const kind = text.split(/\s/, 1)[0];
  switch (kind) {
    case 'MISCONF':
      return 'the server refuses writes because its last RDB snapshot failed — check that its `dir` exists with free disk space (see the server log), or set `stop-writes-on-bgsave-error no`';
    case 'OOM':
      return 'the server reached maxmemory and its policy (noeviction) refuses writes — raise maxmemory, use an eviction policy such as allkeys-lru, or delete keys';
    case 'READONLY':
      return 'the target is a read-only replica — point the target at the primary, or run a read-only scenario';
    case 'LOADING':
      return 'the server is still loading its dataset into memory — wait until it finishes, then run again';
    case 'BUSY':
      return 'the server is busy running a script or function — wait for it, or stop it with SCRIPT KILL / FUNCTION KILL';
    case 'CLUSTERDOWN':
      return 'the cluster is down (not all hash slots are served) — check CLUSTER INFO on the nodes';
    case 'MOVED':
    case 'ASK':
      return 'the target is a Redis Cluster node and the key lives on another node — set `cluster on` for this target';
    case 'NOSCRIPT':
      return 'EVALSHA named a script the server does not have (restarted or SCRIPT FLUSH) — load it with SCRIPT LOAD first, or use EVAL';
    case 'WRONGTYPE':
      return 'a key the scenario uses already holds a different data type — use a key prefix of its own, or delete the old keys';
    case 'NOAUTH':
      return 'the server requires a password — add `password env:NAME` or `password secret` to the target';
    case 'NOPERM':
      return `the ACL user lacks permission for ${deniedThing(text)} — grant it (ACL SETUSER) or use another user`;
    case 'DENIED':
      return 'the server is in protected mode: without a password it only accepts connections from this machine — set a password (requirepass or an ACL user) or `protected-mode no` on the server';
    case 'CROSSSLOT':
      return 'a multi-key command touches keys in different cluster hash slots — give the keys a common {hash tag}';
  }
  const unknownCommand = /^ERR unknown command '([^']*)'/i.exec(text);
  if (unknownCommand) {
    return `the server does not know the command ${unknownCommand[1]} — check its spelling and the server version; it may also be renamed or disabled (rename-command), or need a module that is not loaded`;
  }
  if (/^ERR max(imum)? number of clients reached/i.test(text)) {
    return 'the server reached maxclients — use fewer clients, or raise maxclients on the server';
  }
  if (/^ERR (DB index is out of range|invalid DB index)/i.test(text)) {
    return 'the database number is higher than the server has (`databases` setting) — pick a smaller db';
  }
  if (/^ERR SELECT is not allowed in cluster mode/i.test(text)) {
    return 'Redis Cluster has only database 0 — remove the db from the target';
  }
  return undefined;
}

/** `the 'config|get' command`, `a key`… from a NOPERM reply. */
function deniedThing(text: string): string {
  const command = /permissions to run the '([^']+)' command/.exec(text);
  if (command) return `the command ${command[1].replace('|', ' ').toUpperCase()}`;
  if (/access one of the keys|access a key/.test(text)) return 'a key the command uses (key pattern ~…)';
  if (/access one of the channels|access a channel/.test(text)) return 'a Pub/Sub channel (&…)';
  return 'this command';
}

function describeTlsError(code: string | undefined, message: string, place: string, where: ErrorPlace): string | undefined {
  const handshake = `TLS handshake with ${place} failed`;
  switch (code) {
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
      return `${handshake}: the server's certificate is self-signed and not trusted — give its CA certificate with \`tls ca FILE\`, or \`tls insecure\` for a test server`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'CERT_SIGNATURE_FAILURE':
      return `${handshake}: certificate verify failed (signed by a CA this client does not trust) — give the CA certificate with \`tls ca FILE\``;
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return `${handshake}: the server's certificate is ${code === 'CERT_HAS_EXPIRED' ? 'expired' : 'not valid yet'} — renew it, or check the clocks`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `${handshake}: the certificate is not issued for the name "${where.servername ?? where.host}" (${message.replace(/^.*?: /, '')}) — ${where.nameFix ?? 'set `tls servername` to a name in the certificate, or connect by that name'}`;
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number|packet length too long|unknown protocol/i.test(message)) {
    return `${handshake}: EPROTO / wrong version number — the server does not speak TLS on this port; use redis:// (no TLS) or the server's tls-port`;
  }
  if (/certificate required|handshake failure|peer did not return a certificate/i.test(message)) {
    return `${handshake}: the server requires a client certificate — set \`tls cert FILE\` and \`tls key FILE\` (tls-auth-clients is on)`;
  }
  const tlsCode = /^ERR_SSL_|^ERR_TLS_|^EPROTO$/.test(code ?? '');
  if (tlsCode || (where.tls && (/SSL|TLS/i.test(code ?? '') || /SSL|TLS/i.test(message)))) {
    return `${handshake}: ${withCode(message, code)} — is TLS enabled on that port?`;
  }
  return undefined;
}

/** Error replies start with an upper-case word: `WRONGPASS …`, `ERR …`. */
function isReplyText(message: string): boolean {
  return /^[A-Z][A-Z_]+ /.test(message);
}

/** Node's error code; Node 20 reports refused dual-stack connects as an AggregateError with the code on the parts. */
function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const parts = (error as { errors?: unknown }).errors;
  if (Array.isArray(parts)) return parts.map(errorCode).find((part) => part !== undefined);
  return undefined;
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : String(error);
}
