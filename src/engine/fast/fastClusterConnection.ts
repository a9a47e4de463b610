// The fast path against a Redis Cluster: one load connection holds one socket per node it sends to (each
// master, and each replica for replica reads). Every request of a batch is routed by its key's slot, so a
// batch of `pipeline` requests is split over the masters and each node's part goes out in one write.
// MOVED and ASK replies are followed (latency still counts from the first send), counted, and a MOVED
// re-routes the slot at once. Closed loop, a test the builder routes (one command whose requests differ only in
// their key digits) runs a loop per node: each link keeps its own pipeline full, refilled as soon as its replies
// are in, from a backlog of the connection's draws routed to its node (so no node waits for the slowest one, and
// every drawn key is sent once: the keys are the single-server draws). Other tests go in rounds (sendNextBatch).
// A command group's unit is one entry, sent whole to its slot's master (clusterUnits.ts).
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { NodeRefusedError } from '../../gates/network';
import { BatchBuilder } from '../requests/batch';
import type { RawConnection } from './connect';
import { openClusterNode } from './clusterNodeSocket';
import { BudgetedConnection, requestSource, State } from '../connectionBase';
import { TlsRefusedError } from '../errors';
import { encodeRespCommand } from '../../protocol/respEncode';
import { errorKind } from '../../protocol/respScanner';
import { CONNECTION_ERROR_KIND, TIMEOUT_ERROR_KIND } from '../measure/stats';
import { UNIT_LABEL } from '../measure/unitTally';
import { OPEN_LOOP_MAX_IN_FLIGHT, type ClientPathModule, type ConnectionHost } from '../connection';
import { parseRedirect, type ClusterState, type KnownNode } from '../cluster/clusterState';
import { ClusterUnits, UNIT } from './clusterUnits';
import { DEEP_NIL, INTERNAL, MEASURED, NodeLink, type PendingQueue } from './nodeLink';
import { scanRequest } from './request';
import { writeRange } from './socketWrite';
import { slotOfBytes } from '../cluster/slot';
import { refreshTopology } from './topologyRefresh';
import { SlotRouter } from './slotRouter';
import { clusterPathConnections } from '../cluster/clusterPathConnections';
import { KeyBacklog } from '../requests/keyBacklog';
import { MISS_NIL_ELEMENTS, MISS_NIL_OR_EMPTY, MISS_NONE } from '../../scenario/missRules';

/** A request followed this many redirections without an answer: counted as the error the last one was. */
const MAX_REDIRECTS = 5;
const RECONNECT_FIRST_DELAY_MS = 50;
const RECONNECT_MAX_DELAY_MS = 1000;
const ASKING = encodeRespCommand(['ASKING']);
const READONLY = encodeRespCommand(['READONLY']);
/** The per-node loop stops drawing while a node's backlog holds this many pipelines (a slow node's keys wait, bounded). */
const BACKLOG_PIPELINES = 4;

export class FastClusterConnection extends BudgetedConnection {
  private readonly builder: BatchBuilder;
  /** Node index → this connection's link to it. */
  private readonly links: (NodeLink | undefined)[] = [];
  /** Requests of the load sent or waiting, not yet answered. */
  private pending = 0;
  private readonly bounds = new Int32Array(2);
  /** Batches per closed-loop round: one pipeline per master (as many as there were at the start). */
  private readonly parts: number;
  private closed = false;
  /** Links with their socket up; at none, the whole connection counts as down for the server-lost rule. */
  private linksUp = 0;
  private reportedDown = false;
  /** A command group: its units' reply accounting. */
  private readonly units: ClusterUnits | undefined;
  /** One command encoded once, with its key in its key argument: batches are built ordered by node (routeWhole). */
  private readonly router: SlotRouter | undefined;
  /** Closed loop with a router: a loop per node link (pump), fed from the links' backlogs. */
  private readonly perNode: boolean;
  /** Requests drawn into the links' backlogs and not written yet (claimed from the budget: the connection is not done). */
  private backlogged = 0;
  private readonly backlogCap: number;
  /** Per label: which replies are misses (scenario/replyMisses.ts); each link's scanner notes nils and empty arrays. */
  private readonly missRules: Uint8Array;

