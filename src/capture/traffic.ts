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
const RESERVOIR = 20_000;
/** Commands of one client closer than this (µs, the server's clock) count as one pipelined batch. */
const BATCH_GAP_US = 10;

export interface ShapeTally {
  command: string;
  shapes: ArgShape[];
  count: number;
  /** Per argument position: the sum of the numbers seen there (their mean is written). */
  numberSums: number[];
}

export class TrafficTally {
  readonly commands = new Map<string, number>();
  readonly shapes = new Map<string, ShapeTally>();
  /** Lines of shapes past MAX_SHAPES, by command: merged into the command's commonest shape. */
  readonly unshaped = new Map<string, number>();
  readonly unreproducible = new Map<UnreproducibleKind, Map<string, number>>();
  readonly ids = new Map<string, number>();
  /** Key numbers hit after MAX_IDS distinct ones were held: counted, not told apart. */
  idOverflow = 0;
  readonly valueSizes = new Reservoir(RESERVOIR);
  readonly keySizes = new Reservoir(RESERVOIR);
  readonly idLengths = new Reservoir(RESERVOIR);
  readonly perSecond = new Map<number, number>();
  readonly sources = new Map<string, { lastUs: number; batch: number }>();
  batches = 0;
  batchedCommands = 0;
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
    if (this.ignoreSources.has(line.source)) return;
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
      return;
    }
    this.record(command, shapes, line);
  }

  private record(command: string, shapes: ArgShape[], line: MonitorLine): void {
    const key = shapeKey(command, shapes);
    let tally = this.shapes.get(key);
    if (!tally) {
      if (this.shapes.size >= MAX_SHAPES) {
        this.unshaped.set(command, (this.unshaped.get(command) ?? 0) + 1);
        return;
      }
      tally = { command, shapes, count: 0, numberSums: shapes.map(() => 0) };
      this.shapes.set(key, tally);
    }
    tally.count++;
    let firstKey = true;
    shapes.forEach((shape, index) => {
      if (shape.kind === 'number') tally.numberSums[index] += shape.value;
      else if (shape.kind === 'value') this.valueSizes.add(shape.size);
      else if (shape.kind === 'key') {
        this.keySizes.add(line.args[index + 1].length);
        // The first key of a command is its key number's draw; MSET's others share it in a scenario.
        if (firstKey && shape.id !== undefined) {
          this.idLengths.add(shape.id.length);
          if (this.ids.has(shape.id) || this.ids.size < MAX_IDS) this.ids.set(shape.id, (this.ids.get(shape.id) ?? 0) + 1);
          else this.idOverflow++;
        }
        firstKey = false;
      }
    });
  }

  /** Back-to-back commands of one client (a pipeline) count as one batch. */
  private countBatch(line: MonitorLine): void {
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

  /** Commands a client sent per batch, on average (1: no pipelining). */
  meanBatch(): number {
    return this.batches === 0 ? 1 : this.batchedCommands / this.batches;
  }
}
