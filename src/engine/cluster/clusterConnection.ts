// The fast path against a Redis Cluster: one load connection holds one socket per node it sends to (each
// master, and each replica for replica reads). Every request of a batch is routed by its key's slot, so a
// batch of `pipeline` requests is split over the masters and each node's part goes out in one write.
// MOVED and ASK replies are followed (latency still counts from the first send), counted, and a MOVED
// re-routes the slot at once.
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { BatchBuilder } from '../batch';
import { openSocket, type RawConnection } from '../connect';
import { BudgetedConnection, requestSource, State } from '../connectionBase';
import { encodeRespCommand } from '../resp/encode';
import { errorKind } from '../resp/scanner';
import { CONNECTION_ERROR_KIND, TIMEOUT_ERROR_KIND } from '../stats';
import { OPEN_LOOP_MAX_IN_FLIGHT, type WorkerLoad } from '../workerLoad';
import { parseRedirect, type ClusterState } from './clusterState';
import { NodeLink, type Pending } from './nodeLink';
import { scanRequest } from './request';
import { slotOfBytes } from './slot';
import { refreshTopology } from './topologyRefresh';

/** A request followed this many redirections without an answer: counted as the error the last one was. */
const MAX_REDIRECTS = 5;
const RECONNECT_FIRST_DELAY_MS = 50;
const RECONNECT_MAX_DELAY_MS = 1000;
const ASKING = encodeRespCommand(['ASKING']);
const READONLY = encodeRespCommand(['READONLY']);

export class ClusterConnection extends BudgetedConnection {
  private readonly builder: BatchBuilder;
  private readonly links = new Map<number, NodeLink>();
  /** Requests of the load sent or waiting, not yet answered. */
  private pending = 0;
  private readonly bounds = new Int32Array(2);
  /** Per node index: the requests of the batch being dispatched. */
  private readonly groups: Pending[][] = [];
  private closed = false;

  constructor(
    index: number,
    load: WorkerLoad,
    private readonly cluster: ClusterState,
  ) {
    super(index, load);
    const { keys, context } = requestSource(load.config, index);
    this.builder = new BatchBuilder(load.config.test, load.config.value, keys, context);
  }

  /** Opens a socket to every master (and every replica for replica reads) before the load starts. */
  override async open(): Promise<void> {
    const wanted = this.cluster.nodes.filter((n) => n.role === 'master' || this.cluster.plan.replicaReads);
    await Promise.all(wanted.map(async (n) => this.attach(this.link(n.index), await openSocket(this.options(n.index)))));
    this.state = State.Running;
  }

  protected override restartSequences(): void {
    this.builder.restart();
  }

  override canSend(): boolean {
    return this.state === State.Running && this.pending < OPEN_LOOP_MAX_IN_FLIGHT;
  }

  override sendScheduled(intended: number): number {
    const count = this.takeBudget();
    this.route(count, intended);
    this.flush();
    return count;
  }

  override abandon(kind?: string, text?: string): void {
    if (kind !== undefined) {
      for (const link of this.links.values()) this.failLink(link, kind, text ?? kind);
    }
    this.finish();
  }

  /**
   * Closed loop: one pipeline per master, so a batch holds `pipeline` requests per master (as much as the
   * budget allows); they spread over the masters by slot, about `pipeline` each, and the next batch goes
   * when all are answered.
   */
  protected override sendNextBatch(now: number): void {
    if (!this.mayBuildBatch(now)) return;
    for (let part = 0, parts = Math.max(1, this.cluster.masterCount); part < parts; part++) {
      const count = this.takeBudget();
      if (count === 0) break;
      this.route(count, now);
    }
    this.flush();
  }

  protected override requestsInFlight(): number {
    return this.pending;
  }

  protected override close(): void {
    this.closed = true;
    for (const link of this.links.values()) {
      if (link.timer) clearTimeout(link.timer);
      link.socket?.destroy();
      link.socket = undefined;
      link.up = false;
    }
  }