  constructor(
    index: number,
    load: ConnectionHost,
    private readonly cluster: ClusterState,
  ) {
    super(index, load);
    const { keys, context } = requestSource(load.config, index);
    this.missRules = Uint8Array.from(load.config.missRules ?? []);
    this.parts = Math.max(1, cluster.masterCount);
    // One build per round: the builder holds a pipeline per master, routed and written from its buffer.
    this.builder = new BatchBuilder(load.config.test, load.config.value, keys, { ...context, pipeline: context.pipeline * this.parts });
    if (this.builder.grouped)
      this.units = new ClusterUnits(
        this.builder.unitSize,
        context.labelIndexes,
        this.builder.execAt,
        this.missRules,
        load,
        cluster,
        load.config.test.group?.transaction ? load.config.test.commands : undefined,
      );
    else this.router = this.slotRouter();
    // `reconnect every N` cycles a connection once all its replies are in: rounds have such a moment, the per-node loop does not.
    this.perNode = this.router !== undefined && !load.openLoop && load.config.reconnectEvery === undefined;
    this.backlogCap = BACKLOG_PIPELINES * load.config.pipeline;
  }

  /** The router of a test whose requests differ only in their key digits (BatchBuilder.routable), else none. */
  private slotRouter(): SlotRouter | undefined {
    const buffer = this.builder.buffer;
    const label = this.builder.labels[0];
    const argument = this.cluster.plan.keyArguments[label];
    if (buffer[0] !== 0x2a || argument < 0) return undefined;
    const bounds = this.bounds;
    scanRequest(buffer, 0, argument, bounds);
    const keyAt = { from: bounds[0], to: bounds[1] };
    if (keyAt.from < 0 || !this.builder.routable(keyAt)) return undefined;
    return new SlotRouter(buffer, keyAt, this.builder.keyDigitsAt(), this.cluster, this.cluster.plan.readOnly[label], this.index);
  }

  /** Opens a socket to every master (and every replica for replica reads) before the load starts. */
  override async open(): Promise<void> {
    if (this.cluster.refused) throw new NodeRefusedError(this.cluster.refused);
    await this.openLinks();
    this.state = State.Running;
  }

  private async openLinks(): Promise<void> {
    const wanted = this.cluster.nodes.filter((n) => n.role === 'master' || this.cluster.plan.replicaReads);
    await Promise.all(
      wanted.map(async (n) => {
        const link = this.link(n.index);
        // A link already reopening after a loss attaches its own socket.
        if (link.connecting) return;
        this.attach(link, await this.openNode(n.index));
      }),
    );
  }

  /**
   * `reconnect every N`: a client's connection is its links, one per node, so a cycle closes every link (nothing
   * is in flight then, and a planned close is no loss) and opens one to every master again, as `open` did (the
   * network gate and the handshake each time); nodes met later in a redirection reopen when a request goes there.
   */
  protected override async reopen(): Promise<void> {
    for (const link of this.links) {
      if (!link || link.connecting) continue;
      const socket = link.socket;
      if (link.up) this.linksUp--;
      // Cleared first: the socket's 'close' then finds it is not the link's and counts nothing lost.
      link.socket = undefined;
      link.up = false;
      socket?.destroy();
    }
    await this.openLinks();
  }

  protected override restartSequences(): void {
    this.builder.restart();
    if (!this.perNode) return;
    // Drawn before measuring began: never written, so dropped (measuring draws from the restarted sequence).
    this.dropBacklogs();
    if (this.pending === 0 && this.state === State.Running) this.sendNextBatch(performance.now());
  }

