// What a run left on the server, in one sentence for the CLI and the editor alike (src/runner/leftKeys.ts counts).
import type { RunFile } from './runFile';
import { count } from './bottleneck/figures';

/**
 * `cleanup user:* left alone 2 matching keys the run did not create…`, then
 * `left 1,000 keys matching bench:*; add `cleanup bench:*` to remove them after a run`, one line per pattern;
 * a pattern the scenario's `cleanup` already names gets no advice (its keys came back, or cleanup failed).
 */
export function leftKeysLines(run: Pick<RunFile, 'leftKeys' | 'plan' | 'cleanupLeftAlone'>): string[] {
  const leftAlone = run.cleanupLeftAlone ?? 0;
  // The clean-up of a server that is not a throwaway one deletes the run's own keys only (docs/safety.md).
  const alone =
    leftAlone > 0
      ? [
          `\`cleanup ${run.plan.cleanup}\` left alone ${count(leftAlone)} matching key${leftAlone === 1 ? '' : 's'} the run did not create; \`--allow-destructive\` deletes every match`,
        ]
      : [];
  return alone.concat(leftKeysList(run));
}

function leftKeysList(run: Pick<RunFile, 'leftKeys' | 'plan'>): string[] {
  return (run.leftKeys ?? [])
    .filter((left) => left.count > 0)
    .map((left) => {
      const keys = `${left.capped ? 'at least ' : ''}${count(left.count)} key${left.count === 1 && !left.capped ? '' : 's'}`;
      const advice = run.plan.cleanup === left.pattern ? '' : `; add \`cleanup ${left.pattern}\` to remove them after a run`;
      return `left ${keys} matching ${left.pattern}${advice}`;
    });
}
