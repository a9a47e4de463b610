// Diagnostics for large documents, checked in a worker thread. Only the newest text of a document
// matters: a check made stale by an edit is dropped, and if the worker is still busy with it the
// worker is replaced, so typing in a 10 MB file never waits for checks of text that is gone.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ResolvedFile, ResolveOptions } from '../scenario';
import type { CheckedDocument } from '../scenario/features/outline';
import { decodeOutline, encodeOutline } from '../scenario/features/outlineCodec';
import type { CheckReply, CheckRequest } from './checkWorker';

interface Pending {
  key: string;
  request: CheckRequest;
  /** The worker's reply; undefined when the request was replaced or the worker failed. */
  resolve: (reply: CheckReply | undefined) => void;
}

const EMPTY_ENCODED = encodeOutline({ scenarios: [], symbols: [], folding: [] });

/** The failure a run's check reports when the worker did not answer. */
const NO_ANSWER = 'the check worker stopped before answering';

/** The worker script: next to this module in the esbuild bundle (dist/) and in tsc output. */
export function checkWorkerPath(): string | undefined {
  const path = join(__dirname, 'checkWorker.js');
  return existsSync(path) ? path : undefined;
}

export class BackgroundChecker {
  private worker: Worker | undefined;
  private nextId = 1;
  /** Request id → its document; the worker answers in order. */
  private readonly pending = new Map<number, Pending>();
  /** Document → the id of its newest request. */
  private readonly newest = new Map<string, number>();

  constructor(private readonly script: string) {}

  /**
   * The diagnostics and outline of `text` for document `key`, or undefined when a newer check of the
   * same document replaced this one before it finished.
   */
  check(key: string, text: string, options: ResolveOptions): Promise<CheckedDocument | undefined> {
    const stale = this.newest.get(key);
    if (stale !== undefined && this.pending.has(stale)) {
      // The worker handles one request at a time: when it is busy with this document's stale text, start afresh.
      const busyWithStale = this.pending.keys().next().value === stale;
      this.settle(stale, undefined);
      if (busyWithStale) this.restart();
    }
    const id = this.nextId++;
    this.newest.set(key, id);
    const request: CheckRequest = { id, text, options };
    return new Promise((resolve) => {
      this.pending.set(id, {
        key,
        request,
        resolve: (reply) => resolve(reply?.outline ? { diagnostics: reply.diagnostics, outline: decodeOutline(reply.outline) } : undefined),
      });
      this.ensureWorker().postMessage(request);
    });
  }

  /** The plans and diagnostics of `text`, for a run (each request is answered: none replaces another). */
  resolve(text: string, options: ResolveOptions): Promise<ResolvedFile> {
    const id = this.nextId++;
    const key = `#plans-${id}`;
    this.newest.set(key, id);
    const request: CheckRequest = { id, text, options, plans: true };
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        key,
        request,
        resolve: (reply) => {
          this.newest.delete(key);
          if (reply?.resolved) resolve(reply.resolved);
          else reject(new Error(NO_ANSWER));
        },
      });
      this.ensureWorker().postMessage(request);
    });
  }

  /** Forget a closed document. */
  forget(key: string): void {
    const id = this.newest.get(key);
    if (id !== undefined) this.settle(id, undefined);
    this.newest.delete(key);
  }

  dispose(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, undefined);
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script);
    worker.on('message', (reply: CheckReply) => this.settle(reply.id, reply));
    // A check that crashed the worker (it should not: checkText never throws) is not retried forever.
    worker.on('error', () => {
      for (const id of [...this.pending.keys()])
        this.settle(id, this.pending.get(id)!.request.plans ? undefined : { id, diagnostics: [], outline: EMPTY_ENCODED });
      this.restart();
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Replaces the worker; the requests it still held (other documents') go to the new one. */
  private restart(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    for (const { request } of this.pending.values()) this.ensureWorker().postMessage(request);
  }

  private settle(id: number, reply: CheckReply | undefined): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    pending.resolve(this.newest.get(pending.key) === id ? reply : undefined);
  }
}
