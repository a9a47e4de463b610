// Builds the bytes of each pipeline batch for one connection: which command each slot runs (mix),
// which key and value size it uses, all drawn from seeded generators, written into one reusable buffer.
import type { TestPlan, ValuePlan } from '../../scenario/plan';
import { CompiledCommand, decimalDigits, RAND_INT_WIDTH, writeDigits, type CommandContext } from './templateEncoder';
import { WeightedTable, type KeySource, type Random } from './random';
import { RequestSequences } from './requestSequences';
import type { TableCursor } from './tableValues';
import type { KeyBacklog } from './keyBacklog';

/** Value sizes per request: fixed, uniform in a range, or weighted choices. */
export class ValueSizes {
  readonly fixed: number | undefined;
  readonly max: number;
  private readonly min: number;
  private readonly table: WeightedTable | undefined;
  private readonly sizes: number[];

  constructor(plan: ValuePlan) {
    switch (plan.kind) {
      case 'fixed':
        this.fixed = this.min = this.max = plan.size;
        this.sizes = [plan.size];
        break;
      case 'range':
        this.min = Math.min(plan.min, plan.max);
        this.max = Math.max(plan.min, plan.max);
        this.fixed = this.min === this.max ? this.min : undefined;
        this.sizes = [];
        break;
      case 'weighted':
        this.sizes = plan.choices.map((c) => c.size);
        this.table = new WeightedTable(plan.choices.map((c) => c.weight));
        this.min = Math.min(...this.sizes);
        this.max = Math.max(...this.sizes);
        this.fixed = this.min === this.max ? this.min : undefined;
        break;
    }
  }

  next(random: Random): number {
    if (this.fixed !== undefined) return this.fixed;
    if (this.table) return this.sizes[this.table.pick(random)];
    return this.min + random.nextInt(this.max - this.min + 1);
  }
}

export interface BatchContext extends CommandContext {
  seed: number;
  pipeline: number;
  keySpace: number;
  /** Label index of each command of the test (commands sharing a label share its results). */
  labelIndexes: number[];
}

/**
 * Orders a batch by where each request goes (cluster routing, BatchBuilder.buildRouted): the group of each key,
 * and, once the batch is built, each group's run of positions.
 */
export interface KeyRouter {
  /** The group (0 … counts.length - 1) of the request whose key number is `key`. */
  groupOf(key: number): number;
  /** Requests per group of the last routed batch (its length is the number of groups). */
  readonly counts: Int32Array;
  /** Group g's requests are positions starts[g] … starts[g + 1] - 1 of the last routed batch (counts.length + 1 entries). */
  readonly starts: Int32Array;
}

/** The key width `__key__` expands to: the plan's size, widened if the largest key needs more digits. */
export function keyWidth(space: number, size: number): number {
  return Math.max(size, decimalDigits(Math.max(0, space - 1)));
}

