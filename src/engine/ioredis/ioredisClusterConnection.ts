// The ioredis path against a Redis Cluster: ioredis's own `Cluster` client, as an application would use it.
// ioredis routes each request and follows MOVED/ASK itself; requests are sent one by one (a batch of
// `pipeline` back to back), since an ioredis cluster pipeline must stay on one node.
// A command group's unit is one cluster pipeline, sent whole to its slot's master.
// Each reply is counted for the node that serves its slot in ioredis's slot map.
import { Cluster, type ClusterOptions, type Redis } from 'ioredis';
import { address } from '../../redis/errors';
import { guardReplies, installReplyGate, LOAD_REPLY_LIMITS } from '../../redis/replyGuard';
import { performance } from 'node:perf_hooks';
import { NodeRefusedError } from '../../gates/network';
import { BudgetedConnection, requestSource, State } from '../connectionBase';
import { countMisses, countPublished, IoredisRequests, kindOf, unitReplyError } from './ioredisConnection';
import { errorKind } from '../../protocol/respScanner';
import { CONNECTION_ERROR_KIND, TIMEOUT_ERROR_KIND } from '../measure/stats';
import { countNotRun, UNIT_LABEL } from '../measure/unitTally';
import { OPEN_LOOP_MAX_IN_FLIGHT, type ClientPathModule, type ConnectionHost } from '../connection';
import { parseRedirect, type ClusterState } from '../cluster/clusterState';
import { clusterRetryStrategy, connectCluster, linkNodes } from './ioredisClusterOpen';
import { gatedConnector, keepHostNames } from './ioredisGate';
import { nodeTls } from '../cluster/nodeTls';
import { slotOf, slotOfBytes } from '../cluster/slot';
import { clusterPathConnections } from '../cluster/clusterPathConnections';
import { LoadError } from '../errors';

type ErrorHandler = (error: Error, ttl: unknown, handlers: unknown) => unknown;

/** A request in flight; a group's unit also has its commands' labels and how many of them were answered. */
interface InFlight {
  start: number;
  label: number;
  slot: number;
  read: boolean;
  unit?: { labels: number[]; answered: number };
  /** The node a unit was sent to. */
  node?: number;
}

export class IoredisClusterConnection extends BudgetedConnection {
  private client: Cluster | undefined;
  private readonly requests: IoredisRequests;
  private inFlight = 0;
  /** Start of each request in flight with its label, for the wait of timed-out ones. */
  private readonly starts = new Set<InFlight>();
  /** ioredis lost every node: told to the load (its server-lost rule), and nothing is sent until it is back. */
  private reportedDown = false;
  /** Units sent without a key: spread over the masters. */
  private unitsSent = 0;
  /** Per label: which replies are misses (scenario/replyMisses.ts). */
  private readonly missRules: readonly number[];
  /** The Cluster client's last error: what a lost cluster is reported with. */
  private lastError: Error | undefined;

  constructor(
    index: number,
    load: ConnectionHost,
    private readonly cluster: ClusterState,
  ) {
    super(index, load);
    const { keys, context } = requestSource(load.config, index);
    this.requests = new IoredisRequests(load.config.test, load.config.value, keys, context, load.config.missRules);
    this.missRules = load.config.missRules ?? [];
  }

  override async open(): Promise<void> {
    if (this.cluster.refused) throw new NodeRefusedError(this.cluster.refused);
    this.client = await this.connectClient();
    this.state = State.Running;
  }

  /**
   * `reconnect every N`: the planned close of this client's Cluster client (nothing in flight: not a loss) and a new
   * one, as an application connecting per job makes it: ioredis reads the slot map again on a connection of its own
   * (CLUSTER SLOTS: part of the set-up, as the handshake is), then a link to every master, as `open` made them.
   */
  protected override async reopen(): Promise<void> {
    const old = this.client;
    this.client = undefined;
    if (old) {
      old.off('close', this.onClose);
      old.off('ready', this.onReady);
      old.disconnect();
    }
    this.client = await this.connectClient();
  }

  private readonly onClose = () => this.down(this.lastError);
  private readonly onReady = () => this.backUp();

