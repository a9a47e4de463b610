// An engine thread's heap (issue 46: memory near the C tools). The fast single-node path runs its worker with a
// 2 MB young generation (V8 would grow it to 8 MB); the paths that allocate per reply keep V8's default. Observed
// from inside the run's own threads by a preload (test/helpers/heapRecorder.ts).
import assert from 'node:assert/strict';
import { useRedisServer } from '../../helpers/redis';
import { runCli, useScratch } from '../../helpers/cli';
import { heapByThread, heapRecorderOptions, type ThreadHeap } from '../../helpers/heapRecorder';
import { LEAN_YOUNG_GENERATION_MB, workerResourceLimits } from '../../../src/engine/workerHeap';
import type { WorkerConfig } from '../../../src/engine/workerMessages';

describe('the engine thread heap (issue 46)', function () {
  this.timeout(90_000);
  const server = useRedisServer();
  const scratch = useScratch();

  /** The heaps of the run's engine threads, `count` of them. */
  async function engineThreads(scenario: string, count = 1): Promise<ThreadHeap[]> {
    const file = scratch.write('heap.rbench', scenario);
    const run = await runCli(['run', '--yes', file, '--url', server().url, '--quiet', '--out', 'runs'], {
      cwd: scratch.dir,
      env: { NODE_OPTIONS: heapRecorderOptions(scratch) },
    });
    assert.equal(run.code, 0, run.stderr);
    const engine = [...heapByThread(run.stderr)].filter(([id]) => id !== 0);
    assert.equal(engine.length, count, `${count} engine threads, got ${engine.length}`);
    return engine.map(([, heap]) => heap);
  }

  it('a fast-path run: each engine thread has a 2 MB young generation, and V8 never grows its new space past it', async () => {
    // 200k requests on two threads (the CLI runs a one-thread load on its own thread): enough scavenges for V8 to
    // grow a default new space.
    const heaps = await engineThreads('### lean\nthreads 2\nclients 8\npipeline 16\nrequests 200000\nkeys 1000 uniform\nGET heap:__key__\n', 2);
    for (const heap of heaps) {
      assert.equal(heap.youngMb, LEAN_YOUNG_GENERATION_MB);
      assert.ok(heap.largestNewSpace <= LEAN_YOUNG_GENERATION_MB * 1048576, `new space reached ${heap.largestNewSpace} bytes`);
    }
  });

  it('an ioredis run keeps V8 default young generation (ioredis allocates per reply: scavenges would cost CPU)', async () => {
    // 4,000 requests: past a small load, so in a worker even in the CLI (whose own thread's young generation is small).
    const [heap] = await engineThreads('### io\nclient ioredis\nthreads 1\nclients 4\nrequests 4000\nGET heap:__key__\n');
    assert.ok(heap.youngMb > LEAN_YOUNG_GENERATION_MB, `ioredis worker's young generation: ${heap.youngMb} MB`);
  });

  it('the rule: lean for the fast path with pre-encoded requests, on one node or a cluster', () => {
    const base = { client: 'fast', test: { commands: [] } } as unknown as WorkerConfig;
    const lean = { maxYoungGenerationSizeMb: LEAN_YOUNG_GENERATION_MB };
    assert.deepEqual(workerResourceLimits(base), lean);
    assert.deepEqual(workerResourceLimits({ ...base, cluster: {} as WorkerConfig['cluster'] }), lean);
    assert.equal(workerResourceLimits({ ...base, client: 'ioredis' }), undefined);
    assert.equal(workerResourceLimits({ ...base, client: 'ioredis', cluster: {} as WorkerConfig['cluster'] }), undefined);
  });
});