  protected override claimed(first: number): void {
    this.builder.claimed(first);
  }

  override canSend(): boolean {
    return this.state === State.Running && !this.reportedDown && !this.connectionSpent() && this.pending < OPEN_LOOP_MAX_IN_FLIGHT;
  }

  override sendScheduled(intended: number): number {
    const count = this.takeBudget();
    if (count === 0) {
      this.finishIfDone();
      return 0;
    }
    this.route(count, intended);
    this.flush();
    return count;
  }

  override abandon(kind?: string, text?: string): void {
    if (kind !== undefined) {
      for (const link of this.links) if (link) this.failLink(link, kind, text ?? kind);
    }
    this.finish();
  }

  /**
   * Closed loop. The per-node loop: every idle link gets its batch (refill). Otherwise rounds: one pipeline per
   * master, so a batch holds `pipeline` requests per master (as much as the budget allows, in one claim: the
   * claimed numbers are the batch's keys); they spread over the masters by slot, about `pipeline` each, and the
   * next batch goes when all are answered.
   */
  protected override sendNextBatch(now: number): void {
    if (this.perNode) {
      this.refill(undefined, now);
      return;
    }
    if (!this.mayBuildBatch(now) || this.cycleIfSpent(now)) return;
    const count = this.takeBudget(this.load.config.pipeline * this.parts);
    if (count === 0) {
      this.finishIfDone();
      return;
    }
    this.route(count, now);
    this.flush();
  }

  protected override requestsInFlight(): number {
    return this.pending + this.backlogged;
  }

  protected override close(): void {
    this.closed = true;
    this.dropBacklogs();
    for (const link of this.links) {
      if (!link) continue;
      if (link.timer) clearTimeout(link.timer);
      link.socket?.destroy();
      link.socket = undefined;
      link.up = false;
    }
  }

  /**
   * The per-node loop: `done`'s pipeline is empty (its replies are in, or it was lost), so it gets its next batch;
   * so does every other idle link with requests waiting for it (a backlog filled by another link's draws).
   */
  private refill(done: NodeLink | undefined, now: number): void {
    if (done !== undefined) this.pump(done, now);
    else this.pump(this.link(this.cluster.anyMaster(this.index)), now);
    for (const link of this.links) {
      if (link !== undefined && link !== done && link.backlog !== undefined && link.backlog.size > 0) this.pump(link, now);
    }
  }

  /** Writes the next batch of an idle link: up to a pipeline of its backlog, drawn further first while the load goes on. */
  private pump(link: NodeLink, now: number): void {
    if (link.inFlight.size > 0 || link.waiting.size > 0 || this.state === State.Finished) return;
    if (this.load.stopping || now >= this.load.deadline) {
      this.dropBacklogs();
      this.drain();
      return;
    }
    const pipeline = this.load.config.pipeline;
    // Draining: the budget is spent, and what was claimed and drawn still goes out.
    if (this.state === State.Running) this.draw(link, pipeline);
    const backlog = link.backlog;
    const count = backlog === undefined ? 0 : Math.min(pipeline, backlog.size);
    if (count === 0) {
      this.finishIfDone();
      return;
    }
    const builder = this.builder;
    const bytes = (link.template ??= builder.template(pipeline));
    builder.writeBacklog(bytes, backlog!, count);
    this.backlogged -= count;
    this.pending += count;
    const end = builder.requestEnds[count - 1];
    const labels = builder.labels;
    const flags = this.load.measuring ? MEASURED : 0;
    // The batch is one entry of its link's queue (its requests are of one length: pushRun).
    if (link.up) {
      link.inFlight.pushRun(bytes, 0, end, count, labels[0], now, flags);
      writeRange(link.socket!, bytes, 0, end);
    } else {
      link.waiting.pushRun(bytes, 0, end, count, labels[0], now, flags);
      this.connect(link);
    }
    this.countSent(labels, count, true);
  }

