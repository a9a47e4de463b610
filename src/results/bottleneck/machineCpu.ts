// machine-cpu: the client and the server share this machine's cores; one was starved (it waited for a core
// longer than it ran and than it slept) and the other waited at least as long as it ran: neither side set
// the pace, the machine's CPU did (other processes, or the two of them on too few cores).
import type { BottleneckJudge } from './judge';
import { clientSide, machineStarved, serverSide } from './cpuShares';

export const machineCpu: BottleneckJudge = {
  kind: 'machine-cpu',
  description:
    'The client and the server both waited for a core at least as long as they ran, one of them longer than it slept too: the machine they share was short of CPU, not either side. Stop other work, or run them on separate cores or machines.',
  judge: (evidence) => {
    if (!machineStarved(evidence)) return undefined;
    return `${clientSide(evidence)!.text}; ${serverSide(evidence)!.text}: both waited for a core at least as long as they ran — the machine's CPU set the pace; stop other work or give each its own cores`;
  },
};
