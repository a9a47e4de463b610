// client-starved: the client's busiest thread had work but waited for a core other processes held
// (issue 20, seen 4): a client limit too, though its own CPU time looks low.
import type { BottleneckJudge } from './judge';
import { cpuGotShare } from './clientLoad';
import { percent } from './figures';

/** The busiest thread had work this share of the time or more… */
export const STARVED_BUSY_SHARE = 0.5;
/** …and waited, runnable, for a core this share of the window or more. */
export const STARVED_WAIT_SHARE = 0.25;

export const clientStarved: BottleneckJudge = {
  kind: 'client-starved',
  description:
    "RBench's thread had work but waited for a core that other processes held: a client limit, though its CPU time looks low. Free the machine or run the client elsewhere.",
  judge: ({ load, windowMs }) => {
    const { health } = load;
    const got = cpuGotShare(health, windowMs);
    const busy = health.eventLoopUtilization;
    if (got === undefined || busy === undefined || !health.threadCpu) return undefined;
    const waited = health.threadCpu.runnableWaitMs / windowMs;
    if (busy < STARVED_BUSY_SHARE || waited < STARVED_WAIT_SHARE) return undefined;
    return `the client was busy ${percent(busy)} of the time but got ${percent(got)} of a core (it waited ${percent(waited)} of the window for one): other processes took the CPU`;
  },
};