  /**
   * Claims and draws batches (a pipeline per master each, as the lock-step round claims) into the backlogs of
   * their keys' nodes until `link` has a pipeline waiting, the budget is spent, or some node's backlog is full.
   */
  private draw(link: NodeLink, pipeline: number): void {
    const cap = this.backlogCap;
    for (const other of this.links) if (other?.backlog !== undefined && other.backlog.size >= cap) return;
    const builder = this.builder;
    const router = this.router!;
    const randsPer = builder.randsPerRequest;
    while (link.backlog === undefined || link.backlog.size < pipeline) {
      const count = this.takeBudget(pipeline * this.parts);
      if (count === 0) return;
      builder.drawRouted(count);
      const keys = builder.drawnKeys;
      const rands = builder.drawnRands;
      let full = false;
      for (let i = 0; i < count; i++) {
        const node = this.link(router.groupOf(keys[i]));
        const backlog = (node.backlog ??= new KeyBacklog(randsPer));
        backlog.push(keys[i], rands, i * randsPer);
        if (backlog.size >= cap) full = true;
      }
      this.backlogged += count;
      if (full) return;
    }
  }

  private dropBacklogs(): void {
    for (const link of this.links) link?.backlog?.clear();
    this.backlogged = 0;
  }

  /** Builds `count` requests and stages each on the link of the node that owns its key's slot (written by flush). */
  private route(count: number, start: number): void {
    if (this.router) {
      this.routeWhole(count, start);
      return;
    }
    if (this.units) {
      this.routeUnits(count, start);
      return;
    }
    const length = this.builder.build(count);
    const buffer = this.builder.buffer;
    const labels = this.builder.labels;
    const plan = this.cluster.plan;
    const flags = this.load.measuring ? MEASURED : 0;
    const bounds = this.bounds;
    let at = 0;
    for (let i = 0; i < count; i++) {
      const label = labels[i];
      const resp = buffer[at] === 0x2a;
      const end = resp ? scanRequest(buffer, at, plan.keyArguments[label], bounds) : buffer.indexOf(10, at) + 1;
      const keyed = resp && bounds[0] >= 0;
      const slot = keyed ? slotOfBytes(buffer, bounds[0], bounds[1]) : -1;
      const node = keyed ? this.cluster.route(slot, plan.readOnly[label], this.index) : this.cluster.anyMaster(this.index + i);
      this.link(node).staged.push(buffer, at, end, label, start, flags, 0);
      at = end;
    }
    if (at !== length) throw new Error(`cluster routing read ${at} of ${length} request bytes`);
    this.pending += count;
    this.countSent(labels, count, this.builder.singleLabel);
  }

  /**
   * Builds `count` requests ordered by node and writes each node's run of them at once, straight from the
   * builder's buffer. Closed loop, that buffer is rebuilt only once every request of this batch is answered
   * (so written); the open loop has several batches in flight and writes a copy (one per batch).
   */
  private routeWhole(count: number, start: number): void {
    const router = this.router!;
    router.prepare();
    const length = this.builder.buildRouted(count, router);
    let bytes = this.builder.buffer;
    if (this.load.openLoop) {
      bytes = Buffer.allocUnsafe(length);
      this.builder.buffer.copy(bytes, 0, 0, length);
    }
    const ends = this.builder.requestEnds;
    const labels = this.builder.labels;
    const label = labels[0];
    const flags = this.load.measuring ? MEASURED : 0;
    const counts = router.counts;
    const starts = router.starts;
    for (let node = 0; node < counts.length; node++) {
      const requests = counts[node];
      if (requests === 0) continue;
      const link = this.link(node);
      const first = starts[node];
      const from = first === 0 ? 0 : ends[first - 1];
      const to = ends[first + requests - 1];
      if (!link.up) {
        link.waiting.pushRun(bytes, from, to, requests, label, start, flags);
        this.connect(link);
        continue;
      }
      link.inFlight.pushRun(bytes, from, to, requests, label, start, flags);
      writeRange(link.socket!, bytes, from, to);
    }
    this.pending += count;
    this.countSent(labels, count, true);
  }

