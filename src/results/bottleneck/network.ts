// network: the path lost packets. A lost TCP segment of a request-reply exchange (one segment in flight, no
// later data to trigger a fast retransmit) is sent again after a retransmission timeout of at least the
// RTO's minimum (200 ms on Linux) or a tail-loss probe (2 round trips + 200 ms with one segment out): the
// requests behind it wait that long, so retransmits with a tail at that length are the network's, and more
// clients or a deeper pipeline do not remove it. The counters are the host's (its network namespace), not
// the load's sockets alone: the line says so.
import type { BottleneckJudge } from './judge';
import { count, micros } from './figures';

/** Linux's TCP_RTO_MIN: the shortest wait before a segment whose ACK did not come is sent again. */
export const RTO_MIN_MS = 200;

export const network: BottleneckJudge = {
  kind: 'network',
  description:
    'The path lost packets: TCP retransmitted segments after waits of at least 200 ms (timeouts, tail-loss probes), and the tail (p99, max) is that wait. Fix the loss; more clients or pipelining do not remove it.',
  judge: ({ load }) => {
    const tcp = load.tcp;
    if (!tcp || tcp.retransmits === 0) return undefined;
    const { p99Us, maxUs } = load.total.latency;
    // Without a tail as long as a timeout the retransmissions were recovered fast (or were other traffic's).
    if (maxUs < RTO_MIN_MS * 1000) return undefined;
    const how = [
      tcp.timeouts !== undefined ? `${count(tcp.timeouts)} retransmission timeouts` : '',
      tcp.lossProbes !== undefined ? `${count(tcp.lossProbes)} tail-loss probes` : '',
    ].filter(Boolean);
    const timeouts = how.length > 0 ? ` (${how.join(', ')}, each a wait of ≥ ${RTO_MIN_MS} ms)` : '';
    return (
      `${count(tcp.retransmits)} of ${count(tcp.segments)} TCP segments were retransmitted on this host during the test${timeouts}: ` +
      `p99 ${micros(p99Us)}, max ${micros(maxUs)} — packets were lost on the path and the tail is the wait for their resend; fix the loss, more clients or pipelining will not remove it`
    );
  },
};