  /** Builds `count` requests and routes each by its key's slot into its node's group (sent by flush). */
  private route(count: number, start: number): void {
    const length = this.builder.build(count);
    const buffer = this.builder.buffer;
    const plan = this.cluster.plan;
    const measured = this.load.measuring;
    // One copy of the batch (the builder rewrites its buffer next time); each request keeps a view of it
    // for a resend after MOVED/ASK.
    const bytes = Buffer.from(buffer.subarray(0, length));
    const groups = this.groups;
    let at = 0;
    for (let i = 0; i < count; i++) {
      const label = this.builder.labels[i];
      const end = buffer[at] === 0x2a ? scanRequest(buffer, at, plan.keyArguments[label], this.bounds) : buffer.indexOf(10, at) + 1;
      const keyed = buffer[at] === 0x2a && this.bounds[0] >= 0;
      const slot = keyed ? slotOfBytes(buffer, this.bounds[0], this.bounds[1]) : -1;
      const node = keyed ? this.cluster.route(slot, plan.readOnly[label], this.index) : this.cluster.anyMaster(this.index + i);
      const entry: Pending = { bytes, from: at, to: end, label, slot, start, measured, redirects: 0, internal: false };
      while (groups.length <= node) groups.push([]);
      groups[node].push(entry);
      at = end;
    }
    if (at !== length) throw new Error(`cluster routing read ${at} of ${length} request bytes`);
    this.pending += count;
  }

  /** Writes each node's group at once. */
  private flush(): void {
    const groups = this.groups;
    for (let node = 0; node < groups.length; node++) {
      const entries = groups[node];
      if (entries.length === 0) continue;
      groups[node] = [];
      this.send(this.link(node), entries);
    }
  }

  private link(node: number): NodeLink {
    let link = this.links.get(node);
    if (!link) this.links.set(node, (link = new NodeLink(node)));
    return link;
  }

  private options(node: number) {
    const { host, port } = this.cluster.nodes[node];
    return { ...this.load.config.connection, host, port, path: undefined, db: 0 };
  }

  private send(link: NodeLink, entries: Pending[]): void {
    if (!link.up) {
      link.waiting.push(...entries);
      this.connect(link);
      return;
    }
    for (const entry of entries) link.inFlight.push(entry);
    let length = 0;
    for (const entry of entries) length += entry.to - entry.from;
    const out = Buffer.allocUnsafe(length);
    let at = 0;
    for (const entry of entries) at += entry.bytes.copy(out, at, entry.from, entry.to);
    link.socket!.write(out);
  }

  private internal(bytes: Buffer): Pending {
    return { bytes, from: 0, to: bytes.length, label: 0, slot: -1, start: 0, measured: false, redirects: 0, internal: true };
  }

  private attach(link: NodeLink, connection: RawConnection): void {
    link.socket = connection.socket;
    link.up = true;
    link.connecting = false;
    link.reconnectAttempt = 0;
    link.scanner.reset();
    link.errors.clear();
    connection.onBytes((chunk, length) => this.onData(link, chunk, length));
    connection.socket.on('error', () => undefined);
    connection.socket.on('close', () => this.onClose(link, connection.socket));
    const waiting = link.waiting;
    link.waiting = [];
    const first = this.cluster.nodes[link.node].role === 'replica' ? [this.internal(READONLY)] : [];
    if (first.length + waiting.length > 0) this.send(link, [...first, ...waiting]);
  }

  /** Opens the socket of a node met in a redirection, or reopens a lost one (with backoff). */
  private connect(link: NodeLink): void {
    if (link.connecting || link.up || this.closed) return;
    link.connecting = true;
    const delay = link.reconnectAttempt === 0 ? 0 : Math.min(RECONNECT_MAX_DELAY_MS, RECONNECT_FIRST_DELAY_MS * 2 ** link.reconnectAttempt);
    link.timer = setTimeout(() => {
      link.timer = undefined;
      openSocket(this.options(link.node)).then(
        (connection) => {
          if (this.closed) {
            connection.socket.destroy();
            return;
          }
          if (link.reconnectAttempt > 0) this.reconnects++;
          this.attach(link, connection);
        },
        (error: Error) => {
          link.connecting = false;
          link.reconnectAttempt++;
          if (this.closed) return;
          this.load.reconnectFailed(error.message);
          // A node that cannot be reached: what waited for it fails (the load goes on with the other
          // nodes), and the slot map is read again in case a replica took over its slots.
          const { host, port } = this.cluster.nodes[link.node];
          const lost = this.failLink(link, CONNECTION_ERROR_KIND, `${host}:${port} unreachable: ${error.message}`);
          refreshTopology(this.cluster, this.load.config.connection, link.node);
          this.answered(lost, performance.now());
        },
      );
    }, delay);
  }