  /** A Cluster client, ready (with `reconnect every`, linked to every node the load sends to: every master, every replica for replica reads); or a LoadError. */
  private async connectClient(): Promise<Cluster> {
    const options = this.load.config.connection;
    const spread = this.index;
    let refusedAtOpen: string | undefined;
    // The network gate: ioredis opens no socket to a node it does not approve (ioredisGate.ts); a refusal ends the load.
    const refused = (message: string) => {
      if (this.state === State.Running) queueMicrotask(() => this.load.fail(message));
      else refusedAtOpen ??= message;
    };
    const clusterOptions: ClusterOptions = {
      // A node met later (not in the topology read before the load) gets no `tls servername`: that names the seed.
      redisOptions: {
        username: options.username,
        password: options.password,
        tls: options.tls && { ...options.tls, servername: undefined },
        connectTimeout: options.connectTimeoutMs,
        Connector: gatedConnector(this.cluster.approved, refused),
      },
      // Start nodes keep the names the target gives (ioredis would put the addresses they resolve to in their place).
      dnsLookup: keepHostNames,
      // Replica reads: always the same replica of a slot for this connection, so each reply's node is known.
      scaleReads: this.cluster.plan.replicaReads ? (nodes: unknown[]) => (nodes.length > 1 ? nodes[1 + (spread % (nodes.length - 1))] : nodes[0]) : 'master',
      // Off, as ioredis has it by default: its auto-pipelines go to the slot's master whatever scaleReads
      // says, and fail while slots move ("All keys in the pipeline should belong to the same slots allocation group").
      enableAutoPipelining: false,
      lazyConnect: true,
      maxRedirections: 16,
      retryDelayOnMoved: 0,
      clusterRetryStrategy,
    };
    // With TLS, every known node is a start node with its own TLS settings, which ioredis keeps for that
    // address (SNI per node: the seed's `tls servername` is not sent to the others).
    const seed = { host: options.host, port: options.port, ...(options.tls ? { tls: options.tls } : {}) };
    const others = options.tls ? this.cluster.nodes.filter((n) => n.host !== options.host || n.port !== options.port) : [];
    const startNodes = [seed, ...others.map((n) => ({ host: n.host, port: n.port, tls: nodeTls(options, n) }))];
    // Before the Cluster's own clients (its slot refresh) connect: they pass the gate with a control connection's limits.
    installReplyGate();
    const client = new Cluster(startNodes, clusterOptions);
    this.lastError = undefined;
    client.on('error', (error: Error) => (this.lastError = error));
    this.countRedirections(client);
    // A node ioredis learned of (its own CLUSTER SLOTS) that the gate refuses: refused before any command goes there.
    client.on('+node', (node: Redis) => {
      const host = node.options.host ?? 'localhost';
      const port = node.options.port ?? 6379;
      const refusal = this.cluster.approved.check(host, port, 'the cluster client learned of');
      if (refusal) refused(refusal);
      // The reply gate on each node's connection: a reply past its limits closes it (counted as lost), and ioredis reconnects.
      guardReplies(node, LOAD_REPLY_LIMITS, { where: address({ host, port }), reconnect: true });
    });
    try {
      await connectCluster(client, options, this.cluster, (refusal) => this.load.fail(refusal));
      // ioredis links a node when a command first goes there. With `reconnect every`, linked now: each client
      // connection is then the same links whatever its N requests' keys reach, and a cycle's set-up time holds them all.
      if (this.load.config.reconnectEvery !== undefined) await linkNodes(client, this.cluster.plan.replicaReads ? 'all' : 'master');
    } catch (error) {
      if (refusedAtOpen) throw new NodeRefusedError(refusedAtOpen);
      client.disconnect();
      throw error instanceof LoadError ? error : new LoadError(error instanceof Error ? error.message : String(error));
    }
    if (refusedAtOpen) {
      client.disconnect();
      throw new NodeRefusedError(refusedAtOpen);
    }
    // 'close': every node's connection is gone (ioredis retries, then gives up); 'ready': back.
    client.on('close', this.onClose);
    client.on('ready', this.onReady);
    return client;
  }

  private down(error: Error | undefined): void {
    if (this.reportedDown || this.state !== State.Running || this.load.stopping) return;
    this.reportedDown = true;
    this.load.connectionDown(`connection to the cluster lost${error ? `: ${error.message}` : ''}`);
  }

