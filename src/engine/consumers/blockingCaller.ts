// One consumer's connection, asked one call at a time for as long as its group runs. The blocking call is
// encoded once, and the reply reader, the close handler and the answer timers are made once per connection:
// a job then costs a write, a read and the reply's parse. (askRawBytes makes all of them per call, which on
// the main thread, beside the run's sampling, was a third of a job's client CPU.)
import { CONTROL_REPLY_LIMITS, ReplyCollector } from '../../protocol/replyReader';
import { encodeRespCommand } from '../../protocol/respEncode';
import type { RawConnection } from '../fast/connect';

interface PendingCall {
  name: string;
  timeoutMs: number;
  resolve: (bytes: Buffer) => void;
  reject: (error: Error) => void;
}

export class BlockingCaller {
  private readonly collector = new ReplyCollector(CONTROL_REPLY_LIMITS);
  private readonly callBytes: Buffer;
  private readonly callName: string;
  /** A timer per answer timeout (the blocking call's, the acknowledgement's), re-armed at each call: none made per call. */
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private pending: PendingCall | undefined;
  private closed = false;

  constructor(
    private readonly connection: RawConnection,
    call: string[],
  ) {
    this.callBytes = encodeRespCommand(call);
    this.callName = call[0];
    connection.onBytes((chunk, length) => this.onBytes(chunk.subarray(0, length)));
    connection.socket.once('close', () => {
      this.closed = true;
      for (const timer of this.timers.values()) clearTimeout(timer);
      this.fail((name) => `the connection closed before the answer to ${name}`);
    });
  }

  /** Sends the blocking call; resolves with the bytes of its whole reply, framed within the control limits. */
  call(timeoutMs: number): Promise<Buffer> {
    return this.send(this.callName, this.callBytes, timeoutMs);
  }

  /** Sends another command on the same connection (XACK after a read), one call at a time as well. */
  ask(args: string[], timeoutMs: number): Promise<Buffer> {
    return this.send(args[0], encodeRespCommand(args), timeoutMs);
  }

  private send(name: string, bytes: Buffer, timeoutMs: number): Promise<Buffer> {
    if (this.pending) return Promise.reject(new Error(`${name} asked while ${this.pending.name} waits for its answer`));
    if (this.closed) return Promise.reject(new Error(`the connection closed before the answer to ${name}`));
    return new Promise((resolve, reject) => {
      this.pending = { name, timeoutMs, resolve, reject };
      this.armTimer(timeoutMs);
      this.connection.socket.write(bytes);
    });
  }

  private armTimer(timeoutMs: number): void {
    const timer = this.timers.get(timeoutMs);
    if (timer) {
      timer.refresh();
      return;
    }
    // Unreferenced: while a call waits, its open socket keeps the process alive; once closed, nothing else should.
    const made = setTimeout(() => {
      // Re-armed at each call of this timeout, so it fires only when the call waiting now started timeoutMs ago.
      if (this.pending?.timeoutMs === timeoutMs) this.fail((name) => `no answer to ${name} within ${timeoutMs} ms`);
    }, timeoutMs);
    made.unref();
    this.timers.set(timeoutMs, made);
  }

  private onBytes(chunk: Uint8Array): void {
    const pending = this.pending;
    // Bytes with no call waiting cannot be an answer: the connection is being closed.
    if (!pending) return;
    let bytes: Buffer | undefined;
    try {
      bytes = this.collector.feedBytes(chunk);
    } catch (error) {
      this.fail(() => (error as Error).message, error as Error);
      return;
    }
    if (bytes === undefined) return;
    this.pending = undefined;
    pending.resolve(bytes);
  }

  /** Ends the call waiting, if any: `message` is given its command's name. */
  private fail(message: (name: string) => string, error?: Error): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    pending.reject(error ?? new Error(message(pending.name)));
  }
}