  private onData(link: NodeLink, chunk: Buffer, length: number): void {
    if (link.socket === undefined) return;
    const now = performance.now();
    let replies: number;
    try {
      replies = link.scanner.scan(chunk, length);
    } catch (error) {
      link.socket.destroy(error as Error);
      return;
    }
    if (replies === 0) return;
    const stats = this.load.stats;
    const node = this.cluster.nodes[link.node];
    let answered = 0;
    for (let i = 0; i < replies && link.sent > 0; i++) {
      const entry = link.take();
      const error = link.errors.get(i);
      if (entry.internal) continue;
      if (error !== undefined && this.redirected(link, entry, error)) continue;
      answered++;
      if (!entry.measured) continue;
      const micros = Math.round((now - entry.start) * 1000);
      stats.recordReplies(entry.label, micros, 1, now);
      node.stats.recorder.record(micros, 1);
      node.stats.requests++;
      if (error !== undefined) {
        const kind = errorKind(error);
        stats.recordError(entry.label, kind, error);
        node.stats.addError(kind, error, 1);
      }
    }
    link.errors.clear();
    this.answered(answered, now);
  }

  /** Follows a MOVED or ASK reply: re-sends the request to the node named (after ASKING for ASK). */
  private redirected(link: NodeLink, entry: Pending, error: string): boolean {
    const redirect = parseRedirect(error);
    if (!redirect || entry.redirects >= MAX_REDIRECTS) return false;
    const from = this.cluster.nodes[link.node];
    // An empty host means "the address you reached me on".
    const target = this.cluster.redirect(link.node, redirect.kind, redirect.slot, redirect.host || from.host, redirect.port, this.load.measuring);
    entry.redirects++;
    const next = this.link(target);
    this.send(next, redirect.kind === 'ASK' ? [this.internal(ASKING), entry] : [entry]);
    return true;
  }

  private answered(count: number, now: number): void {
    if (count === 0) return;
    this.pending -= count;
    if (this.load.openLoop) {
      if (this.state === State.Running) this.load.kick();
      this.finishIfDone();
      return;
    }
    if (this.pending > 0) return;
    if (this.state === State.Running) this.sendNextBatch(now);
    else this.finishIfDone();
  }

  private onClose(link: NodeLink, socket: Socket): void {
    if (link.socket !== socket) return;
    link.socket = undefined;
    link.up = false;
    if (this.closed || this.state === State.Finished) return;
    const lost = this.failLink(link, CONNECTION_ERROR_KIND, `connection to ${this.cluster.nodes[link.node].host}:${this.cluster.nodes[link.node].port} lost`);
    link.reconnectAttempt++;
    this.connect(link);
    this.answered(lost, performance.now());
  }

  /** Counts what a link had sent or held as errors of `kind` (timed-out ones with their wait); returns how many. */
  private failLink(link: NodeLink, kind: string, text: string): number {
    const now = performance.now();
    const stats = this.load.stats;
    const node = this.cluster.nodes[link.node];
    let lost = 0;
    const entries = [...link.inFlight.slice(link.inFlightHead), ...link.waiting];
    link.inFlight.length = 0;
    link.inFlightHead = 0;
    link.waiting = [];
    for (const entry of entries) {
      if (entry.internal) continue;
      lost++;
      if (!entry.measured) continue;
      const waited = kind === TIMEOUT_ERROR_KIND ? Math.round((now - entry.start) * 1000) : undefined;
      stats.recordUnanswered(entry.label, 1, kind, text, waited);
      if (waited !== undefined) node.stats.recorder.record(waited, 1);
      node.stats.unanswered++;
      node.stats.requests++;
      node.stats.addError(kind, text, 1);
    }
    return lost;
  }
}
