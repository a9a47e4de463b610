// The checker's rules for reply-driven commands (replyForms.ts): each placeholder only where its form is, and a
// test holding one only where its connections can wait for each reply (pipeline 1, the fast single-node path,
// the closed loop), with placeholders the reply-driven connection writes.
import type { DiagnosticSink } from './diagnostics';
import type { LoadPlan, Placeholder, Range, TestPlan } from './plan';
import { CURSOR_ARGUMENT, IDS_SOURCE, IDS_TARGET, isReplyDrivenTest, replyPlaceholderOf, SHA_COMMANDS } from './replyForms';

/** Placeholders the reply-driven connection writes beside the reply-driven ones. */
const WRITTEN: ReadonlySet<Placeholder> = new Set<Placeholder>(['key', 'rand_int', 'value', 'client', 'cursor', 'ids', 'sha']);

/** The settings a test's rules name, with where they were written. */
export interface ReplySettings {
  pipeline?: Range;
  client?: { value: string; range: Range };
  cluster?: { value: boolean; range: Range };
  rate?: Range;
  reconnect?: Range;
}

export function checkReplyForms(tests: readonly TestPlan[], load: LoadPlan, settings: ReplySettings, sink: DiagnosticSink, fallback: Range): void {
  for (const test of tests) {
    checkPlaces(test, sink, fallback);
    if (!isReplyDrivenTest(test)) continue;
    const at = test.commands.find((c) => c.command.args.some((arg) => replyPlaceholderOf(arg)))?.command.source ?? fallback;
    if (load.pipeline > 1)
      sink.error(
        settings.pipeline ?? at,
        'reply-driven-pipeline',
        `a reply-driven command (\`__cursor__\`, \`__ids__\`, \`__sha(…)__\`) waits for its connection's previous reply, so \`pipeline ${load.pipeline}\` cannot fill it — use \`pipeline 1\` and more \`clients\` for more load`,
      );
    if (settings.client?.value === 'ioredis')
      sink.error(settings.client.range, 'reply-driven-client', 'reply-driven commands run on the fast client path only — remove `client ioredis`');
    if (settings.cluster?.value)
      sink.error(settings.cluster.range, 'reply-driven-cluster', 'reply-driven commands are not supported on a cluster target yet — run them against one node');
    if (load.rate !== undefined)
      sink.error(settings.rate ?? at, 'reply-driven-rate', 'reply-driven commands run in the closed loop (each waits for the previous reply) — remove `rate`');
    if (load.reconnectEvery !== undefined)
      sink.error(settings.reconnect ?? at, 'reply-driven-reconnect', 'reply-driven commands keep their state on one connection — remove `reconnect every`');
    for (const { command } of test.commands) {
      const other = command.args.flat().find((part) => typeof part === 'object' && !WRITTEN.has(part.placeholder));
      if (other && typeof other === 'object')
        sink.error(
          command.source ?? at,
          'reply-driven-placeholder',
          `\`${other.draw?.text ?? `__${other.placeholder}__`}\` is not supported in a test with reply-driven commands — use \`__key__\`, \`__rand_int__\`, \`__value__\` or \`__client__\`, or move this command to a test of its own`,
        );
    }
  }
}

/** Each reply-driven placeholder where its form puts it, as a whole argument. */
function checkPlaces(test: TestPlan, sink: DiagnosticSink, fallback: Range): void {
  test.commands.forEach(({ command }, index) => {
    const at = command.source ?? fallback;
    command.args.forEach((arg, position) => {
      if (arg.some((part) => typeof part === 'string' && part.includes('__sha(')))
        sink.error(at, 'sha-unclosed', '`__sha(` is not closed by `)__` in the same word — quote a script that holds spaces: `__sha("return 1")__`');
      const placeholder = replyPlaceholderOf(arg);
      if (!placeholder) return;
      const whole = arg.length === 1;
      if (placeholder === 'cursor' && (CURSOR_ARGUMENT[command.name] !== position || !whole)) {
        sink.error(
          at,
          'cursor-misplaced',
          '`__cursor__` is the cursor argument of SCAN, HSCAN, SSCAN or ZSCAN, on its own — write `SCAN __cursor__ MATCH k:* COUNT 100` or `HSCAN KEY __cursor__`',
        );
      } else if (placeholder === 'sha' && (!SHA_COMMANDS.has(command.name) || position !== 0 || !whole)) {
        sink.error(at, 'sha-misplaced', '`__sha(…)__` is the first argument of EVALSHA or EVALSHA_RO — write `EVALSHA __sha("return 1")__ 0`');
      } else if (placeholder === 'sha' && !(arg[0] as { script?: string }).script?.trim()) {
        sink.error(at, 'sha-empty-script', '`__sha()__` names no script — write its text inside: `__sha("return 1")__`');
      } else if (placeholder === 'ids') {
        const afterRead = test.group !== undefined && test.commands.slice(0, index).some((c) => c.command.name === IDS_SOURCE);
        if (command.name !== IDS_TARGET || position < 2 || !whole)
          sink.error(at, 'ids-misplaced', '`__ids__` is the list of IDs XACK acknowledges, after its key and group — write `XACK s g __ids__`');
        else if (!afterRead)
          sink.error(
            at,
            'ids-without-xreadgroup',
            '`__ids__` acks the IDs an XREADGROUP returned just before on the same connection — put `XREADGROUP GROUP g c COUNT 10 STREAMS s >` and this XACK in one `group … end`, the XREADGROUP first',
          );
      }
    });
  });
}