  /** A group: `count` units, each staged whole on the master of its slot (the slot of its first key: check keeps a unit's keys in one). */
  private routeUnits(count: number, start: number): void {
    const length = this.builder.build(count);
    const buffer = this.builder.buffer;
    const labels = this.builder.labels;
    const keyArguments = this.cluster.plan.keyArguments;
    const size = this.units!.size;
    const flags = (this.load.measuring ? MEASURED : 0) | UNIT;
    const bounds = this.bounds;
    let at = 0;
    for (let i = 0, command = 0; i < count; i++) {
      const from = at;
      let slot = -1;
      for (let c = 0; c < size; c++, command++) {
        at = scanRequest(buffer, at, slot < 0 ? keyArguments[labels[command]] : -1, bounds);
        if (slot < 0 && bounds[0] >= 0) slot = slotOfBytes(buffer, bounds[0], bounds[1]);
      }
      const node = slot >= 0 ? this.cluster.route(slot, false, this.index) : this.cluster.anyMaster(this.index + i);
      this.link(node).staged.push(buffer, from, at, UNIT_LABEL, start, flags, 0);
    }
    if (at !== length) throw new Error(`cluster routing read ${at} of ${length} unit bytes`);
    this.pending += count;
    this.countSent(labels, count * size, this.builder.singleLabel);
  }

  /** Writes each node's staged requests at once: one buffer (kept by the requests for a resend), one write. */
  private flush(): void {
    for (const link of this.links) {
      if (link && link.staged.size > 0) this.sendQueued(link, link.staged);
    }
  }

  private link(node: number): NodeLink {
    let link = this.links[node];
    if (!link) {
      while (this.links.length <= node) this.links.push(undefined);
      this.links[node] = link = new NodeLink(node);
      if (this.load.config.countsReceivers) link.scanner.onInteger = this.onPublishReply;
      const newLink = link;
      // Nils: a read's miss, or (a nil EXEC) a transaction that did not run; empty arrays: a miss of HGETALL, LRANGE…
      if (this.missRules.some((rule) => rule !== MISS_NONE) || (this.units && this.builder.execAt.includes(1)))
        link.scanner.onNull = (reply) => newLink.nulls.push(reply);
      if (this.missRules.includes(MISS_NIL_OR_EMPTY)) link.scanner.onEmpty = (reply) => newLink.empties.push(reply);
      // Inside arrays: an MGET's keys not found, a queued read's miss inside EXEC's reply.
      if (this.missRules.includes(MISS_NIL_ELEMENTS) || this.units?.countsQueuedMisses)
        link.scanner.onNestedMiss = (reply, element, empty) => newLink.nested.push(reply, element, empty ? 1 : 0);
      // Two levels down: a queued MGET's keys not found, inside its element of EXEC's reply.
      if (this.units?.countsQueuedKeyMisses) link.scanner.onDeepNil = (reply, element) => newLink.nested.push(reply, element, DEEP_NIL);
      // Errors inside EXEC's reply fail the unit.
      if (this.units) link.scanner.nestedErrors = this.load.config.test.group!.transaction;
    }
    return link;
  }

  /** SPUBLISH's reply: how many subscribers of the shard channel got the message (warm-up included, as on one server). */
  private readonly onPublishReply = (receivers: number): void => this.load.stats.recordPublished(receivers);

  private openNode(node: number): Promise<RawConnection> {
    return openClusterNode(this.cluster, this.load.config.connection, node);
  }

