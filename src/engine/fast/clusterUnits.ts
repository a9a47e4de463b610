// Command groups on the cluster fast path: a unit (a group's commands, or a MULTI … EXEC) is one entry of a
// node link's queue, sent whole to the master of its slot. Its replies arrive in order on that link: each
// goes to its command's row, and the unit is recorded once, at its last reply, for the load and for the node.
// A MOVED or ASK inside a unit is not followed (part of it may have run, and inside MULTI the EXEC answers
// EXECABORT): the unit is an error, the redirection is counted once, and a MOVED re-routes the slot.
import { errorKind } from '../../protocol/respScanner';
import { countNotRun, NIL_EXEC_KIND, NIL_EXEC_TEXT, queuedLabels, queuedReadsOf, UNIT_LABEL, type QueuedReads } from '../measure/unitTally';
import type { ConnectionHost } from '../connection';
import { parseRedirect, type ClusterState } from '../cluster/clusterState';
import { MEASURED, type NodeLink } from './nodeLink';
import { MISS_NIL_ELEMENTS } from '../../scenario/missRules';

/** Entry flag: the entry is a unit of `size` commands (expects that many replies). */
export const UNIT = 4;

export class ClusterUnits {
  /** A transaction: the labels of its queued commands, whose replies are EXEC's elements. */
  private readonly queued: number[];
  /** Some queued command is a read: EXEC's elements are read for misses. */
  readonly countsQueuedMisses: boolean;
  /** Some queued command is a per-key read (MGET): the nils inside its element of EXEC's reply are read too. */
  readonly countsQueuedKeyMisses: boolean;
  /** A transaction with reads: those that do not run when EXEC discards it. */
  private readonly queuedReads: QueuedReads | undefined;

  constructor(
    /** Commands per unit. */
    readonly size: number,
    /** Label of each command of a unit, in order. */
    private readonly labels: readonly number[],
    /** 1 where the command is EXEC (a nil reply there: the transaction did not run). */
    private readonly execAt: Uint8Array,
    /** Per label: which replies are misses (scenario/replyMisses.ts). */
    private readonly missRules: Uint8Array,
    private readonly load: ConnectionHost,
    private readonly cluster: ClusterState,
    transaction: readonly { command: { name: string } }[] | undefined,
  ) {
    this.queued = transaction ? queuedLabels(transaction, labels) : [];
    this.countsQueuedMisses = this.queued.some((label) => missRules[label] !== 0);
    this.countsQueuedKeyMisses = this.queued.some((label) => missRules[label] === MISS_NIL_ELEMENTS);
    this.queuedReads = transaction ? queuedReadsOf(transaction, labels, missRules) : undefined;
  }

  /** Reply `reply` of the current scan, to the unit at the head of `link`'s in-flight queue; true when it completes the unit. */
  reply(link: NodeLink, reply: number, now: number): boolean {
    const queue = link.inFlight;
    const i = queue.at(0);
    const position = link.unitReplies;
    const measured = (queue.flagsOf(i) & MEASURED) !== 0;
    const micros = Math.round((now - queue.startOf(i)) * 1000);
    const label = this.labels[position];
    let text = link.errors.size > 0 ? link.errors.get(reply) : undefined;
    let kind: string | undefined;
    if (text === undefined && this.execAt[position] === 1 && link.nulls.has(reply)) {
      kind = NIL_EXEC_KIND;
      text = NIL_EXEC_TEXT;
    }
    if (text !== undefined) {
      const redirect = parseRedirect(text);
      kind ??= redirect ? redirect.kind : errorKind(text);
      if (redirect && !link.unitRedirected) {
        link.unitRedirected = true;
        // A node the network gate refuses: the slot is not re-routed there, and the cluster state ends the load with the refusal.
        this.cluster.redirect(link.node, redirect.kind, redirect.slot, redirect.host, redirect.port, measured);
      }
      if (measured) this.load.stats.recordCommandError(label, kind, text);
      if (measured && this.queuedReads?.exec === position)
        countNotRun(this.load.stats, this.queuedReads, kind, (at) => link.unitFailedAt?.includes(at) === true);
      else if (this.queuedReads) (link.unitFailedAt ??= []).push(position);
      if (link.unitErrorKind === undefined) {
        link.unitErrorKind = kind;
        link.unitErrorText = text;
      }
    }
    if (measured) {
      this.load.stats.recordCommandReply(label, micros);
      if (text === undefined && this.execAt[position] === 1) link.queuedMisses(reply, this.queued, this.missRules, this.recordMiss);
      else if (text === undefined && link.missed(reply, this.missRules[label])) this.load.stats.recordMiss(label);
    }
    if (++link.unitReplies < this.size) return false;
    queue.shift();
    if (measured) {
      const node = this.cluster.nodes[link.node].stats;
      this.load.stats.recordReplies(UNIT_LABEL, micros, 1, now);
      node.recorder.record(micros, 1);
      node.requests++;
      if (link.unitErrorKind !== undefined) {
        this.load.stats.recordError(UNIT_LABEL, link.unitErrorKind, link.unitErrorText!);
        node.addError(link.unitErrorKind, link.unitErrorText!, 1);
      }
    }
    this.reset(link);
    return true;
  }

  private readonly recordMiss = (label: number): void => this.load.stats.recordMiss(label);

  /** A unit that will get no (more) reply: its unanswered commands (the first `answered` were answered), and the unit once. */
  unanswered(answered: number, kind: string, text: string, waited: number | undefined): void {
    for (let position = answered; position < this.size; position++) this.load.stats.recordCommandUnanswered(this.labels[position], kind, text, waited);
    this.load.stats.recordUnanswered(UNIT_LABEL, 1, kind, text, waited);
  }

  /** The link's unit in progress is over (answered, or its socket lost). */
  reset(link: NodeLink): void {
    link.unitReplies = 0;
    link.unitRedirected = false;
    link.unitErrorKind = link.unitErrorText = undefined;
    link.unitFailedAt = undefined;
  }
}
