// What a live test starts (a load, a `redis-cli` reshard) ends with the test: an afterEach aborts it and waits for
// it. Mocha's timeout fails a test but does not stop what it started; a load left running would go on writing to
// the servers and break the next test's exact counts.

export interface TestAbort {
  /** Aborted when the current test ends (passed, failed or timed out). */
  readonly signal: AbortSignal;
  /** `work`, awaited (settled) before the next test begins. */
  track<T>(work: Promise<T>): Promise<T>;
}

/** Call inside a `describe`: a fresh signal per test, aborted after it, and its tracked work awaited. */
export function useTestAbort(): () => TestAbort {
  let controller = new AbortController();
  let started: Promise<unknown>[] = [];
  beforeEach(() => {
    controller = new AbortController();
    started = [];
  });
  afterEach(async () => {
    controller.abort();
    await Promise.allSettled(started);
  });
  return () => ({
    signal: controller.signal,
    track: <T>(work: Promise<T>) => {
      started.push(work);
      return work;
    },
  });
}
