// The commands a publisher group sends: its replies are the number of subscribers each message reached
// (summed by the engine into the deliveries its subscriber groups should count). No imports: the engine's
// plan reads it, and the worker bundle must stay small.
import type { TestPlan } from './plan';

export const PUBLISH_COMMANDS: ReadonlySet<string> = new Set(['PUBLISH', 'SPUBLISH']);

/** True when every command of the test publishes (a publisher group). */
export function isPublishTest(test: TestPlan): boolean {
  return !test.group && test.commands.length > 0 && test.commands.every(({ command }) => PUBLISH_COMMANDS.has(command.name.toUpperCase()));
}

/** True when every command of the test publishes to a shard channel (SPUBLISH: a key, routed by its slot). */
export function isShardPublishTest(test: TestPlan): boolean {
  return isPublishTest(test) && test.commands.every(({ command }) => command.name.toUpperCase() === 'SPUBLISH');
}
