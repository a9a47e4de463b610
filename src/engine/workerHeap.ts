// The heap an engine worker is given. The fast path, on one node or a cluster, allocates almost nothing per request
// (batches are pre-encoded, replies counted in place, a cluster's draws queued in typed arrays), so a young
// generation of 2 MB (V8 grows it to 8 MB by default) costs it no measurable CPU and saves ~6–10 MiB of resident
// memory per worker (issue 46, bench/memory-flat.mjs; GET P16 on a 3-master cluster, two threads: 101 against
// 113 MiB, CPU the same or less). The other paths allocate per reply (ioredis, reply-driven commands) and keep
// V8's default: ioredis with 2 MB spent visibly more CPU in scavenges.
import type { ResourceLimits } from 'node:worker_threads';
import { isReplyDrivenTest } from '../scenario/replyForms';
import type { WorkerConfig } from './workerMessages';

export const LEAN_YOUNG_GENERATION_MB = 2;

/** The worker's resourceLimits: a small young generation for the fast path, V8's defaults otherwise. */
export function workerResourceLimits(config: WorkerConfig): ResourceLimits | undefined {
  const lean = config.client === 'fast' && !isReplyDrivenTest(config.test);
  return lean ? { maxYoungGenerationSizeMb: LEAN_YOUNG_GENERATION_MB } : undefined;
}