  private backUp(): void {
    if (!this.reportedDown || this.state === State.Finished) return;
    this.reportedDown = false;
    this.load.connectionUp();
    if (!this.load.openLoop && this.inFlight === 0 && this.state === State.Running) this.sendNextBatch();
  }

  /** ioredis follows MOVED and ASK inside its error handler: count them there (per node and per bucket). */
  private countRedirections(client: Cluster): void {
    const target = client as unknown as { handleError?: ErrorHandler };
    const original = target.handleError;
    if (typeof original !== 'function') return;
    target.handleError = (error, ttl, handlers) => {
      const redirect = parseRedirect(error.message);
      if (redirect) {
        // ioredis does not say which node answered: the slot's owner before the move is the one that did.
        const from = this.nodeOf(redirect.slot, false);
        const target = this.cluster.redirect(from, redirect.kind, redirect.slot, redirect.host, redirect.port, this.load.measuring);
        if (typeof target === 'string') {
          // The network gate refused the node named: not followed (the command fails with the refusal; the cluster state ends the load).
          return (handlers as { maxRedirections(error: Error): unknown }).maxRedirections(new NodeRefusedError(target));
        }
      }
      return original.call(client, error, ttl, handlers);
    };
  }

  protected override restartSequences(): void {
    this.requests.restart();
  }

  protected override claimed(first: number): void {
    this.requests.claimed(first);
  }

  override canSend(): boolean {
    return this.state === State.Running && !this.reportedDown && !this.connectionSpent() && this.inFlight < OPEN_LOOP_MAX_IN_FLIGHT;
  }

  override sendScheduled(intended: number): number {
    const count = this.takeBudget();
    if (count === 0) this.finishIfDone();
    else this.sendBatch(count, intended, false);
    return count;
  }

  override abandon(kind?: string, text?: string): void {
    if (kind !== undefined && this.load.measuring) {
      const now = performance.now();
      for (const entry of this.starts) {
        const { start, label, slot, read, unit } = entry;
        const waited = kind === TIMEOUT_ERROR_KIND ? Math.round((now - start) * 1000) : undefined;
        this.load.stats.recordUnanswered(label, 1, kind, text ?? kind, waited);
        for (let c = unit?.answered ?? 0; c < (unit?.labels.length ?? 0); c++)
          this.load.stats.recordCommandUnanswered(unit!.labels[c], kind, text ?? kind, waited);
        // The node's share too, so node totals still add up to the load's.
        const node = this.cluster.nodes[entry.node ?? (slot < 0 ? this.cluster.anyMaster(this.index) : this.nodeOf(slot, read))].stats;
        if (waited !== undefined) node.recorder.record(waited, 1);
        node.requests++;
        node.unanswered++;
        node.addError(kind, text ?? kind, 1);
      }
    }
    this.starts.clear();
    this.inFlight = 0;
    this.finish();
  }

  protected override sendNextBatch(): void {
    const now = performance.now();
    // While every node is lost, requests would fail at once: none is sent (no spinning on errors).
    if (this.reportedDown && !this.load.stopping && now < this.load.deadline) return;
    if (!this.mayBuildBatch(now) || this.cycleIfSpent(now)) return;
    const count = this.takeBudget();
    if (count === 0) this.finishIfDone();
    else this.sendBatch(count, now, true);
  }

  /** The node serving `slot` in ioredis's slot map (the replica this connection reads from, for replica reads). */
  private nodeOf(slot: number, read: boolean): number {
    const owners = this.client?.slots[slot];
    if (!owners || owners.length === 0) return this.cluster.owner[slot];
    const pick = read && this.cluster.plan.replicaReads && owners.length > 1 ? owners[1 + (this.index % (owners.length - 1))] : owners[0];
    const colon = pick.lastIndexOf(':');
    return this.cluster.node(pick.slice(0, colon), Number(pick.slice(colon + 1)), pick === owners[0] ? 'master' : 'replica');
  }

