// round-trip: both sides demonstrably idle — the scheduler's accounting of the client's thread and of a
// local server's main thread shows neither saturated (cpuShares.ts) and neither waiting for a core as long
// as it ran or as long as it slept — so a request's time went on the way there and back, and more clients or a deeper pipeline
// raise throughput. Where either side's accounting is missing (a remote server, no schedstat) it does not
// hold: the fallback names what is missing instead. Nor in an open loop that answered its rate: the schedule
// set the pace, which more clients or a deeper pipeline cannot raise.
import type { BottleneckJudge, Evidence } from './judge';
import { clientSaturated, clientSide, inFlight, serverSaturated, serverSide, work } from './cpuShares';
import { count, micros } from './figures';
import { LATE_TAIL_SHARE } from './lateSends';

/**
 * An open loop whose server answered what was offered (within the share late-sends allows): the rate the
 * scenario set is the throughput, so nothing on the path or either side limited it.
 */
export function keptRate({ load, windowMs }: Evidence): { offered: number; answered: number; text: string } | undefined {
  const open = load.openLoop;
  if (!open || windowMs <= 0) return undefined;
  const answered = (load.total.latency.count * 1000) / windowMs;
  if (answered < open.targetRate * (1 - LATE_TAIL_SHARE)) return undefined;
  return {
    offered: open.targetRate,
    answered,
    text: `the open loop answered ${count(answered)}/s of ${count(open.targetRate)}/s offered: its schedule set the pace, which more clients or pipelining cannot raise`,
  };
}

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
    'Neither the client nor the server was busy or waiting for a core: a request spent its time on the way there and back, so the round trip set the pace. Add clients or pipeline.',
  judge: (evidence) => {
    const client = clientSide(evidence);
    const server = serverSide(evidence);
    if (!client?.shares || !server?.shares || keptRate(evidence)) return undefined;
    // Idle: it waited less than it ran and less than it slept (the wait for a core was neither where its work nor its
    // time went), and with several requests in flight it slept at least as long as it had work — with one, the sides
    // take turns, so each is busy part of every turn whatever the path (on loopback its CPU time holds the path's).
    const single = inFlight(evidence) === 1;
    const ranMore = (side: typeof client) =>
      side.shares!.wait < side.shares!.run && side.shares!.wait < side.shares!.idle && (single || side.shares!.idle >= side.busy);
    const saturated = clientSaturated(evidence, client) || serverSaturated(evidence, server, work(client));
    if (saturated || !ranMore(client) || !ranMore(server) || evidence.load.health.bottleneck === 'client') return undefined;
    const split = latencySplit(evidence);
    const mark = single ? 'one request in flight' : 'each slept at least half the window';
    return `${client.text}; ${server.text} (${mark}; each ran and slept longer than it waited for a core)${split ? `; ${split.text}` : ''}: the round trip sets the pace — add clients or pipeline`;
  },
};
