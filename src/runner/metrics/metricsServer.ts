// The `--metrics` endpoint: GET /metrics answers OpenMetrics (or the older text format, by the scraper's
// Accept header); nothing else is served. The address has passed the listening gate (src/gates/listen.ts),
// whose handler refuses a request addressed to another name; the server reads no request body, caps headers,
// connections and time, and opens before the first run so that a port in use stops rbench before any load.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerOnlyItsNames, type ListenAddress } from '../../gates/listen';
import {
  acceptsOpenMetrics,
  OPENMETRICS_CONTENT_TYPE,
  PROMETHEUS_TEXT_CONTENT_TYPE,
  renderOpenMetrics,
  renderPrometheusText,
  type Family,
} from './openMetrics';

export class MetricsListenError extends Error {}

export interface MetricsServer {
  /** As a scraper reaches it: `127.0.0.1:9464`, `[::1]:9464`. */
  readonly address: string;
  /** Scrapes served so far, and when the last one was (Date.now()). */
  scrapes(): { count: number; lastAt?: number };
  /** Resolves once a scrape that started after `since` (Date.now()) is answered, or after `timeoutMs`, or when `signal` aborts; true when scraped. */
  scrapedAfter(since: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  close(): Promise<void>;
}

const MAX_CONNECTIONS = 32;

function hostPort(address: ListenAddress): string {
  return address.host.includes(':') ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`;
}

function listenFailure(code: string | undefined, where: string): string {
  switch (code) {
    case 'EADDRINUSE':
      return `--metrics ${where}: the port is in use (another program listens there); choose another, e.g. --metrics ${where.replace(/\d+$/, '9465')}`;
    case 'EACCES':
      return `--metrics ${where}: not allowed to listen there (ports below 1024 need privileges); choose a port above 1024`;
    case 'EADDRNOTAVAIL':
      return `--metrics ${where}: that address is not one of this machine's; use 127.0.0.1, or an address of this machine`;
    default:
      return `--metrics ${where}: cannot listen there (${code ?? 'unknown error'})`;
  }
}

export async function startMetricsServer(address: ListenAddress, families: () => Family[]): Promise<MetricsServer> {
  const where = hostPort(address);
  let count = 0;
  let lastAt: number | undefined;
  const waiters = new Set<() => void>();
  // Loaded here, not at the top: node:http costs every `rbench run` ~8 ms of start-up, and few runs serve metrics.
  // A require, not import(): dist/cli.js runs the bundle as a vm.Script (src/cli/launch.ts), which has no import().
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createServer } = require('node:http') as typeof import('node:http');
  // Through the listening gate: a request addressed to another name (DNS rebinding) is refused before this handler.
  const server = createServer(
    answerOnlyItsNames(address, (request: IncomingMessage, response: ServerResponse) => {
      const path = (request.url ?? '').split('?')[0];
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('only GET /metrics\n');
        return;
      }
      if (path !== '/metrics') {
        response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('rbench serves /metrics only\n');
        return;
      }
      count++;
      lastAt = Date.now();
      // Waiters wake once the scraper has the whole answer: rbench may exit right after.
      response.once('finish', () => {
        for (const wake of [...waiters]) wake();
      });
      const openMetrics = acceptsOpenMetrics(request.headers.accept);
      const body = openMetrics ? renderOpenMetrics(families()) : renderPrometheusText(families());
      response.writeHead(200, {
        'Content-Type': openMetrics ? OPENMETRICS_CONTENT_TYPE : PROMETHEUS_TEXT_CONTENT_TYPE,
        'Content-Length': Buffer.byteLength(body),
      });
      response.end(request.method === 'HEAD' ? undefined : body);
    }),
  );
  server.maxConnections = MAX_CONNECTIONS;
  server.headersTimeout = 5000;
  server.requestTimeout = 10_000;
  server.maxHeadersCount = 64;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new MetricsListenError(listenFailure(error.code, where))));
    server.listen({ host: address.host, port: address.port, exclusive: true }, () => resolve());
  });
  // A socket error after start (a scraper that resets) must not end the run.
  server.on('error', () => undefined);
  server.on('clientError', (_error, socket) => socket.destroy());
  return {
    address: where,
    scrapes: () => ({ count, lastAt }),
    scrapedAfter(since, timeoutMs, signal) {
      return new Promise((resolve) => {
        const done = (scraped: boolean) => {
          clearTimeout(timer);
          waiters.delete(wake);
          signal?.removeEventListener('abort', abort);
          resolve(scraped);
        };
        const wake = () => {
          if (lastAt !== undefined && lastAt > since) done(true);
        };
        const abort = () => done(false);
        const timer = setTimeout(() => done(false), timeoutMs);
        waiters.add(wake);
        signal?.addEventListener('abort', abort, { once: true });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