export class BatchBuilder {
  /** Bytes of the last batch are buffer[0 … length returned by build()). */
  readonly buffer: Buffer;
  /** Label index of each command of the last batch. */
  readonly labels: Uint16Array;
  /** Commands per request: a group's commands, else 1. A batch of `count` requests holds count × unitSize commands. */
  readonly unitSize: number;
  /** 1 at the positions of a unit that are `EXEC` (a nil reply there is an aborted transaction). */
  readonly execAt: Uint8Array;
  /** The test is a command group (even of one command): its requests are units. */
  readonly grouped: boolean;
  /** True when every command has the same label (no per-slot bookkeeping needed). */
  readonly singleLabel: boolean;
  private readonly commands: CompiledCommand[];
  private readonly table: WeightedTable | undefined;
  private readonly values: ValueSizes;
  private readonly sequences: RequestSequences;
  private readonly choices: Random;
  private readonly randInts: Random;
  // Prebuilt mode (one command, fixed value size): the whole batch encoded once, slots rewritten in place.
  private readonly prebuilt: boolean;
  private readonly keySlots: Int32Array;
  private readonly keySlotsPerCommand: number;
  private readonly randSlots: Int32Array;
  private readonly randSlotsPerCommand: number;
  private readonly commandEnds: Int32Array;
  /** Digits rewritten per `__key__` and `__rand_int__` slot (the low ones: see rewrite). */
  private readonly keyDigits: number = 0;
  private readonly randDigits: number = 0;
  /**
   * What a routable builder routes by (routable, drawRouted): the `__key__`, or, in a command with none, its one
   * `__rand_int__` (redis-benchmark's `SET key:__rand_int__`); where it lies, how many digits, and the other
   * `__rand_int__` values a request carries beside it.
   */
  private readonly routeByRand: boolean;
  private readonly routeSlots: Int32Array;
  private readonly routeDigits: number;
  private readonly routedRandsPer: number;
  /** drawRouted: the numbers routed by (keys) of the last draw, and each one's other `__rand_int__` values (randsPerRequest a key), in draw order. */
  readonly drawnKeys: Float64Array;
  readonly drawnRands: Float64Array;
  // buildRouted: each drawn key's group, and each group's next position.
  private readonly drawnGroups: Int32Array;
  private drawnNext = new Int32Array(0);
  // Rebuild mode with fixed value size: each command's encoding and relative slots.
  private readonly layouts: { bytes: Buffer; keySlots: number[]; randSlots: number[] }[] | undefined;
  /** A data file's entry is picked by the request's key: every request draws one. */
  private readonly keyedData: boolean;
  /** The data-file cursors (`values from`, `fields from`), read once from the context. */
  private readonly tableValues: TableCursor | undefined;
  private readonly tableFields: TableCursor | undefined;

  constructor(
    test: TestPlan,
    values: ValuePlan,
    private readonly keys: KeySource,
    private readonly context: BatchContext,
  ) {
    this.commands = test.commands.map((c, i) => new CompiledCommand(c.command, context.labelIndexes[i], context));
    this.grouped = test.group !== undefined;
    this.unitSize = test.group ? this.commands.length : 1;
    this.execAt = Uint8Array.from(test.group ? test.commands.map((c) => (c.command.name === 'EXEC' ? 1 : 0)) : [0]);
    this.table = this.commands.length > 1 && !test.group ? new WeightedTable(test.commands.map((c) => c.weight)) : undefined;
    this.values = new ValueSizes(values);
    this.sequences = new RequestSequences(keys, context);
    this.choices = this.sequences.choices;
    this.randInts = this.sequences.randInts;
    const pipeline = context.pipeline;
    this.labels = new Uint16Array(pipeline * this.unitSize);
    this.singleLabel = new Set(context.labelIndexes).size === 1;
    this.labels.fill(context.labelIndexes[0]);
    this.drawnKeys = new Float64Array(pipeline);
    this.drawnGroups = new Int32Array(pipeline);

    // Data from files, expiries and drawn numbers change per request: never laid out once (the fast path is for the rest).
    const drawnPerRequest = context.values !== undefined || this.commands.some((c) => c.hasFields || c.hasTtl || c.hasDraws || c.hasNow);
    this.keyedData = context.values?.byKey === true || context.fields?.byKey === true;
    this.tableValues = context.values;
    this.tableFields = context.fields;
    const fixedSize = this.values.fixed;
    const valueIndependent = this.commands.every((c) => !c.hasValue);
    const layoutSize = drawnPerRequest ? undefined : (fixedSize ?? (valueIndependent ? 0 : undefined));
    this.prebuilt = this.commands.length === 1 && !test.group && layoutSize !== undefined;
    // A group's commands are laid out with the same value bytes (the payload rewound for each).
    const valuesFrom = context.payload?.position ?? 0;
    this.layouts =
      layoutSize !== undefined
        ? this.commands.map((c) => {
            if (test.group) context.payload?.rewind(valuesFrom);
            return c.layout(layoutSize);
          })
        : undefined;

    if (this.prebuilt) {
      const layout = this.layouts![0];
      const size = layout.bytes.length;
      this.buffer = Buffer.allocUnsafe(size * pipeline);
      this.keySlotsPerCommand = layout.keySlots.length;
      this.randSlotsPerCommand = layout.randSlots.length;
      this.keySlots = new Int32Array(pipeline * this.keySlotsPerCommand);
      this.randSlots = new Int32Array(pipeline * this.randSlotsPerCommand);
      this.commandEnds = new Int32Array(pipeline);
      // Slots point at the first digit rewritten: the key space bounds every number drawn.
      const largest = decimalDigits(context.keySpace - 1);
      this.keyDigits = Math.min(context.keyWidth, largest);
      this.randDigits = Math.min(RAND_INT_WIDTH, largest);
      const keySkip = context.keyWidth - this.keyDigits;
      const randSkip = RAND_INT_WIDTH - this.randDigits;
      // The batch is the command `pipeline` times: each copy doubles what is laid out (a connection's set-up
      // is part of every run's fixed cost: 50 connections at pipeline 100 copied 5,000 times, slot by slot).
      const total = size * pipeline;
      layout.bytes.copy(this.buffer, 0);
      for (let filled = size; filled < total; filled *= 2) this.buffer.copyWithin(filled, 0, Math.min(filled, total - filled));
      const { keySlots, randSlots } = layout;
      for (let i = 0; i < pipeline; i++) {
        const at = i * size;
        for (let j = 0; j < keySlots.length; j++) this.keySlots[i * keySlots.length + j] = at + keySlots[j] + keySkip;
        for (let j = 0; j < randSlots.length; j++) this.randSlots[i * randSlots.length + j] = at + randSlots[j] + randSkip;
        this.commandEnds[i] = at + size;
      }
    } else {
      const lengths = this.commands.map((c) => c.encodedLength(this.values.max));
      const longest = test.group ? lengths.reduce((sum, length) => sum + length, 0) : Math.max(...lengths);
      this.buffer = Buffer.allocUnsafe(longest * pipeline);
      this.keySlots = this.randSlots = this.commandEnds = new Int32Array(0);
      this.keySlotsPerCommand = this.randSlotsPerCommand = 0;
    }
    this.drawnRands = new Float64Array(pipeline * this.randSlotsPerCommand);
    this.routeByRand = this.keySlotsPerCommand === 0 && this.randSlotsPerCommand === 1;
    this.routeSlots = this.routeByRand ? this.randSlots : this.keySlots;
    this.routeDigits = this.routeByRand ? this.randDigits : this.keyDigits;
    this.routedRandsPer = this.routeByRand ? 0 : this.randSlotsPerCommand;
  }

