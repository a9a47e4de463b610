// What the cluster engine tests check of every cluster load.
import assert from 'node:assert/strict';
import type { LoadResult } from '../../../src/engine/types';
import { reshard, type ClusterNode, type TestCluster } from '../../helpers/cluster';
import { whenServerCalled } from '../../helpers/serverStall';
import type { TestAbort } from '../../helpers/testAbort';

export const seedOf = (cluster: TestCluster) => ({ host: '127.0.0.1', port: cluster.nodes[0].port });

/** Node totals add up to the load's total, requests and errors. */
export function assertNodesAddUp(result: LoadResult): void {
  const nodes = result.cluster!.nodes;
  assert.equal(
    nodes.reduce((sum, n) => sum + n.total.requests, 0),
    result.total.requests,
    'per-node requests add up to the total',
  );
  assert.equal(
    nodes.reduce((sum, n) => sum + n.total.errors, 0),
    result.total.errors,
    'per-node errors add up',
  );
}

/**
 * The load `running`, with `node` frozen (SIGSTOP) once it has run `calls` of the load's `command` (lower case), and
 * thawed once the load ended: at a point of the load's progress, not a wall-clock moment (on a busy machine the load
 * may not have connected by then).
 */
export async function withNodeFrozen(node: ClusterNode, command: string, calls: number, running: Promise<LoadResult>): Promise<LoadResult> {
  const frozen = whenServerCalled({ host: '127.0.0.1', port: node.port }, command, calls, running, async () => {
    node.process.kill('SIGSTOP');
  });
  try {
    const result = await running;
    assert.ok(await frozen, 'the node was frozen while the load ran');
    return result;
  } finally {
    node.process.kill('SIGCONT');
  }
}

/**
 * Loads `start` begins one after another (each given the test's abort signal) until a reshard has finished: 300 slots
 * moved (`redis-cli --cluster reshard`) from master `step` to the next, begun once the masters have run 1,000 of a
 * load's `command` (lower case). The loads last as long as the migration, however slow the machine makes it, instead
 * of one load sized to outlast it on a fast machine. Every load's result, in order; the last one ran while the reshard
 * ended, unless a load failed (the loop stops there; the caller's assertions on each result say why).
 */
export async function duringReshard(
  cluster: TestCluster,
  step: number,
  command: string,
  abort: TestAbort,
  start: (signal: AbortSignal) => Promise<LoadResult>,
): Promise<LoadResult[]> {
  const { signal, track } = abort;
  const { masters } = await cluster.roles();
  const [from, to] = await Promise.all(
    [masters[step % masters.length], masters[(step + 1) % masters.length]].map((port) => cluster.client(port).cluster('MYID') as Promise<string>),
  );
  const results: LoadResult[] = [];
  let migration: Promise<void> | undefined;
  let migrated = false;
  while (!migrated && !signal.aborted) {
    const running = track(start(signal));
    if (!migration)
      await whenServerCalled(
        masters.map((port) => ({ host: '127.0.0.1', port })),
        command,
        1000,
        running,
        async () => {
          migration = track(reshard(cluster.nodes[0].port, from, to, 300, signal));
          migration.then(
            () => (migrated = true),
            () => (migrated = true),
          );
        },
      );
    const result = await running;
    results.push(result);
    if (result.status !== 'complete' && result.status !== 'complete-with-errors') break;
  }
  if (migration) await migration;
  return results;
}

/** The sum of `figure` over `results`. */
export const sumOf = (results: LoadResult[], figure: (result: LoadResult) => number): number => results.reduce((sum, result) => sum + figure(result), 0);
