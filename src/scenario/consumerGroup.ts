// Blocking consumers: a client group whose command waits for data another client sends (BRPOP, BLMOVE,
// BZPOPMIN, XREADGROUP … BLOCK) is a consumer group, run by the runner's consumer kind rather than timed as
// requests. The kind is read from the command's own description (the table's `blocking` flag, and a key to
// wait on); the stream reads block only when asked to, with their `BLOCK ms` argument.
import { rangeOf, type DiagnosticSink } from './diagnostics';
import { BUILT_IN_TABLE, type CommandTable } from './commandTable';
import type { ArgTemplate, ClientGroupKind, PhasePlan, Range, TestPlan } from './plan';

/** Commands the table marks blocking that block only with a `BLOCK ms` argument (else they answer at once). */
const BLOCK_OPTION = new Set(['xread', 'xreadgroup']);

/** A literal argument's text; undefined when a placeholder is part of it. */
export function literalArg(arg: ArgTemplate): string | undefined {
  return arg.every((part) => typeof part === 'string') ? arg.join('') : undefined;
}

/** True when this command, with these arguments, waits on a key for data another client sends. */
export function waitsForData(name: string, args: readonly ArgTemplate[], table: CommandTable = BUILT_IN_TABLE): boolean {
  const spec = table.spec(name);
  if (!spec || !(spec.flags.includes('blocking') || spec.categories.includes('blocking'))) return false;
  // WAIT and WAITAOF block too, on replicas, not on a key: no job to consume.
  const hasKeys = spec.firstKey > 0 || spec.flags.includes('movablekeys');
  if (!hasKeys) return false;
  if (!BLOCK_OPTION.has(spec.name)) return true;
  return args.some((arg) => literalArg(arg)?.toUpperCase() === 'BLOCK');
}

/** The kind of a group whose one test is `test`: consumers when its command waits for data. */
export function groupKind(test: TestPlan): ClientGroupKind {
  return test.commands.some(({ command }) => waitsForData(command.name, command.args)) ? 'consumers' : 'requests';
}

/**
 * A consumer group's limits, each named at its `load` line with its fix: one command (a consumer does one
 * thing), literal arguments (it waits on the same keys each time), closed loop, pipeline 1 (a blocked call
 * holds its connection: a second one behind it would wait for the first).
 */
export function checkConsumerGroup(name: string, phase: PhasePlan, source: Range | undefined, sink: DiagnosticSink): void {
  const at = source ?? rangeOf(0, 0, 0);
  const test = phase.tests[0];
  const command = test.commands[0].command;
  if ((test.commands.length > 1 || test.group) && !isAckingRead(test))
    sink.error(
      at,
      'consumer-one-command',
      `consumer group \`${name}\` waits with ${command.name}: a consumer group runs that one command — give the other commands a \`load\` group of their own`,
    );
  if (phase.load.pipeline > 1)
    sink.error(
      at,
      'consumer-pipeline',
      `consumer group \`${name}\` has pipeline ${phase.load.pipeline}, but a blocked ${command.name} holds its connection (the calls behind it would wait for it) — write \`pipeline 1\` in group \`${name}\`, or add \`clients\` for more consumers`,
    );
  if (phase.load.rate !== undefined)
    sink.error(
      at,
      'consumer-rate',
      `consumer group \`${name}\` has a \`rate\`, but consumers take jobs as fast as the producers push them — remove \`rate\` from group \`${name}\` (set the producers' rate instead)`,
    );
  if (command.args.some((arg, index) => literalArg(arg) === undefined && !(isConsumerName(command.name, command.args, index) && arg.length > 0)))
    sink.error(
      command.source ?? at,
      'consumer-placeholder',
      `consumer group \`${name}\` waits on the same keys every time — write its ${command.name} arguments without placeholders (\`${command.name} jobs 1\`; XREADGROUP's consumer name may hold \`__client__\`)`,
    );
}

/**
 * A stream consumer that acknowledges what it read: a command group of `XREADGROUP … BLOCK ms … STREAMS KEY >`
 * then `XACK KEY GROUP __ids__` (the reply-driven form: the IDs the read returned). The consumer sends the XACK
 * after each read that returned entries, on the same connection.
 */
export function isAckingRead(test: TestPlan): boolean {
  if (!test.group || test.commands.length !== 2) return false;
  const [read, ack] = test.commands.map(({ command }) => command);
  return (
    read.name.toUpperCase() === 'XREADGROUP' &&
    ack.name.toUpperCase() === 'XACK' &&
    ack.args.length === 3 &&
    literalArg(ack.args[0]) !== undefined &&
    literalArg(ack.args[1]) !== undefined &&
    ack.args[2].some((part) => typeof part === 'object' && part.placeholder === 'ids')
  );
}

/** XREADGROUP's consumer name (`GROUP g NAME`): the one argument of a consumer that may be `c__client__` (a name per connection). */
function isConsumerName(name: string, args: readonly ArgTemplate[], index: number): boolean {
  const consumerAt = args.findIndex((arg) => literalArg(arg)?.toUpperCase() === 'GROUP') + 2;
  return (
    name.toUpperCase() === 'XREADGROUP' &&
    consumerAt >= 2 &&
    index === consumerAt &&
    args[index].every((part) => typeof part === 'string' || part.placeholder === 'client')
  );
}

/** The command's arguments for consumer `client` (0-based): literal text, `__client__` its number. */
export function consumerArgs(args: readonly ArgTemplate[], client: number): string[] {
  return args.map((arg) => arg.map((part) => (typeof part === 'string' ? part : part.placeholder === 'client' ? String(client) : '')).join(''));
}

/** What a consumer's command waits on: its keys, how long each call may wait (0: for ever), a stream group. */
export interface ConsumerWait {
  keys: string[];
  timeoutMs: number;
  /** XREADGROUP's group: its pending entries are the jobs taken but not acknowledged. */
  streamGroup?: string;
}

/**
 * Read from the arguments as written: `BLOCK ms` for the stream reads, the first argument for BLMPOP and BZMPOP
 * (`BLMPOP timeout numkeys …`), the last one for the others (`BRPOP jobs 1`, `BLMOVE a b LEFT RIGHT 1`), in seconds.
 */
export function consumerWait(name: string, args: readonly string[], table: CommandTable = BUILT_IN_TABLE): ConsumerWait {
  const upper = args.map((arg) => arg.toUpperCase());
  const block = upper.indexOf('BLOCK');
  const group = upper.indexOf('GROUP');
  const seconds = name.toUpperCase().endsWith('MPOP') ? args[0] : args[args.length - 1];
  const timeoutMs = block >= 0 ? Number(args[block + 1]) : Number(seconds) * 1000;
  const positions = table.keyIndexes(name, args) ?? BUILT_IN_TABLE.keyIndexes(name, args) ?? [];
  return {
    keys: positions.map((i) => args[i]),
    timeoutMs: Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : 0,
    ...(group >= 0 && args[group + 1] !== undefined ? { streamGroup: args[group + 1] } : {}),
  };
}