  /** Empties `queue` onto the link: copied into one buffer and written (or held in waiting while the socket is not up). */
  private sendQueued(link: NodeLink, queue: PendingQueue): void {
    let length = 0;
    for (let k = 0; k < queue.size; k++) {
      const i = queue.at(k);
      length += queue.toOf(i) - queue.fromOf(i);
    }
    const out = Buffer.allocUnsafe(length);
    const target = link.up ? link.inFlight : link.waiting;
    let at = 0;
    for (let k = 0; k < queue.size; k++) {
      const i = queue.at(k);
      const bytes = queue.bytesOf(i);
      const from = at;
      const end = queue.toOf(i);
      // Requests are a few dozen bytes: a plain loop costs less than a native copy call each.
      if (end - queue.fromOf(i) < 64) for (let b = queue.fromOf(i); b < end; b++) out[at++] = bytes[b];
      else at += bytes.copy(out, at, queue.fromOf(i), end);
      target.push(out, from, at, queue.labelOf(i), queue.startOf(i), queue.flagsOf(i), queue.redirectsOf(i), queue.countOf(i));
    }
    queue.clear();
    if (link.up) writeRange(link.socket!, out, 0, out.length);
    else this.connect(link);
  }

  /** Sends one request (a redirected one, or ASKING/READONLY) on its own. */
  private sendOne(link: NodeLink, bytes: Buffer, from: number, to: number, label: number, start: number, flags: number, redirects: number): void {
    if (!link.up) {
      link.waiting.push(bytes, from, to, label, start, flags, redirects);
      this.connect(link);
      return;
    }
    link.inFlight.push(bytes, from, to, label, start, flags, redirects);
    writeRange(link.socket!, bytes, from, to);
  }

  private attach(link: NodeLink, connection: RawConnection): void {
    link.socket = connection.socket;
    link.up = true;
    this.linksUp++;
    if (this.reportedDown) {
      this.reportedDown = false;
      this.load.connectionUp();
    }
    link.connecting = false;
    link.reconnectAttempt = 0;
    link.scanner.reset();
    link.clearReplies();
    connection.onBytes((chunk, length) => this.onData(link, chunk, length));
    connection.socket.on('close', () => this.onClose(link, connection.socket));
    if (this.cluster.nodes[link.node].role === 'replica') this.sendOne(link, READONLY, 0, READONLY.length, 0, 0, INTERNAL, 0);
    if (link.waiting.size > 0) this.sendQueued(link, link.waiting);
  }

