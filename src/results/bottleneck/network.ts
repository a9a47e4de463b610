// network: the path lost packets. A lost TCP segment of a request-reply exchange (one segment in flight, no
// later data to trigger a fast retransmit) is sent again after a retransmission timeout of at least the
// RTO's minimum (200 ms on Linux) or a tail-loss probe (2 round trips + 200 ms with one segment out): the
// requests behind it wait that long. When more than 1 % of the requests did (the p99 at that length) the
// tail is the network's, and more clients or a deeper pipeline do not remove it; a max alone is a note. The counters are the host's (its network namespace), not
// the load's sockets alone: the line says so.
import type { TcpCounters } from '../../engine';
import type { BottleneckJudge } from './judge';
import { count, micros } from './figures';

/** Linux's TCP_RTO_MIN: the shortest wait before a segment whose ACK did not come is sent again. */
export const RTO_MIN_MS = 200;

/** The retransmits and how they were sent again: `275 of 13,492 TCP segments were retransmitted on this host during the test (…)`. */
function retransmitted(tcp: TcpCounters): string {
  const how = [
    tcp.timeouts !== undefined ? `${count(tcp.timeouts)} retransmission timeouts` : '',
    tcp.lossProbes !== undefined ? `${count(tcp.lossProbes)} tail-loss probes` : '',
  ].filter(Boolean);
  const timeouts = how.length > 0 ? ` (${how.join(', ')}, each a wait of ≥ ${RTO_MIN_MS} ms)` : '';
  return `${count(tcp.retransmits)} of ${count(tcp.segments)} TCP segments were retransmitted on this host during the test${timeouts}`;
}

export const network: BottleneckJudge = {
  kind: 'network',
  description:
    'The path lost packets: TCP retransmitted segments after waits of at least 200 ms (timeouts, tail-loss probes), and the p99 is that wait. Fix the loss; more clients or pipelining do not remove it.',
  // A p99 at a resend's wait: more than 1 % of the requests waited for one.
  judge: ({ load }) => {
    const { tcp } = load;
    const { p99Us, maxUs } = load.total.latency;
    if (!tcp || tcp.retransmits === 0 || p99Us < RTO_MIN_MS * 1000) return undefined;
    return `${retransmitted(tcp)}: p99 ${micros(p99Us)}, max ${micros(maxUs)} — packets were lost on the path and the tail is the wait for their resend; fix the loss, more clients or pipelining will not remove it`;
  },
  // Only the max that long: a few requests waited for a resend (or the host's other traffic resent): named, not the cause.
  note: ({ load }) => {
    const { tcp } = load;
    const { p99Us, maxUs } = load.total.latency;
    if (!tcp || tcp.retransmits === 0 || p99Us >= RTO_MIN_MS * 1000 || maxUs < RTO_MIN_MS * 1000) return undefined;
    return `${retransmitted(tcp)}, and the max was ${micros(maxUs)}: a resend's wait for a few requests, under 1 % of them (p99 ${micros(p99Us)})`;
  },
};
