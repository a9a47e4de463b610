// Pub/Sub client groups: a `load` group whose one command subscribes (SUBSCRIBE, PSUBSCRIBE, SSUBSCRIBE) is a
// subscriber group — its connections subscribe and listen until the phase's other groups end; a group that
// publishes (PUBLISH, SPUBLISH) is a requests group like any. Whether a command is Pub/Sub comes from the command
// table's `pubsub` flag; which of those subscribe is the one list below (the table does not say).
import { BUILT_IN_TABLE } from './commandTable';
import type { DiagnosticSink } from './diagnostics';
import type { ClientGroupKind, CommandTemplate, Range, TestPlan } from './plan';
import type { Layer } from './settingLayer';

/** The commands that turn a connection into a subscriber, and the push message each delivers. */
export const SUBSCRIBE_FORMS: Readonly<Record<string, 'message' | 'pmessage' | 'smessage'>> = {
  SUBSCRIBE: 'message',
  PSUBSCRIBE: 'pmessage',
  SSUBSCRIBE: 'smessage',
};

/** True when `name` subscribes: a Pub/Sub command (table flag) of the subscribe forms. */
export function isSubscribeCommand(name: string): boolean {
  const upper = name.toUpperCase();
  return upper in SUBSCRIBE_FORMS && (BUILT_IN_TABLE.spec(upper)?.flags.includes('pubsub') ?? false);
}

/** The kind of a group running `test`: subscribers when its one command subscribes. */
export function groupKindOf(test: TestPlan): ClientGroupKind {
  return test.commands.some(({ command }) => isSubscribeCommand(command.name)) ? 'subscribers' : 'requests';
}

/** A subscribing command outside a `load` group: it would block its connection, so it is refused with the fix. */
export function refuseSubscribeOutsideGroups(tests: readonly TestPlan[], sink: DiagnosticSink): void {
  for (const test of tests) {
    for (const { command } of test.commands) {
      if (!isSubscribeCommand(command.name)) continue;
      sink.error(
        rangeOf(command),
        'subscribe-outside-load',
        `${command.name.toUpperCase()} holds its connection for messages, so it runs only as a subscriber group — put it in a \`load subscribers\` group beside a \`load publishers\` group that PUBLISHes`,
      );
    }
  }
}

/**
 * A subscriber group listens, it does not send at a pace: `rate` and `pipeline` are refused, so is a mix (one
 * subscribe command per group), and a phase of subscribers alone (nobody publishes: it would never end).
 */
export function checkSubscriberGroups(
  groups: readonly { load: { name: string; line: { range: Range } }; layer: Layer; test: TestPlan }[],
  sink: DiagnosticSink,
): void {
  const subscribers = groups.filter((group) => groupKindOf(group.test) === 'subscribers');
  for (const group of subscribers) {
    for (const setting of ['rate', 'pipeline'] as const) {
      const entry = group.layer.get(setting);
      if (entry && !(setting === 'pipeline' && entry.value === 1))
        sink.error(
          entry.range,
          'subscriber-setting',
          `client group \`${group.load.name}\` subscribes: it receives what the publishers send and has no \`${setting}\` of its own — move \`${setting}\` to the publisher group`,
        );
    }
    const commands = group.test.commands;
    if (commands.length > 1 || group.test.group)
      sink.error(
        rangeOf(commands[1]?.command ?? commands[0].command, group.load.line.range),
        'subscriber-mix',
        `client group \`${group.load.name}\` subscribes: give it one ${commands[0].command.name.toUpperCase()} line (list every channel on it), and the other commands a group of their own`,
      );
  }
  if (subscribers.length > 0 && subscribers.length === groups.length)
    sink.error(
      subscribers[0].load.line.range,
      'subscribers-alone',
      `client group \`${subscribers[0].load.name}\` subscribes, but no group here publishes: it would wait forever — add a \`load publishers\` group with \`PUBLISH channel __now__:__value__\``,
    );
}

function rangeOf(command: CommandTemplate, fallback?: Range): Range {
  return command.source ?? fallback ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
}
