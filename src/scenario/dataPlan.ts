// A phase's tests with what its data lines add: the expiry of `ttl` (ttlPlan.ts), and the check that a
// command using `__fields__` has a `fields from FILE` to draw them from. Run once per phase (not per sweep point).
import { rangeOf, type DiagnosticSink } from './diagnostics';
import type { TestPlan } from './plan';
import type { Layer } from './settingLayer';
import { mixWritesWithoutTtl, testsWithTtl } from './ttlPlan';

export function testsWithData(tests: TestPlan[], layer: Layer, sink: DiagnosticSink): TestPlan[] {
  for (const test of tests)
    for (const { command } of test.commands) {
      const embedded = command.args.some((arg) => arg.length > 1 && arg.some((part) => typeof part !== 'string' && part.placeholder === 'fields'));
      if (embedded)
        sink.error(
          command.source ?? rangeOf(0, 0, 0),
          'fields-inside-argument',
          '`__fields__` stands for several arguments (field value field value …) — write it as an argument of its own: `HSET user:__key__ __fields__`',
        );
    }
  if (!layer.has('fields')) {
    for (const test of tests)
      for (const { command } of test.commands) {
        if (!command.args.some((arg) => arg.some((part) => typeof part !== 'string' && part.placeholder === 'fields'))) continue;
        sink.error(
          command.source ?? rangeOf(0, 0, 0),
          'fields-without-file',
          '`__fields__` needs a data file — add `fields from FILE` (a CSV with a header, or JSON Lines objects) to the scenario',
        );
      }
  }
  const ttl = layer.get('ttl');
  if (!ttl) return tests;
  for (const command of mixWritesWithoutTtl(tests, ttl.value)) {
    sink.warning(
      command.source ?? ttl.range,
      'ttl-not-applied',
      `\`ttl\` is not applied to ${command.name} in a weighted mix (only SET and GETEX take an expiry option there) — give it a test of its own, or a \`group\` with an EXPIRE`,
    );
  }
  return testsWithTtl(tests, ttl.value);
}
