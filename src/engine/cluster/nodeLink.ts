// One load connection's socket to one cluster node: the requests it has sent (oldest first), those
// waiting for it to connect, and the error replies of the current read.
import type { Socket } from 'node:net';
import { ReplyScanner } from '../resp/scanner';

/** One request in flight (or waiting for its node's socket). `internal`: ASKING/READONLY, not a request of the load. */
export interface Pending {
  /** The request is bytes[from … to): a copy of its batch (or a constant), shared by the batch's requests. */
  bytes: Buffer;
  from: number;
  to: number;
  label: number;
  slot: number;
  /** When its latency counts from: the first send (closed loop) or the intended time (open loop). */
  start: number;
  measured: boolean;
  redirects: number;
  internal: boolean;
}

export class NodeLink {
  socket: Socket | undefined;
  up = false;
  connecting = false;
  readonly scanner = new ReplyScanner();
  /** Sent, oldest first. */
  readonly inFlight: Pending[] = [];
  inFlightHead = 0;
  /** Routed here while the socket is not up; sent once it is. */
  waiting: Pending[] = [];
  /** Error replies of the current scan: reply index → text. */
  readonly errors = new Map<number, string>();
  reconnectAttempt = 0;
  timer: NodeJS.Timeout | undefined;

  constructor(readonly node: number) {
    this.scanner.onError = (_kind, text, index) => this.errors.set(index, text);
  }

  take(): Pending {
    const entry = this.inFlight[this.inFlightHead++];
    if (this.inFlightHead > 1024 && this.inFlightHead * 2 > this.inFlight.length) {
      this.inFlight.splice(0, this.inFlightHead);
      this.inFlightHead = 0;
    }
    return entry;
  }

  get sent(): number {
    return this.inFlight.length - this.inFlightHead;
  }
}
