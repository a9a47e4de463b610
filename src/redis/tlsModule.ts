// node:tls (and the crypto it loads) only for TLS targets: evaluating it cost every engine thread ~3–5 ms of
// CPU at start, and a thread of a plain-TCP load never uses it. Every module an engine thread loads (the fast
// path's connect, a Sentinel's discovery) takes it from here when a target asks for TLS.
import type * as Tls from 'node:tls';

export function tlsModule(): typeof Tls {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('node:tls') as typeof Tls;
}
