// Which primary a Sentinel target's run measured: the address the sentinels named when it started, then each
// one a failover moved it to. For the CLI's summary and the results panel's target line.
import type { RunFile } from './runFile';

/** `127.0.0.1:6380`, or `127.0.0.1:6380, then 127.0.0.1:6381 after a failover`; undefined for other targets. */
export function primaryDescription(run: RunFile): string | undefined {
  const primaries = run.target.primaries;
  if (!primaries || primaries.length === 0) return undefined;
  const [first, ...later] = primaries;
  if (later.length === 0) return first;
  return `${first}, then ${later.join(', then ')} after ${later.length === 1 ? 'a failover' : `${later.length} failovers`}`;
}

/** The CLI's line: `sentinel primary: …`. */
export function primaryLine(run: RunFile): string | undefined {
  const description = primaryDescription(run);
  return description && `sentinel primary: ${description}`;
}
