// machine-cpu: the client and the server share this machine's cores and both waited for one longer than
// they ran and than they slept: neither side set the pace, the machine's CPU did (other processes, or the
// two of them on too few cores).
import type { BottleneckJudge } from './judge';
import { clientSide, machineStarved, serverSide } from './cpuShares';

export const machineCpu: BottleneckJudge = {
  kind: 'machine-cpu',
  description:
    'The client and the server both waited for a core longer than they ran: the machine they share was short of CPU, not either side. Stop other work, or run them on separate cores or machines.',
  judge: (evidence) => {
    if (!machineStarved(evidence)) return undefined;
    return `${clientSide(evidence)!.text}; ${serverSide(evidence)!.text}: both waited for a core at least as long as they ran — the machine's CPU set the pace; stop other work or give each its own cores`;
  },
};