  /** Opens the socket of a node met in a redirection, or reopens a lost one (with backoff). */
  private connect(link: NodeLink): void {
    if (link.connecting || link.up || this.closed) return;
    link.connecting = true;
    const delay = link.reconnectAttempt === 0 ? 0 : Math.min(RECONNECT_MAX_DELAY_MS, RECONNECT_FIRST_DELAY_MS * 2 ** link.reconnectAttempt);
    link.timer = setTimeout(() => {
      link.timer = undefined;
      this.openNode(link.node).then(
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
          // A node refusing TLS (met in a redirection, or a replica promoted) never mends: the load ends.
          if (error instanceof TlsRefusedError || error instanceof NodeRefusedError) return this.load.fail(error.message);
          this.load.reconnectFailed(error.message);
          // A node that cannot be reached: what waited for it fails (the load goes on with the other
          // nodes), and the slot map is read again in case a replica took over its slots.
          const { host, port } = this.cluster.nodes[link.node];
          const lost = this.failLink(link, CONNECTION_ERROR_KIND, `${host}:${port} unreachable: ${error.message}`);
          refreshTopology(this.cluster, this.load.config.connection, link.node, (refusal) => this.load.fail(refusal));
          this.answered(lost, performance.now(), link);
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
    this.load.heard(this.index, now);
    const stats = this.load.stats;
    const node = this.cluster.nodes[link.node];
    if (this.units === undefined && link.errors.size === 0 && link.nested.length === 0) {
      const answered = this.takeReplies(link, node, replies, now);
      link.clearReplies();
      this.answered(answered, now, link);
      return;
    }
    let answered = 0;
    const queue = link.inFlight;
    // Replies to requests of one write share their label and start, so their latency too: recorded as one
    // run (one histogram update) instead of one by one.
    let runLabel = -1;
    let runStart = 0;
    let runCount = 0;
    for (let r = 0; r < replies && queue.size > 0; r++) {
      if (queue.flagsOf(queue.at(0)) & UNIT) {
        if (this.units!.reply(link, r, now)) answered++;
        continue;
      }
      const i = queue.shift();
      const flags = queue.flagsOf(i);
      if (flags & INTERNAL) continue;
      const error = link.errors.size > 0 ? link.errors.get(r) : undefined;
      if (error !== undefined && this.redirected(link, queue, i, error)) continue;
      answered++;
      if (!(flags & MEASURED)) continue;
      const label = queue.labelOf(i);
      const start = queue.startOf(i);
      if (label !== runLabel || start !== runStart) {
        if (runCount > 0) this.recordRun(node, runLabel, runStart, runCount, now);
        runLabel = label;
        runStart = start;
        runCount = 0;
      }
      runCount++;
      if (error !== undefined) {
        const kind = errorKind(error);
        stats.recordError(label, kind, error);
        node.stats.addError(kind, error, 1);
      } else if (this.missRules[label] === MISS_NIL_ELEMENTS) {
        const misses = link.nilElements(r);
        if (misses > 0) stats.recordMiss(label, misses);
      } else if (link.missed(r, this.missRules[label])) {
        stats.recordMiss(label);
      }
    }
    if (runCount > 0) this.recordRun(node, runLabel, runStart, runCount, now);
    link.clearReplies();
    this.answered(answered, now, link);
  }

  /**
   * onData's usual case, no error reply in the read and no command group: the `replies` oldest requests are
   * answered, taken in runs of one label, start and flags (one write's), each run recorded once, with its misses
   * (nils, empty collections) counted from the read's marks. Returns how many requests of the load were answered
   * (ASKING/READONLY are not).
   */
  private takeReplies(link: NodeLink, node: KnownNode, replies: number, now: number): number {
    const queue = link.inFlight;
    const taking = Math.min(replies, queue.requests);
    const marked = link.nulls.length > 0 || link.empties.length > 0;
    let left = taking;
    let answered = 0;
    while (left > 0) {
      const i = queue.take(left);
      let run = queue.countOf(i);
      left -= run;
      const flags = queue.flagsOf(i);
      if (flags & INTERNAL) continue;
      const label = queue.labelOf(i);
      const start = queue.startOf(i);
      for (let j = queue.at(0); left > 0 && queue.labelOf(j) === label && queue.startOf(j) === start && queue.flagsOf(j) === flags; j = queue.at(0)) {
        const taken = queue.countOf(queue.take(left));
        left -= taken;
        run += taken;
      }
      answered += run;
      if (!(flags & MEASURED)) continue;
      this.recordRun(node, label, start, run, now);
      if (marked) {
        // The run's replies are those just before what is left of the read.
        const misses = link.misses(taking - left - run, taking - left, this.missRules[label]);
        if (misses > 0) this.load.stats.recordMiss(label, misses);
      }
    }
    return answered;
  }

  /** `count` replies of one label whose latency counted from `start`: in the load's figures and the node's. */
  private recordRun(node: KnownNode, label: number, start: number, count: number, now: number): void {
    const micros = Math.round((now - start) * 1000);
    this.load.stats.recordReplies(label, micros, count, now);
    node.stats.recorder.record(micros, count);
    node.stats.requests += count;
  }

  /** Follows a MOVED or ASK reply to the request at position `i` of `queue` (just taken): re-sent to the node named (after ASKING for ASK). */
  private redirected(link: NodeLink, queue: PendingQueue, i: number, error: string): boolean {
    const redirect = parseRedirect(error);
    if (!redirect || queue.redirectsOf(i) >= MAX_REDIRECTS) return false;
    const target = this.cluster.redirect(link.node, redirect.kind, redirect.slot, redirect.host, redirect.port, this.load.measuring);
    // The network gate refused the node named: not followed (the reply counts as the error it is; the cluster
    // state ends the load with the refusal).
    if (typeof target === 'string') return false;
    const next = this.link(target);
    // Read before any push: the position may be reused once written to. The bytes are copied: the buffer they
    // were written from is rewritten once its own link's batch is answered, which may come before this one's reply.
    const bytes = Buffer.from(queue.bytesOf(i).subarray(queue.fromOf(i), queue.toOf(i)));
    const from = 0;
    const to = bytes.length;
    const label = queue.labelOf(i);
    const start = queue.startOf(i);
    const flags = queue.flagsOf(i);
    const redirects = queue.redirectsOf(i) + 1;
    if (redirect.kind === 'ASK') this.sendOne(next, ASKING, 0, ASKING.length, 0, 0, INTERNAL, 0);
    this.sendOne(next, bytes, from, to, label, start, flags, redirects);
    return true;
  }

  /** `count` requests of the load were answered (or lost), by `link`'s read or loss. */
  private answered(count: number, now: number, link: NodeLink): void {
    this.pending -= count;
    if (this.perNode) {
      // A redirected request leaves its link too: the link refills once nothing of it is in flight.
      if (link.inFlight.size === 0 && link.waiting.size === 0) this.refill(link, now);
      return;
    }
    if (count === 0) return;
    if (this.load.openLoop) {
      if (this.state === State.Running && !this.cycleIfSpent(now)) this.load.kick();
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
    this.linksUp--;
    if (this.closed || this.state === State.Finished) return;
    const message = `connection to ${this.cluster.nodes[link.node].host}:${this.cluster.nodes[link.node].port} lost`;
    const lost = this.failLink(link, CONNECTION_ERROR_KIND, message);
    // Every node this connection talks to is gone: down as a whole, so the load's server-lost rule applies.
    if (this.linksUp === 0 && !this.reportedDown) {
      this.reportedDown = true;
      this.load.connectionDown(message);
    }
    link.reconnectAttempt++;
    this.connect(link);
    this.answered(lost, performance.now(), link);
  }

  /** Counts what a link had sent or held as errors of `kind` (timed-out ones with their wait); returns how many. */
  private failLink(link: NodeLink, kind: string, text: string): number {
    const now = performance.now();
    const stats = this.load.stats;
    const node = this.cluster.nodes[link.node];
    let lost = 0;
    for (const queue of [link.inFlight, link.waiting]) {
      for (let k = 0; k < queue.size; k++) {
        const i = queue.at(k);
        const flags = queue.flagsOf(i);
        if (flags & INTERNAL) continue;
        const count = queue.countOf(i);
        lost += count;
        if (!(flags & MEASURED)) continue;
        const waited = kind === TIMEOUT_ERROR_KIND ? Math.round((now - queue.startOf(i)) * 1000) : undefined;
        // The head unit of inFlight may be partly answered (a unit is an entry of its own).
        if (flags & UNIT) this.units!.unanswered(queue === link.inFlight && k === 0 ? link.unitReplies : 0, kind, text, waited);
        else stats.recordUnanswered(queue.labelOf(i), count, kind, text, waited);
        if (waited !== undefined) node.stats.recorder.record(waited, count);
        node.stats.unanswered += count;
        node.stats.requests += count;
        node.stats.addError(kind, text, count);
      }
      queue.clear();
    }
    this.units?.reset(link);
    return lost;
  }
}

/** The fast cluster path (clientPaths.ts). */
export const openClientPath: ClientPathModule['openClientPath'] = (config) =>
  clusterPathConnections(config, (index, load, cluster) => new FastClusterConnection(index, load, cluster));
