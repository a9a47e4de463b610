// Issue 20, seen 4: a client busy but starved of CPU by other processes is not "server"-bound. The
// engine's three-way `health.bottleneck` says `unknown` for it (src/results/bottleneck names the kind).
import assert from 'node:assert/strict';
import { bottleneck } from '../../../src/engine/verdicts';
import type { WorkerResult } from '../../../src/engine/workerMessages';

const worker = (extra: Partial<WorkerResult>): WorkerResult => ({
  status: 'complete',
  labels: [],
  durationMs: 1000,
  drainMs: 0,
  scheduledSends: 0,
  sent: [],
  opened: 50,
  reconnects: 0,
  lateSends: 0,
  eventLoopUtilization: 0.6,
  eventLoopLagP99Ms: 1,
  unanswered: 0,
  ...extra,
});

describe('the engine’s bottleneck call on a starved client', () => {
  it('event loop 60 % busy, 21 % of a core, waiting for one longer than it ran: not `server`', () => {
    const starved = worker({ threadCpuMs: 210, threadCpu: { runMs: 210, runnableWaitMs: 600 } });
    assert.equal(bottleneck([starved], 1000, 1, 21, undefined), 'unknown');
  });

  it('the same CPU share with no wait for a core: the server set the pace', () => {
    const idle = worker({ eventLoopUtilization: 0.3, threadCpuMs: 210, threadCpu: { runMs: 210, runnableWaitMs: 5 } });
    assert.equal(bottleneck([idle], 1000, 1, 21, undefined), 'server');
  });

  it('a thread near a full core is still the client', () => {
    const busy = worker({ eventLoopUtilization: 0.98, threadCpuMs: 960, threadCpu: { runMs: 960, runnableWaitMs: 990 } });
    assert.equal(bottleneck([busy], 1000, 1, 97, undefined), 'client');
  });
});

describe('the engine’s bottleneck call: starvation by the scheduler’s accounting alone (issue 41, seen 1)', () => {
  it('a thread capped at 20 % of a core: its event loop looks 30 % busy, it waited 60 % for a core — not `server`', () => {
    const capped = worker({ eventLoopUtilization: 0.3, threadCpuMs: 180, threadCpu: { runMs: 180, runnableWaitMs: 600 } });
    assert.equal(bottleneck([capped], 1000, 1, 18, undefined), 'unknown');
  });

  it('a thread that mostly slept, its few wakeups waiting a little longer than they ran: `server` still', () => {
    const sleeper = worker({ eventLoopUtilization: 0.1, threadCpuMs: 50, threadCpu: { runMs: 50, runnableWaitMs: 60 } });
    assert.equal(bottleneck([sleeper], 1000, 1, 5, undefined), 'server');
  });
});