  /** `__rand_int__` values per request besides the number routed by (routable builders: drawRouted's drawnRands holds this many a key). */
  get randsPerRequest(): number {
    return this.routedRandsPer;
  }

  /** Encodes the next `count` (≤ pipeline) commands; returns their length in bytes. */
  build(count: number): number {
    return this.prebuilt ? this.rewrite(count) : this.rebuild(count);
  }

  /**
   * Whether buildRouted applies: one command encoded once (fixed value size, no group) with one `__key__`, and no
   * `__rand_int__` inside the key argument that holds it (`keyAt`: where that argument lies in a request); or with
   * no `__key__` and one `__rand_int__`, inside the key argument.
   */
  routable(keyAt: { from: number; to: number }): boolean {
    if (!this.prebuilt) return false;
    if (this.routeByRand) return this.randSlots[0] >= keyAt.from && this.randSlots[0] + this.randDigits <= keyAt.to;
    if (this.keySlotsPerCommand !== 1) return false;
    const key = this.keySlots[0];
    if (key < keyAt.from || key + this.keyDigits > keyAt.to) return false;
    for (let j = 0; j < this.randSlotsPerCommand; j++) if (this.randSlots[j] < keyAt.to && this.randSlots[j] + this.randDigits > keyAt.from) return false;
    return true;
  }

  /** Where request 0's rewritten digits of the number routed by are (offset, count): a router writes a key's bytes from them (routable only). */
  keyDigitsAt(): { offset: number; digits: number } {
    return { offset: this.routeSlots[0], digits: this.routeDigits };
  }

  /** Offset just past the request at `position` of the last batch (prebuilt mode). */
  get requestEnds(): Int32Array {
    return this.commandEnds;
  }

