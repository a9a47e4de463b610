// `ttl MIN..MAX` → the commands that carry it, written into the plan so that the run file shows what was
// sent: `SET` and `GETEX` get their own `EX`/`PX` option; any other write of one key is followed, in the
// same request unit, by `EXPIRE`/`PEXPIRE` of that key (a single command becomes a group of two; a group
// gets one after each such write). The expiry itself is the `ttl` placeholder, drawn per request.
import { copyArg } from './arguments';
import { isWriteCommand } from './commands';
import type { CommandTemplate, TestPlan, TtlPlan, WeightedCommand } from './plan';

/** Commands with their own expiry option. */
const OWN_OPTION = new Set(['SET', 'GETEX']);
/** Options that already set or keep an expiry: the command is left as written. */
const EXPIRY_OPTIONS = new Set(['EX', 'PX', 'EXAT', 'PXAT', 'KEEPTTL', 'PERSIST']);
/** Writes that name no single key first, or that set or drop expiries themselves: never given one. */
const NO_EXPIRE = new Set([
  'MSET',
  'MSETNX',
  'SETEX',
  'PSETEX',
  'EXPIRE',
  'PEXPIRE',
  'EXPIREAT',
  'PEXPIREAT',
  'PERSIST',
  'DEL',
  'UNLINK',
  'RENAME',
  'RENAMENX',
  'MOVE',
  'COPY',
  'FLUSHALL',
  'FLUSHDB',
  'SWAPDB',
  'MIGRATE',
  'RESTORE',
  'EVAL',
  'EVALSHA',
  'EVAL_RO',
  'EVALSHA_RO',
  'FCALL',
  'FCALL_RO',
  'PUBLISH',
  'SPUBLISH',
  'MULTI',
  'EXEC',
  'DISCARD',
]);

const TTL_ARG = [{ placeholder: 'ttl' as const }];

function hasExpiryOption(command: CommandTemplate): boolean {
  return command.args.some((arg) => arg.length === 1 && typeof arg[0] === 'string' && EXPIRY_OPTIONS.has(arg[0].toUpperCase()));
}

/** The command with its own expiry option added, or undefined when it has none to take. */
function withOption(command: CommandTemplate, ttl: TtlPlan): CommandTemplate | undefined {
  if (!OWN_OPTION.has(command.name) || command.inline) return undefined;
  if (hasExpiryOption(command)) return command;
  return { ...command, args: [...command.args.map(copyArg), [ttl.unit === 's' ? 'EX' : 'PX'], TTL_ARG.map((part) => ({ ...part }))] };
}

/** `EXPIRE <the command's key> <ttl>`, for a write of one key; undefined for any other command. */
function expireAfter(command: CommandTemplate, ttl: TtlPlan): CommandTemplate | undefined {
  if (command.inline || command.args.length === 0 || NO_EXPIRE.has(command.name) || !isWriteCommand(command.name)) return undefined;
  const name = ttl.unit === 's' ? 'EXPIRE' : 'PEXPIRE';
  return { name, label: name, args: [copyArg(command.args[0]), TTL_ARG.map((part) => ({ ...part }))], ...(command.source ? { source: command.source } : {}) };
}

/** The tests with the expiry added; tests without writes stay as they are. */
export function testsWithTtl(tests: readonly TestPlan[], ttl: TtlPlan): TestPlan[] {
  return tests.map((test) => {
    if (test.group) {
      const commands: WeightedCommand[] = [];
      for (const { weight, command } of test.commands) {
        const option = withOption(command, ttl);
        commands.push({ weight, command: option ?? command });
        const expire = option ? undefined : expireAfter(command, ttl);
        if (expire) commands.push({ weight, command: expire });
      }
      return { ...test, commands };
    }
    const commands = test.commands.map(({ weight, command }) => ({ weight, command: withOption(command, ttl) ?? command }));
    if (test.commands.length === 1 && commands[0].command === test.commands[0].command) {
      const expire = expireAfter(test.commands[0].command, ttl);
      if (expire)
        return {
          name: `${test.name}+${expire.name}`,
          commands: [test.commands[0], { weight: 1, command: expire }],
          group: { transaction: false, ...(test.commands[0].command.source ? { source: test.commands[0].command.source } : {}) },
        };
    }
    return { ...test, commands };
  });
}

/** The writes of a weighted mix that cannot carry the expiry (they would need a unit of their own). */
export function mixWritesWithoutTtl(tests: readonly TestPlan[], ttl: TtlPlan): CommandTemplate[] {
  return tests
    .filter((test) => !test.group && test.commands.length > 1)
    .flatMap((test) => test.commands.map(({ command }) => command))
    .filter((command) => !withOption(command, ttl) && expireAfter(command, ttl) !== undefined);
}
