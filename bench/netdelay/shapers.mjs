// The one table of packet shapers for bench/physics.mjs: netem where the kernel has it, otherwise the
// NFQUEUE delayer. Each starts on a namespace and offers apply(condition), beginRun(), endRun(), close().
import { netemAvailable, startNetemShaper } from './shaper-netem.mjs';
import { startNfqueueShaper } from './shaper-nfqueue.mjs';

const SHAPERS = {
  netem: { available: netemAvailable, start: startNetemShaper },
  nfqueue: { available: async () => true, start: startNfqueueShaper },
};

/** `choice`: auto (netem if it works, else nfqueue), netem or nfqueue. */
export async function startShaper(ns, port, { choice = 'auto', ...options }) {
  if (choice !== 'auto' && !SHAPERS[choice]) throw new Error(`--shaper: "${choice}" is not a shaper; use auto, ${Object.keys(SHAPERS).join(' or ')}`);
  const names = choice === 'auto' ? Object.keys(SHAPERS) : [choice];
  for (const name of names) {
    if (await SHAPERS[name].available(ns)) return SHAPERS[name].start(ns, port, options);
    if (choice !== 'auto') throw new Error(`--shaper ${name}: not available on this kernel (no netem qdisc); use --shaper nfqueue`);
  }
  throw new Error('no packet shaper is available');
}
