// server-cpu: the server set the pace by the utilization law: its main thread (Redis runs commands on one)
// had work nearly all the window — saturated with the test's connections (cpuShares.ts) — whatever its CPU
// percent, which a server sharing a machine never brings near a full core; or it was starved of a core
// while the client was not, so its side held the test up.
import type { BottleneckJudge } from './judge';
import { bothBusy, clientSide, machineStarved, reliefBound, saturationText, serverSaturated, serverSide, singleTurn, work } from './cpuShares';
import { micros } from './figures';

export const serverCpu: BottleneckJudge = {
  kind: 'server-cpu',
  description:
    "The server's main thread had work nearly all the time (it ran, or waited for a core): the server set the pace. Cheaper commands, pipelining or more shards raise it; where it waited for a core, a machine of its own does.",
  judge: (evidence) => {
    const server = serverSide(evidence);
    if (!server || machineStarved(evidence)) return undefined;
    const clientCpu = clientSide(evidence);
    const client = clientCpu ? work(clientCpu) : evidence.load.health.eventLoopUtilization;
    const both = bothBusy(evidence);
    if (!server.starved && !serverSaturated(evidence, server, client) && !both) return undefined;
    const perCall = evidence.server!.usecPerCall !== undefined ? `, ${micros(evidence.server!.usecPerCall)} per call in the server` : '';
    const waited = server.shares && server.shares.wait >= server.shares.run;
    if (both && !waited) return `${server.text}${perCall}; the client was busy too: ${reliefBound(both.client, 'server')}`;
    const single = singleTurn(evidence, server);
    if (!waited && single) return `${server.text}${perCall}; ${single}: the server set the pace`;
    const cause = waited
      ? 'it waited for a core at least as long as it ran: other processes on its machine slowed the server, which set the pace'
      : `busy at least ${saturationText(evidence)}: the server set the pace`;
    return `${server.text}${perCall}; ${cause}`;
  },
};