  /**
   * Like build (routable builders only), with the batch's requests ordered by `router`'s group of their key: each
   * group's requests are one run of positions (router.starts), so one write sends a group's part. The draws are
   * those of build, in the same order: only where each request is written changes.
   */
  buildRouted(count: number, router: KeyRouter): number {
    this.drawRouted(count);
    const counts = router.counts;
    const starts = router.starts;
    const drawn = this.drawnKeys;
    const groupOf = this.drawnGroups;
    counts.fill(0);
    for (let i = 0; i < count; i++) {
      const group = router.groupOf(drawn[i]);
      groupOf[i] = group;
      counts[group]++;
    }
    starts[0] = 0;
    for (let g = 0; g < counts.length; g++) starts[g + 1] = starts[g] + counts[g];
    // Each group's next free position: its run's start, advanced as its requests are written.
    const next = this.drawnNext.length >= counts.length ? this.drawnNext : (this.drawnNext = new Int32Array(counts.length));
    for (let g = 0; g < counts.length; g++) next[g] = starts[g];
    const randsPer = this.routedRandsPer;
    for (let i = 0; i < count; i++) this.writeDrawn(this.buffer, next[groupOf[i]]++, drawn[i], this.drawnRands, i * randsPer);
    return this.commandEnds[count - 1];
  }

  /**
   * Routable builders: the draws of the next `count` requests (≤ pipeline), as build makes them — every key, then
   * each request's `__rand_int__` values in the same order — into drawnKeys and drawnRands, written nowhere yet:
   * writeDrawn puts one at any position of any copy of the batch (template), so a request can wait for its node.
   */
  drawRouted(count: number): void {
    const drawn = this.drawnKeys;
    const bound = this.context.keySpace;
    if (this.routeByRand) {
      // Routed by its one `__rand_int__`: drawn as rewrite draws it, one a request.
      for (let i = 0; i < count; i++) drawn[i] = this.randInts.nextInt(bound);
      return;
    }
    const keys = this.keys;
    for (let i = 0; i < count; i++) drawn[i] = keys.next();
    const rands = this.drawnRands;
    for (let j = 0, end = count * this.randSlotsPerCommand; j < end; j++) rands[j] = this.randInts.nextInt(bound);
  }

