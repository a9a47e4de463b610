// The length of the keys a test really sends, for the result table: `rbench:lists:one` is 16 characters
// whatever `key-size` says, and `cli:__key__` with key-size 8 is 12. Which argument is a key comes from the
// command table's key specs (`EVAL "…" 0` has none; `SINTERCARD 2 a b` starts at its second). Plain data.
import { BUILT_IN_TABLE } from '../scenario/commandTable';
import { drawMaxLength, partText } from '../scenario/draws';
import type { ArgTemplate, CommandTemplate, PhasePlan, TestPlan } from '../scenario/plan';

/** Characters of `__rand_int__` (redis-benchmark's 12-digit number). */
const RAND_INT_WIDTH = 12;

function argLength(arg: ArgTemplate, phase: PhasePlan): number {
  let length = 0;
  for (const part of arg) {
    if (typeof part === 'string') length += part.length;
    else if (part.placeholder === 'key') length += phase.keys.size;
    else if (part.placeholder === 'rand_int') length += RAND_INT_WIDTH;
    else if (part.placeholder === 'now')
      length += 16; // the send stamp's digits
    else if (part.placeholder === 'client') length += String(Math.max(0, phase.load.clients - 1)).length;
    else if (part.draw) length += drawMaxLength(part.draw);
  }
  return length;
}

/** Where the command's keys are: as the runner set them from the target's table, else as the built-in table reads the arguments; undefined when unknown. */
function keyArguments(command: CommandTemplate): number[] | undefined {
  if (command.keys) return command.keys;
  const texts = command.args.map((arg) => arg.map(partText).join(''));
  return BUILT_IN_TABLE.keyIndexes(command.name, texts);
}

/**
 * The key length of a test's first command (a group's first command with arguments: MULTI has none): its first
 * key by the command table, 0 when it names none; for a command the table does not know, its argument holding
 * `__key__`, else its first argument; 0 without arguments.
 */
export function testKeyLength(phase: PhasePlan, test: TestPlan | undefined): number {
  const command = (test?.group ? test.commands.find((c) => c.command.args.length > 0) : test?.commands[0])?.command;
  if (!command || command.args.length === 0) return 0;
  const keys = keyArguments(command);
  if (keys) return keys.length === 0 ? 0 : argLength(command.args[keys[0]], phase);
  const keyed = command.args.find((arg) =>
    arg.some((part) => typeof part !== 'string' && (part.placeholder === 'key' || part.placeholder === 'rand_int' || part.placeholder === 'draw')),
  );
  return argLength(keyed ?? command.args[0], phase);
}

/**
 * Commands that return several values when given a count after their key (`LPOP key 100`, `SPOP key 10`,
 * `SRANDMEMBER key -5`: |count| values), and those that take it as a `COUNT n` option (`LMPOP 1 l LEFT COUNT 10`).
 * Redis's command table says where the keys are but not what the other arguments mean (COMMAND DOCS names
 * them, and is not read for a run), so these are named here, from the commands' documentation.
 */
const COUNT_AFTER_KEY: ReadonlySet<string> = new Set(['lpop', 'rpop', 'spop', 'srandmember', 'hrandfield', 'zrandmember', 'zpopmin', 'zpopmax']);
const COUNT_OPTION: ReadonlySet<string> = new Set(['lmpop', 'blmpop', 'zmpop', 'bzmpop']);

/** A literal whole-number argument's value, or undefined (a placeholder, a word). */
function literalCount(arg: ArgTemplate | undefined): number | undefined {
  if (!arg || arg.length !== 1 || typeof arg[0] !== 'string' || !/^-?\d+$/.test(arg[0])) return undefined;
  return Math.abs(Number(arg[0]));
}

/** The values one reply of a count-taking command carries at most (`LPOP key 100`: 100); 0 for any other command. */
function countedValues(command: CommandTemplate): number {
  const name = command.name.toLowerCase();
  if (COUNT_AFTER_KEY.has(name)) {
    const keys = keyArguments(command);
    return literalCount(command.args[keys && keys.length > 0 ? keys[keys.length - 1] + 1 : 1]) ?? 0;
  }
  if (COUNT_OPTION.has(name)) {
    const at = command.args.findIndex((arg) => arg.length === 1 && typeof arg[0] === 'string' && arg[0].toUpperCase() === 'COUNT');
    return at >= 0 ? (literalCount(command.args[at + 1]) ?? 0) : 0;
  }
  return 0;
}

/**
 * The values one request of the test moves: the `__value__` arguments of a variadic command
 * (`RPUSH l __value__*100`: 100 sent), else the count of a command that returns that many (`LPOP l 100`: 100 asked for).
 */
export function valuesPerRequest(test: TestPlan | undefined): number {
  const command = test?.commands[0]?.command;
  if (!command || (test?.commands.length ?? 0) !== 1) return 0;
  const sent = command.args.filter((arg) => arg.some((part) => typeof part !== 'string' && part.placeholder === 'value')).length;
  return sent > 1 ? sent : Math.max(sent, countedValues(command));
}
