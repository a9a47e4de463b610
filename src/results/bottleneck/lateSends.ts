// late-sends: an open loop's requests went out after their intended time. Their latency counts from that time
// (coordinated omission corrected), so once more than 1 % of them are late the lateness is in p99: the tail
// is the schedule's, not the round trip's. Either the server answered fewer than were offered (above its
// capacity: the requests queued for a free connection), or it kept up and the client's own sending lagged.
import type { BottleneckJudge } from './judge';
import { count, micros, percent } from './figures';

/** More than this share of the requests late: the lateness is in the 99th percentile. */
export const LATE_TAIL_SHARE = 0.01;

export const lateSends: BottleneckJudge = {
  kind: 'late-sends',
  description:
    "An open loop sent more than 1 % of its requests after their time, and their latency counts from it: the tail is the schedule's. Above the server's capacity lower the rate; below it, the client lagged — give it CPU or threads, not more clients.",
  judge: ({ load, windowMs }) => {
    const share = load.health.lateShare;
    const open = load.openLoop;
    if (!open || share === undefined || share <= LATE_TAIL_SHARE) return undefined;
    const late = `${percent(share)} of the requests went out late (${count(open.lateSends)}), their latency counted from their time: p99 ${micros(load.total.latency.p99Us)}`;
    const offered = open.targetRate;
    const answered = windowMs > 0 ? (load.total.latency.count * 1000) / windowMs : 0;
    // Utilization law: a server answering fewer than were offered is at its capacity, and the rest queue.
    if (answered < offered * (1 - LATE_TAIL_SHARE)) {
      return `${late}; ${count(offered)}/s offered, ${count(answered)}/s answered: above the server's capacity the requests queued — lower the rate`;
    }
    return `${late}; ${count(answered)}/s answered of ${count(offered)}/s offered: the server kept up, the client's sending lagged — give the client CPU or threads, not more clients`;
  },
};
