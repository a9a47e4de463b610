// What the cluster engine tests check of every cluster load.
import assert from 'node:assert/strict';
import type { LoadResult } from '../../../src/engine/types';
import { reshard, type ClusterNode, type TestCluster } from '../../helpers/cluster';

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

/** The load `running`, with `node` frozen (SIGSTOP) `afterMs` into it and thawed once it ended. */
export async function withNodeFrozen(node: ClusterNode, afterMs: number, running: Promise<LoadResult>): Promise<LoadResult> {
  await new Promise((resolve) => setTimeout(resolve, afterMs));
  node.process.kill('SIGSTOP');
  try {
    return await running;
  } finally {
    node.process.kill('SIGCONT');
  }
}

/** The load `start` begins, with 300 slots moved (`redis-cli --cluster reshard`) from master `step` to the next, a second into it. */
export async function withReshard(cluster: TestCluster, step: number, start: () => Promise<LoadResult>): Promise<LoadResult> {
  const { masters } = await cluster.roles();
  const [from, to] = await Promise.all([masters[step], masters[step + 1]].map((port) => cluster.client(port).cluster('MYID') as Promise<string>));
  const running = start();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await reshard(cluster.nodes[0].port, from, to, 300);
  return running;
}