  private sendBatch(count: number, start: number, closedLoop: boolean): void {
    const client = this.client!;
    const measured = this.load.measuring;
    const plan = this.cluster.plan;
    this.inFlight += count;
    if (this.requests.grouped) {
      for (let i = 0; i < count; i++) this.sendUnit(start, measured, () => this.requestDone(closedLoop));
      return;
    }
    for (let i = 0; i < count; i++) {
      const { command, args } = this.requests.next();
      const label = command.labelIndex;
      this.load.sent[label]++;
      const keyAt = plan.keyArguments[label] - 1;
      const key = keyAt >= 0 ? args[keyAt] : undefined;
      const slot = key === undefined ? -1 : typeof key === 'string' ? slotOf(key) : slotOfBytes(key, 0, key.length);
      const entry = { start, label, slot, read: plan.readOnly[label] };
      this.starts.add(entry);
      // Lower case: ioredis looks the name up in its command table (case-sensitive) to see that it only reads.
      client.call(command.name.toLowerCase(), args, (error, reply) => {
        if (!this.starts.delete(entry)) return; // abandoned
        const now = performance.now();
        // SPUBLISH: its slot's master holds every subscriber of the shard channel, so the reply counts them all.
        countPublished(this.load, reply);
        if (measured)
          this.record(label, slot < 0 ? this.cluster.anyMaster(this.index) : this.nodeOf(slot, plan.readOnly[label]), error ?? null, now - start, now, reply);
        this.requestDone(closedLoop);
      });
    }
  }

  private requestDone(closedLoop: boolean): void {
    this.inFlight--;
    this.load.heard(this.index, performance.now());
    if (closedLoop) {
      if (this.inFlight === 0 && this.state === State.Running) this.sendNextBatch();
      else this.finishIfDone();
    } else {
      if (this.state === State.Running && !this.cycleIfSpent(performance.now())) this.load.kick();
      this.finishIfDone();
    }
  }

  /**
   * A group's unit as an ioredis cluster pipeline: ioredis sends it whole to the node of its slot (and
   * follows a MOVED itself when it safely can: every command redirected, none a write that ran). Each
   * command's latency ends at its own reply; the unit at its last. A redirection ioredis did not follow
   * (inside MULTI: EXECABORT) fails the unit, is counted once, and reloads ioredis's slot map.
   */
  private sendUnit(start: number, measured: boolean, done: () => void): void {
    const unit = this.requests.nextUnit();
    const keyAt = unit.map(({ command }) => this.cluster.plan.keyArguments[command.labelIndex] - 1);
    const keyed = unit.findIndex((_, c) => keyAt[c] >= 0);
    const key = keyed >= 0 ? unit[keyed].args[keyAt[keyed]] : undefined;
    const slot = key === undefined ? -1 : typeof key === 'string' ? slotOf(key) : slotOfBytes(key, 0, key.length);
    // The slot's master (a master of our choice for a unit without keys): the whole unit goes there, reads
    // too (ioredis would send a pipeline's reads to a replica with replica reads on, splitting a transaction).
    const node = slot < 0 ? this.cluster.anyMaster(this.index + this.unitsSent++) : this.nodeOf(slot, false);
    const entry: InFlight = { start, label: UNIT_LABEL, slot, read: false, unit: { labels: unit.map(({ command }) => command.labelIndex), answered: 0 }, node };
    this.starts.add(entry);
    const replyAt = new Float64Array(unit.length);
    const pipeline = this.client!.pipeline();
    // ioredis's own field for the node a cluster pipeline goes to (it sets it itself after a MOVED).
    (pipeline as unknown as { preferKey?: string }).preferKey = `${this.cluster.nodes[node].host}:${this.cluster.nodes[node].port}`;
    unit.forEach(({ command, args }, c) => {
      this.load.sent[command.labelIndex]++;
      pipeline.call(command.name.toLowerCase(), args, (error) => {
        entry.unit!.answered++;
        // A redirection ioredis may follow: the command's latency then ends with the unit's.
        if (!(error && parseRedirect(error.message))) replyAt[c] = performance.now();
      });
    });
    void pipeline.exec((error, results) => {
      if (!this.starts.delete(entry)) return; // abandoned
      const now = performance.now();
      if (measured)
        this.recordUnit(
          unit.map(({ command }) => command.name),
          entry,
          replyAt,
          results ?? [],
          error ?? undefined,
          now,
        );
      done();
    });
  }

