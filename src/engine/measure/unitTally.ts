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
  const multi = commands.findIndex((c) => c.command.name === 'MULTI');
  const exec = commands.findIndex((c, i) => i > multi && c.command.name === 'EXEC');
  return multi < 0 || exec < 0 ? [] : labelIndexes.slice(multi + 1, exec);
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
