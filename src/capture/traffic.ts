// Tallies of a MONITOR sample, kept bounded: counts per command and per line shape, how often each key
// number was hit (at most MAX_IDS distinct numbers), value and key sizes (uniform reservoirs), commands per
// second, who sent them (at most MAX_SOURCES clients) and how many each sent back to back (pipelining).
// Nothing of a key or value is kept but its shape, its number and its size.
import { argumentShapes, shapeKey, type ArgShape } from './argumentShape';
import { unreproducible, type UnreproducibleKind } from './commandKinds';
import type { MonitorLine } from './monitorLine';
import { Reservoir } from './reservoir';

export const MAX_IDS = 200_000;
export const MAX_SHAPES = 500;
const MAX_SOURCES = 10_000;
const MAX_SHAPE_SOURCES = 1_000;
const RESERVOIR = 20_000;
/**
 * With one client alone, its commands closer than this (µs, the server's clock) count as one pipelined batch.
 * With several, the lines do not need the clock (countBatch): a preempted server left 73 µs inside one read.
 */
const BATCH_GAP_US = 10;

export interface ShapeTally {
  command: string;
  shapes: ArgShape[];
  count: number;
  /** Per argument position: the sum of the numbers seen there (their mean is written). */
  numberSums: number[];
  /** The clients that sent this shape (at most MAX_SHAPE_SOURCES): a consumer group's `clients`. */
  sources: Set<string>;
}

export class TrafficTally {
  readonly commands = new Map<string, number>();
  readonly shapes = new Map<string, ShapeTally>();
  /** Lines of shapes past MAX_SHAPES, by command: merged into the command's commonest shape. */
  readonly unshaped = new Map<string, number>();
  readonly unreproducible = new Map<UnreproducibleKind, Map<string, number>>();
  /** Blocking commands by shape (counted in `unreproducible` too): a consumer group replays them when their pushes were seen. */
  readonly blocking = new Map<string, ShapeTally>();
  readonly ids = new Map<string, number>();
  /** The same hits by the key pattern of the command's first key (`stats:__key__`): each pattern's own key space (MAX_IDS in all). */
  readonly idsByPattern = new Map<string, Map<string, number>>();
  private idsHeld = 0;
  /** Key numbers hit after MAX_IDS distinct ones were held: counted, not told apart. */
  idOverflow = 0;
  readonly valueSizes = new Reservoir(RESERVOIR);
  readonly keySizes = new Reservoir(RESERVOIR);
  readonly idLengths = new Reservoir(RESERVOIR);
  readonly perSecond = new Map<number, number>();
  readonly sources = new Map<string, { lastUs: number; batch: number }>();
  batches = 0;
  batchedCommands = 0;
  /** Sizes of the runs of consecutive lines from one client: each one read of its, when other clients are active. */
  readonly readSizes = new Reservoir(RESERVOIR);
  private lastSource?: string;
  private run = 0;
  lines = 0;
  firstTime?: number;
  lastTime?: number;
  truncatedLines = 0;

  constructor(
    private readonly keepNames: boolean,
    /** Clients whose commands are the capture's own (its control connection). */
    private readonly ignoreSources: ReadonlySet<string> = new Set(),
  ) {}

  add(line: MonitorLine): void {
    if (this.ignoreSources.has(line.source)) {
      // The server served the capture's own command in between: a client's lines after it are a new read.
      this.endRun();
      return;
    }
    const command = line.args[0].text.toUpperCase().slice(0, 64);
    this.lines++;
    if (line.truncated) this.truncatedLines++;
    this.firstTime ??= line.time;
    this.lastTime = line.time;
    const second = Math.floor(line.time);
    this.perSecond.set(second, (this.perSecond.get(second) ?? 0) + 1);
    if (this.commands.has(command) || this.commands.size < MAX_SHAPES) this.commands.set(command, (this.commands.get(command) ?? 0) + 1);
    this.countBatch(line);
    // Commands a script runs arrive from `lua`: the script is what a client sent.
    const shapes = line.source === 'lua' ? undefined : argumentShapes(command, line.args.slice(1), this.keepNames);
    const why =
      line.source === 'lua'
        ? 'script'
        : unreproducible(
            command,
            (shapes ?? []).some((shape) => shape.kind === 'key'),
          );
    if (why !== undefined || !shapes) {
      const kind = why ?? 'unknown';
      const byName = this.unreproducible.get(kind) ?? new Map<string, number>();
      this.unreproducible.set(kind, byName);
      if (byName.has(command) || byName.size < 50) byName.set(command, (byName.get(command) ?? 0) + 1);
      if (why === 'blocking' && shapes) this.tallyShape(this.blocking, command, shapes, line);
      return;
    }
    this.record(command, shapes, line);
  }