  private recordUnit(
    names: string[],
    entry: InFlight,
    replyAt: Float64Array,
    results: [Error | null, unknown][],
    failed: Error | undefined,
    now: number,
  ): void {
    const stats = this.load.stats;
    const node = this.cluster.nodes[entry.node!].stats;
    const labels = entry.unit!.labels;
    const lost = failed && failed.name !== 'ReplyError' ? `connection lost: ${failed.message}` : undefined;
    node.requests++;
    if (lost) {
      labels.forEach((label) => stats.recordCommandUnanswered(label, CONNECTION_ERROR_KIND, lost));
      stats.recordUnanswered(UNIT_LABEL, 1, CONNECTION_ERROR_KIND, lost);
      node.unanswered++;
      node.addError(CONNECTION_ERROR_KIND, lost, 1);
      return;
    }
    let unitError: Error | undefined;
    let redirected = false;
    names.forEach((name, c) => {
      const [error, reply] = results[c] ?? [failed ?? null, undefined];
      const replyError = error ?? unitReplyError(name, reply);
      const redirect = error ? parseRedirect(error.message) : undefined;
      if (redirect && !redirected) {
        redirected = true;
        const from = this.nodeOf(redirect.slot, false);
        // A node the network gate refuses: the cluster state ends the load; nothing to refresh.
        const target = this.cluster.redirect(from, redirect.kind, redirect.slot, redirect.host, redirect.port, true);
        if (typeof target !== 'string' && redirect.kind === 'MOVED') void this.client?.refreshSlotsCache();
      }
      const at = replyAt[c] > 0 ? replyAt[c] : now;
      stats.recordCommandReply(labels[c], Math.round((at - entry.start) * 1000));
      if (replyError) stats.recordCommandError(labels[c], kindOf(replyError), replyError.message);
      else countMisses(stats, this.missRules, labels[c], reply, name === 'EXEC' ? this.requests.queued : undefined);
      unitError ??= replyError ?? undefined;
    });
    const queuedReads = this.requests.queuedReads;
    if (queuedReads) {
      const failedAt = (position: number): Error | undefined => {
        const [error, reply] = results[position] ?? [failed ?? null, undefined];
        return error ?? unitReplyError(names[position], reply);
      };
      const execError = failedAt(queuedReads.exec);
      if (execError) countNotRun(stats, queuedReads, kindOf(execError), (position) => failedAt(position) !== undefined);
    }
    const micros = Math.round((now - entry.start) * 1000);
    stats.recordReplies(UNIT_LABEL, micros, 1, now);
    node.recorder.record(micros, 1);
    if (unitError) {
      stats.recordError(UNIT_LABEL, kindOf(unitError), unitError.message);
      node.addError(kindOf(unitError), unitError.message, 1);
    }
  }

  private record(label: number, node: number, error: Error | null, elapsedMs: number, now: number, reply: unknown): void {
    const stats = this.load.stats;
    const nodeStats = this.cluster.nodes[node].stats;
    nodeStats.requests++;
    if (error && error.name !== 'ReplyError') {
      const text = `connection lost: ${error.message}`;
      stats.recordUnanswered(label, 1, CONNECTION_ERROR_KIND, text);
      nodeStats.unanswered++;
      nodeStats.addError(CONNECTION_ERROR_KIND, text, 1);
      return;
    }
    const micros = Math.round(elapsedMs * 1000);
    stats.recordReplies(label, micros, 1, now);
    nodeStats.recorder.record(micros, 1);
    if (error) {
      stats.recordError(label, errorKind(error.message), error.message);
      nodeStats.addError(errorKind(error.message), error.message, 1);
    } else {
      countMisses(stats, this.missRules, label, reply);
    }
  }

  protected override requestsInFlight(): number {
    return this.inFlight;
  }

  protected override close(): void {
    this.client?.disconnect();
  }
}

/** The ioredis cluster path (clientPaths.ts). */
export const openClientPath: ClientPathModule['openClientPath'] = (config) =>
  clusterPathConnections(config, (index, load, cluster) => new IoredisClusterConnection(index, load, cluster));
