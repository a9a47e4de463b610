// Reply accounting for command groups: a request is a unit of several commands sent back to back. Each
// command's reply goes to its own row; the unit is recorded once, when its last reply arrives, as an error
// unit when any of its replies was an error (EXECABORT, an error inside EXEC's reply) or EXEC answered nil.
// Entries are positions of commands in the connection's batch (closed loop) or ring (open loop).
import type { WorkerStats } from './stats';

/** The label index of a group's unit row; its commands' labels follow (loadPlan.ts testLabels). */
export const UNIT_LABEL = 0;
/** Error kind of a transaction EXEC answered with nil (a WATCHed key changed: nothing ran). */
export const NIL_EXEC_KIND = 'EXEC-NIL';
export const NIL_EXEC_TEXT = 'EXEC answered nil: a WATCHed key changed, so the transaction did not run';

/**
 * The labels of a transaction's queued commands (between MULTI and EXEC), in order: EXEC's reply holds their replies
 * as its elements, read for their misses. Empty for a group that is no transaction.
 */
export function queuedLabels(commands: readonly { command: { name: string } }[], labelIndexes: readonly number[]): number[] {
  const { multi, exec } = transactionBounds(commands);
  return multi < 0 || exec < 0 ? [] : labelIndexes.slice(multi + 1, exec);
}

/** Positions in a unit of its MULTI and of the EXEC that closes it (-1 when absent). */
export function transactionBounds(commands: readonly { command: { name: string } }[]): { multi: number; exec: number } {
  const multi = commands.findIndex((c) => c.command.name === 'MULTI');
  return { multi, exec: multi < 0 ? -1 : commands.findIndex((c, i) => i > multi && c.command.name === 'EXEC') };
}

/** EXEC's error says the transaction did not run at all: EXEC answered nil (WATCH) or EXECABORT (a command refused when queued). */
export function transactionDiscarded(kind: string | undefined): boolean {
  return kind === NIL_EXEC_KIND || kind === 'EXECABORT';
}

/**
 * A transaction's queued reads (rows that count misses), by position in the unit: when EXEC says the transaction was
 * discarded, each that answered QUEUED asked for nothing (WorkerStats.recordNotRun), neither a hit nor a miss.
 */
export interface QueuedReads {
  exec: number;
  reads: { position: number; label: number }[];
}

export function queuedReadsOf(
  commands: readonly { command: { name: string } }[],
  labelIndexes: readonly number[],
  missRules: ArrayLike<number>,
): QueuedReads | undefined {
  const { multi, exec } = transactionBounds(commands);
  if (multi < 0 || exec < 0) return undefined;
  const reads: QueuedReads['reads'] = [];
  for (let position = multi + 1; position < exec; position++) {
    const label = labelIndexes[position];
    if ((missRules[label] ?? 0) !== 0) reads.push({ position, label });
  }
  return reads.length > 0 ? { exec, reads } : undefined;
}

/** A unit's EXEC answered an error of kind `execKind`: if it discarded the transaction, each queued read not `failed` itself did not run. */
export function countNotRun(
  stats: Pick<WorkerStats, 'recordNotRun'>,
  { reads }: QueuedReads,
  execKind: string | undefined,
  failed: (position: number) => boolean,
): void {
  if (!transactionDiscarded(execKind)) return;
  for (const { position, label } of reads) if (!failed(position)) stats.recordNotRun(label);
}

export class UnitTally {
  private readonly kinds: (string | undefined)[];
  private readonly texts: (string | undefined)[];

  constructor(
    /** Commands per unit. */
    readonly size: number,
    /** Entries the batch or ring holds. */
    private readonly capacity: number,
    private readonly stats: WorkerStats,
    /** A transaction with reads: those not run when it is discarded. */
    private readonly queuedReads?: QueuedReads,
  ) {
    this.kinds = new Array<string | undefined>(capacity).fill(undefined);
    this.texts = new Array<string | undefined>(capacity).fill(undefined);
  }

  /** An error reply to the command at `entry` (label `label`): counted on its row, remembered for its unit. */
  error(entry: number, label: number, kind: string, text: string): void {
    this.stats.recordCommandError(label, kind, text);
    if (this.kinds[entry] === undefined) {
      this.kinds[entry] = kind;
      this.texts[entry] = text;
    }
  }

  /** The unit whose commands sit at entries first … first+size-1 (wrapping) got its last reply after `micros`. */
  unitDone(first: number, micros: number, now: number, measured: boolean): void {
    let kind: string | undefined;
    let text: string | undefined;
    const queuedReads = this.queuedReads;
    if (measured && queuedReads)
      countNotRun(
        this.stats,
        queuedReads,
        this.kinds[(first + queuedReads.exec) % this.capacity],
        (position) => this.kinds[(first + position) % this.capacity] !== undefined,
      );
    for (let i = 0, at = first; i < this.size; i++, at = at + 1 === this.capacity ? 0 : at + 1) {
      if (kind === undefined && this.kinds[at] !== undefined) {
        kind = this.kinds[at];
        text = this.texts[at];
      }
      this.kinds[at] = this.texts[at] = undefined;
    }
    if (!measured) return;
    this.stats.recordReplies(UNIT_LABEL, micros, 1, now);
    if (kind !== undefined) this.stats.recordError(UNIT_LABEL, kind, text!);
  }

  /** Forget what was remembered (the batch or ring was dropped). */
  clear(): void {
    this.kinds.fill(undefined);
    this.texts.fill(undefined);
  }
}
