// The seeded sequences a connection's requests are drawn from: keys, the data files' cursors, a replayed test's
// order, the command choice and value size, and `__rand_int__`. One place for the fast and the ioredis builders
// (batch.ts, ioredisConnection.ts) so that a seed gives both paths the same requests.
import { Random, type KeySource } from './random';
import type { TableCursor } from './tableValues';

const CHOICE_STREAM = 2;
const RAND_INT_STREAM = 3;

export interface SequenceContext {
  seed: number;
  client: number;
  values?: TableCursor;
  fields?: TableCursor;
  order?: KeySource;
}

export class RequestSequences {
  /** The command choice and value sizes. */
  readonly choices: Random;
  readonly randInts: Random;

  constructor(
    private readonly keys: KeySource,
    private readonly context: SequenceContext,
  ) {
    this.choices = new Random(context.seed, CHOICE_STREAM, context.client);
    this.randInts = new Random(context.seed, RAND_INT_STREAM, context.client);
  }

  /** Back to the first draw (measuring starts from the same sequence whatever the warm-up did). */
  restart(): void {
    this.keys.restart();
    this.context.values?.restart();
    this.context.fields?.restart();
    this.context.order?.restart();
    this.choices.reseed(this.context.seed, CHOICE_STREAM, this.context.client);
    this.randInts.reseed(this.context.seed, RAND_INT_STREAM, this.context.client);
  }

  /**
   * The next batch holds the load's requests first, first+1, … (its claim on the shared budget): keys, choices
   * and `__rand_int__` draw from streams seeded by `first`, so a seed gives the same requests whichever
   * connection or thread claims them (claims are pipeline-aligned), and sequential keys follow the numbers.
   */
  claimed(first: number): void {
    this.keys.claimed?.(first);
    this.context.values?.claimed(first);
    this.context.fields?.claimed(first);
    this.context.order?.claimed?.(first);
    this.choices.reseed(this.context.seed, CHOICE_STREAM, first);
    this.randInts.reseed(this.context.seed, RAND_INT_STREAM, first);
  }
}
