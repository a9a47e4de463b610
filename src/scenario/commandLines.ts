// A command line of a scenario or phase → its command template: arguments read (once per file for each
// text), a weight checked, and MULTI / EXEC / DISCARD on a line of their own refused.
import { rangeOf } from './diagnostics';
import type { EnvUse, VariableScope } from './interpolate';
import type { CommandTemplate, Range, TextFix } from './plan';
import { reusedArgs, type ReadOnce } from './readOnce';
import type { CommandLine } from './syntax';

/** A command line as a test of its phase (or a command of a group). */
export interface CommandItem {
  kind: 'command';
  template: CommandTemplate;
  weight?: number;
  range: Range;
}

/** Command arguments (and `cleanup` patterns, which are sent in SCAN and DEL): the environment rule's strictest wording. */
export const COMMAND_USE: EnvUse = { code: 'env-in-command', goTo: 'be sent to the server' };

export function commandItem(line: CommandLine, vars: VariableScope, context: ReadOnce, inGroup: boolean, fix?: TextFix): CommandItem | undefined {
  const sink = context.sink;
  const source = rangeOf(line.line, line.contentStart, line.contentEnd);
  // A refused environment value is reported and left out; the command still counts as one: the error alone blocks the run.
  const expanded = vars.expand(line, line.argsStart, line.contentEnd, COMMAND_USE);
  const args = reusedArgs(expanded, sink, context);
  const template: CommandTemplate = { name: line.name, label: line.name, args, source };
  if (line.weight && !(line.weight.percent > 0)) {
    sink.error(line.weight.range, 'invalid-weight', 'a weight must be above 0% — remove the line or give it a share such as `10%`');
    return undefined;
  }
  const transactionReply = TRANSACTION_REPLIES[line.name];
  if (transactionReply && !inGroup) sink.error(line.command.range, 'transaction-lines', transactionMessage(line.name, transactionReply), fix && [fix]);
  return { kind: 'command', template, weight: line.weight?.percent, range: source };
}

/** What the server answers when a transaction command runs as a test of its own. */
const TRANSACTION_REPLIES: Readonly<Record<string, string>> = {
  MULTI: 'ERR MULTI calls can not be nested',
  EXEC: 'ERR EXEC without MULTI',
  DISCARD: 'ERR DISCARD without MULTI',
};

function transactionMessage(name: string, reply: string): string {
  return (
    `\`${name}\` cannot work on a line of its own: each command line is a test of its own, sent over and over, ` +
    `so a MULTI … EXEC transaction never forms and the server answers "${reply}". ` +
    'Put the transaction in a command group, so that it is sent as one request unit: a `group` line, `MULTI`, the commands, `EXEC`, then `end`'
  );
}
