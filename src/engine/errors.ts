// Failures the engine reports to people: each message says what happened and what to do about it.
import type { ConnectionOptions } from '../redis/types';

/** A load could not start or had to stop; the message is meant for the user as is. */
export class LoadError extends Error {
  override name = 'LoadError';
}

export function address(options: Pick<ConnectionOptions, 'host' | 'port'>): string {
  return options.host.includes(':') ? `[${options.host}]:${options.port}` : `${options.host}:${options.port}`;
}

const TLS_CERT_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
]);

/** Turns a socket-level failure (refused, timeout, DNS, TLS) into a user-facing message. */
export function describeSocketError(error: NodeJS.ErrnoException, options: ConnectionOptions): string {
  const where = address(options);
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') return `cannot connect to ${where}: connection refused — is redis-server running there?`;
  if (code === 'ETIMEDOUT' || code === 'RBENCH_TIMEOUT') {
    return `cannot connect to ${where}: no answer within ${options.connectTimeoutMs} ms (timeout) — check the host, the port and any firewall in between`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot connect to ${where}: host name "${options.host}" not found`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `cannot connect to ${where}: host unreachable`;
  if (options.tls) {
    if (code === 'RBENCH_TLS_TIMEOUT') {
      return `TLS handshake with ${where} failed: no TLS answer within ${options.connectTimeoutMs} ms — is TLS enabled on that port? (a plain-text Redis port never answers a TLS hello)`;
    }
    if (TLS_CERT_CODES.has(code)) {
      return `TLS handshake with ${where} failed: ${error.message} (${code}) — give the server's CA with \`tls ca <file>\`, or \`tls insecure\` for a test server`;
    }
    if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
      return `TLS handshake with ${where} failed: ${error.message} — set \`tls servername\` to a name in the certificate`;
    }
    if (/SSL|TLS|EPROTO|ECONNRESET/i.test(code) || /SSL|TLS|wrong version/i.test(error.message)) {
      return `TLS handshake with ${where} failed: ${error.message}${code ? ` (${code})` : ''} — is TLS enabled on that port?`;
    }
  }
  if (code === 'RBENCH_CLOSED') {
    return `cannot connect to ${where}: the server closed the connection during the handshake${
      options.tls ? '' : ' — if it expects TLS, use a rediss:// URL or `tls on`'
    }`;
  }
  return `cannot connect to ${where}: ${error.message}${code && !error.message.includes(code) ? ` (${code})` : ''}`;
}

export type HandshakeStep = 'hello' | 'auth' | 'select' | 'ping';

/** Turns an error reply to a handshake command (AUTH, HELLO, SELECT, PING) into a user-facing message. */
export function describeHandshakeError(step: HandshakeStep, reply: string, options: ConnectionOptions): string {
  const where = address(options);
  const user = options.username ?? 'default';
  if (/^NOAUTH/.test(reply)) {
    return `the server at ${where} requires a password (NOAUTH): set \`password env:NAME\` in the scenario (or a password in the connection profile)`;
  }
  if (/^WRONGPASS|invalid password|invalid username-password/i.test(reply)) {
    return `authentication failed at ${where} for user "${user}": wrong user name or password (server said: ${reply})`;
  }
  if (/without any password configured|no password is set/i.test(reply)) {
    return `the server at ${where} has no password set, but a password was given: remove it from the scenario or profile (server said: ${reply})`;
  }
  if (/^NOPERM/.test(reply)) return `user "${user}" lacks a permission at ${where}: ${reply}`;
  if (step === 'hello' && /unknown command|^ERR/i.test(reply)) {
    return `the server at ${where} does not support RESP3 (HELLO 3 failed: ${reply}): use \`resp 2\``;
  }
  if (step === 'select') return `cannot select database ${options.db} on ${where}: ${reply}`;
  return `connection handshake with ${where} failed at ${step.toUpperCase()}: ${reply}`;
}
