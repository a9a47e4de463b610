// round-trip: neither side busy while each request took far longer at the client than in the server: the
// time went on the way there and back (network, queueing in the kernel), so more clients or a deeper
// pipeline raise throughput.
import type { BottleneckJudge, Evidence } from './judge';
import { micros, percent } from './figures';
import { serverCpu } from './serverLoad';

/** The server below this % of a core is not busy. */
export const SERVER_IDLE_PERCENT = 75;
/** Client latency at least this many times the server's time per call: the round trip dominates. */
export const ROUND_TRIP_FACTOR = 10;

/** `p50 410 µs at the client, 3.1 µs in the server`, when both are known. */
export function latencySplit({ load, server }: Evidence): { clientUs: number; serverUs: number; text: string } | undefined {
  if (server?.usecPerCall === undefined || load.total.latency.count === 0) return undefined;
  const clientUs = load.total.latency.p50Us;
  return { clientUs, serverUs: server.usecPerCall, text: `p50 ${micros(clientUs)} at the client, ${micros(server.usecPerCall)} in the server` };
}

export const roundTrip: BottleneckJudge = {
  kind: 'round-trip',
  // A fork, evictions or another client during the test explain more than "the network was the limit".
  residual: true,
  description:
    'Neither the client nor the server was busy, and a request took far longer at the client than in the server: the round trip set the pace. Add clients or pipeline.',
  judge: (evidence) => {
    const split = latencySplit(evidence);
    const cpu = serverCpu(evidence.server);
    const client = evidence.load.health;
    if (!split || !cpu || cpu.percent >= SERVER_IDLE_PERCENT || client.bottleneck !== 'server') return undefined;
    if (split.clientUs < ROUND_TRIP_FACTOR * Math.max(split.serverUs, 0.1)) return undefined;
    const clientBusy = client.eventLoopUtilization !== undefined ? `, the client ${percent(client.eventLoopUtilization)} busy` : '';
    return `${split.text} (${cpu.what} at ${Math.round(cpu.percent)} % of a core${clientBusy}): the round trip sets the pace — add clients or pipeline`;
  },
};