  /** A copy of the first `requests` (≤ pipeline) prebuilt requests: a batch of its own for writeDrawn to fill. */
  template(requests: number): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.commandEnds[requests - 1]));
  }

  /** Writes request `position` of `target` (the builder's buffer or a template) with `key` and the `__rand_int__` values at rands[randAt …). */
  writeDrawn(target: Buffer, position: number, key: number, rands: Float64Array, randAt: number): void {
    writeDigits(target, this.routeSlots[position], this.routeDigits, key);
    const randsPer = this.routedRandsPer;
    for (let j = 0; j < randsPer; j++) writeDigits(target, this.randSlots[position * randsPer + j], this.randDigits, rands[randAt + j]);
  }

  /** Writes the `count` oldest draws of `backlog` (kept from drawRouted) as requests 0 … count - 1 of `target` (a template), and takes them. */
  writeBacklog(target: Buffer, backlog: KeyBacklog, count: number): void {
    const keys = backlog.keys;
    const mask = backlog.mask;
    const keySlots = this.routeSlots;
    const keyDigits = this.routeDigits;
    const randsPer = this.routedRandsPer;
    for (let p = 0, i = backlog.head; p < count; p++, i = (i + 1) & mask) {
      writeDigits(target, keySlots[p], keyDigits, keys[i]);
      for (let j = 0; j < randsPer; j++) writeDigits(target, this.randSlots[p * randsPer + j], this.randDigits, backlog.rands[i * randsPer + j]);
    }
    backlog.drop(count);
  }

  /** Back to the first draw (measuring starts from the same sequence whatever the warm-up did). */
  restart(): void {
    this.sequences.restart();
    for (const command of this.commands) if (command.hasDraws) command.restartDraws();
  }

  /** The next batch holds the load's requests first, first+1, …: RequestSequences.claimed. */
  claimed(first: number): void {
    this.sequences.claimed(first);
  }

  private rewrite(count: number): number {
    const buffer = this.buffer;
    const keysPer = this.keySlotsPerCommand;
    const randsPer = this.randSlotsPerCommand;
    const keySlots = this.keySlots;
    const randSlots = this.randSlots;
    const keys = this.keys;
    const randInts = this.randInts;
    const bound = this.context.keySpace;
    // Numbers are below the key space: the digits above its largest number are the layout's zeros, written
    // once, so only the low digits are rewritten (same bytes, fewer divisions).
    const keyDigits = this.keyDigits;
    const randDigits = this.randDigits;
    if (keysPer <= 1 && randsPer <= 1) {
      // The usual command (at most one `__key__` and one `__rand_int__`): one flat loop, no inner ones.
      for (let i = 0; i < count; i++) {
        if (keysPer === 1) writeDigits(buffer, keySlots[i], keyDigits, keys.next());
        if (randsPer === 1) writeDigits(buffer, randSlots[i], randDigits, randInts.nextInt(bound));
      }
      return this.commandEnds[count - 1];
    }
    for (let i = 0; i < count; i++) {
      if (keysPer > 0) {
        // All `__key__` of one command name the same key: the request's key.
        const key = keys.next();
        for (let j = i * keysPer, end = j + keysPer; j < end; j++) writeDigits(buffer, keySlots[j], keyDigits, key);
      }
      for (let j = i * randsPer, end = j + randsPer; j < end; j++) writeDigits(buffer, randSlots[j], randDigits, randInts.nextInt(bound));
    }
    return this.commandEnds[count - 1];
  }

  /** A group: `count` units, each all the commands in order with one key and one value size. */
  private buildUnits(count: number): number {
    const commands = this.commands;
    const hasKey = commands.some((c) => c.hasKey) || this.keyedData;
    const hasValue = commands.some((c) => c.hasValue);
    const hasFields = commands.some((c) => c.hasFields);
    let offset = 0;
    let at = 0;
    for (let i = 0; i < count; i++) {
      const key = hasKey ? this.keys.next() : 0;
      const size = hasValue && !this.layouts ? this.nextSize(key) : 0;
      if (hasFields) this.tableFields?.select(key);
      const start = this.context.payload?.position ?? 0;
      for (let c = 0; c < commands.length; c++) {
        const command = commands[c];
        this.labels[at++] = command.labelIndex;
        // Every command of the unit writes the same value bytes: rewound to the unit's first value.
        if (command.hasValue && !this.layouts) this.context.payload?.rewind(start);
        offset = this.encode(c, offset, key, size);
      }
    }
    return offset;
  }

  private rebuild(count: number): number {
    if (this.grouped) return this.buildUnits(count);
    let offset = 0;
    for (let i = 0; i < count; i++) {
      const index = this.context.order ? this.context.order.next() : this.table ? this.table.pick(this.choices) : 0;
      const command = this.commands[index];
      this.labels[i] = command.labelIndex;
      const key = command.hasKey || this.keyedData ? this.keys.next() : 0;
      const size = command.hasValue && !this.layouts ? this.nextSize(key) : 0;
      if (command.hasFields) this.tableFields?.select(key);
      offset = this.encode(index, offset, key, size);
    }
    return offset;
  }

  /** The next value's size: a data file's entry for this key (selected for the encoder), else a drawn size. */
  private nextSize(key: number): number {
    const values = this.tableValues;
    return values ? values.select(key) : this.values.next(this.choices);
  }

  /** Writes command `index` at `offset` with key number `key` (from its layout, or encoded with a value of `size` bytes); returns the offset after it. */
  private encode(index: number, offset: number, key: number, size: number): number {
    const buffer = this.buffer;
    const bound = this.context.keySpace;
    if (!this.layouts) return this.commands[index].encodeInto(buffer, offset, size, key, this.randInts, bound);
    const layout = this.layouts[index];
    buffer.set(layout.bytes, offset);
    for (const slot of layout.keySlots) writeDigits(buffer, offset + slot, this.context.keyWidth, key);
    for (const slot of layout.randSlots) writeDigits(buffer, offset + slot, RAND_INT_WIDTH, this.randInts.nextInt(bound));
    return offset + layout.bytes.length;
  }
}