  /** The shape's tally in `into`, counted once more; undefined past MAX_SHAPES shapes. */
  private tallyShape(into: Map<string, ShapeTally>, command: string, shapes: ArgShape[], line: MonitorLine): ShapeTally | undefined {
    const key = shapeKey(command, shapes);
    let tally = into.get(key);
    if (!tally) {
      if (into.size >= MAX_SHAPES) return undefined;
      tally = { command, shapes, count: 0, numberSums: shapes.map(() => 0), sources: new Set() };
      into.set(key, tally);
    }
    tally.count++;
    if (tally.sources.size < MAX_SHAPE_SOURCES) tally.sources.add(line.source);
    shapes.forEach((shape, index) => {
      if (shape.kind === 'number') tally.numberSums[index] += shape.value;
    });
    return tally;
  }

  private record(command: string, shapes: ArgShape[], line: MonitorLine): void {
    const tally = this.tallyShape(this.shapes, command, shapes, line);
    if (!tally) {
      this.unshaped.set(command, (this.unshaped.get(command) ?? 0) + 1);
      return;
    }
    let firstKey = true;
    shapes.forEach((shape, index) => {
      if (shape.kind === 'value') this.valueSizes.add(shape.size);
      else if (shape.kind === 'key') {
        this.keySizes.add(line.args[index + 1].length);
        // The first key of a command is its key number's draw; MSET's others share it in a scenario.
        if (firstKey && shape.id !== undefined) {
          this.idLengths.add(shape.id.length);
          if (this.ids.has(shape.id) || this.ids.size < MAX_IDS) this.ids.set(shape.id, (this.ids.get(shape.id) ?? 0) + 1);
          else this.idOverflow++;
          let byPattern = this.idsByPattern.get(shape.pattern);
          if (!byPattern && this.idsByPattern.size < MAX_SHAPES) this.idsByPattern.set(shape.pattern, (byPattern = new Map()));
          if (byPattern && (byPattern.has(shape.id) || this.idsHeld < MAX_IDS)) {
            if (!byPattern.has(shape.id)) this.idsHeld++;
            byPattern.set(shape.id, (byPattern.get(shape.id) ?? 0) + 1);
          }
        }
        firstKey = false;
      }
    });
  }

  /**
   * Back-to-back commands of one client (a pipeline) count as one batch. The server runs every command of one
   * read of a client before it serves another client, so with several clients a run of one client's lines
   * between other clients' lines is one read: a batch, however far apart the server's clock put them. A client's
   * next batch needs its replies first, so other active clients' lines usually come between; when none do, two
   * reads count as one, so the typical read is the median, not the mean. With one client alone nothing comes
   * between: then the clock tells the reads apart (BATCH_GAP_US).
   */
  private countBatch(line: MonitorLine): void {
    if (line.source !== this.lastSource) this.endRun();
    this.lastSource = line.source;
    this.run++;
    this.countByClock(line);
  }

  private endRun(): void {
    if (this.run > 0) this.readSizes.add(this.run);
    this.run = 0;
    this.lastSource = undefined;
  }

  private countByClock(line: MonitorLine): void {
    const us = Math.round(line.time * 1e6);
    const source = this.sources.get(line.source);
    if (source && us - source.lastUs <= BATCH_GAP_US) {
      source.batch++;
      source.lastUs = us;
      this.batchedCommands++;
      return;
    }
    this.batches++;
    this.batchedCommands++;
    if (source) {
      source.lastUs = us;
      source.batch = 1;
    } else if (this.sources.size < MAX_SOURCES) this.sources.set(line.source, { lastUs: us, batch: 1 });
  }

  /** Commands a client sent per batch (1: no pipelining): the median read with several clients, the mean batch by the clock with one. */
  batchSize(): number {
    if (this.sources.size > 1) {
      const sizes = [...this.readSizes.values, ...(this.run > 0 ? [this.run] : [])].sort((a, b) => a - b);
      if (sizes.length > 0) return sizes[Math.floor((sizes.length - 1) / 2)];
    }
    return this.batches === 0 ? 1 : this.batchedCommands / this.batches;
  }
}
