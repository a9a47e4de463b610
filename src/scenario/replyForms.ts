// Reply-driven commands (issue 43): the named forms whose request is built from an earlier reply on the same
// connection — a SCAN-family cursor loop (`__cursor__`), the IDs an XREADGROUP returned acked (`__ids__`), and
// EVALSHA of a script the run loads (`__sha(SCRIPT)__`). Not a scripting language: these three and nothing else.
// Types only: the engine's threads read this file, so it imports nothing.
import type { ArgTemplate, CommandTemplate, ReplyPlaceholder, TestPlan } from './plan';

/** The argument that is the cursor, per SCAN-family command. */
export const CURSOR_ARGUMENT: Readonly<Record<string, number>> = { SCAN: 0, HSCAN: 1, SSCAN: 1, ZSCAN: 1 };

/** Commands whose first argument may be `__sha(SCRIPT)__`. */
export const SHA_COMMANDS: ReadonlySet<string> = new Set(['EVALSHA', 'EVALSHA_RO']);

/** The command whose reply `__ids__` reads, and the one it may feed. */
export const IDS_SOURCE = 'XREADGROUP';
export const IDS_TARGET = 'XACK';

/** `__sha(SCRIPT)__` as a whole argument: SCRIPT is the script's text (the lexer removed its quotes). */
export const SHA_FORM = /^__sha\(([\s\S]*)\)__$/;

/** The reply-driven placeholder of this argument, when it is one (a reply-driven placeholder is always a whole argument). */
export function replyPlaceholderOf(arg: ArgTemplate): ReplyPlaceholder | undefined {
  for (const part of arg) {
    if (typeof part === 'object' && (part.placeholder === 'cursor' || part.placeholder === 'ids' || part.placeholder === 'sha')) return part.placeholder;
  }
  return undefined;
}

/** Whether the command's request is built from an earlier reply (or, EVALSHA, needs its script loaded). */
export function isReplyDrivenCommand(command: CommandTemplate): boolean {
  return command.args.some((arg) => replyPlaceholderOf(arg) !== undefined);
}

/** Whether any command of the test is reply-driven: such a test runs on the reply-driven connection (engine/fast/replyConnection.ts). */
export function isReplyDrivenTest(test: TestPlan): boolean {
  return test.commands.some((c) => isReplyDrivenCommand(c.command));
}

/** The scripts the test's `__sha(…)__` name, each once, in order of appearance. */
export function testScripts(test: TestPlan): string[] {
  const scripts: string[] = [];
  for (const { command } of test.commands) {
    for (const arg of command.args) {
      for (const part of arg) {
        if (typeof part === 'object' && part.placeholder === 'sha' && part.script !== undefined && !scripts.includes(part.script)) scripts.push(part.script);
      }
    }
  }
  return scripts;
}
