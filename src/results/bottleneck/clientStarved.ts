// client-starved: the client's thread had work but waited for a core other processes held, longer than it
// ran and longer than it slept (issue 20, seen 4; issue 41, seen 1): a client limit, though its CPU time and
// its event loop look idle — time waiting for a core counts as idle there. When the server waited for a core
// as long as it ran too, the machine is the limit (machine-cpu).
import type { BottleneckJudge } from './judge';
import { clientSide, machineStarved } from './cpuShares';

export const clientStarved: BottleneckJudge = {
  kind: 'client-starved',
  description:
    "RBench's thread had work but waited for a core that other processes held: a client limit, though its CPU time looks low. Free the machine or run the client elsewhere.",
  judge: (evidence) => {
    const client = clientSide(evidence);
    if (!client?.starved || machineStarved(evidence)) return undefined;
    return `${client.text}: it waited for a core at least as long as it ran, so the scheduler gave it at most half the CPU it had work for — other processes took the CPU; free the machine or run the client elsewhere`;
  },
};
