// server-cpu: the server's main thread (Redis runs commands on one) near a full core.
import type { BottleneckJudge } from './judge';
import { micros } from './figures';
import { serverCpu as readServerCpu } from './serverLoad';

/** % of one core at or above which the server is the limit. */
export const SERVER_CPU_PERCENT = 90;

export const serverCpu: BottleneckJudge = {
  kind: 'server-cpu',
  description: "The server's main thread ran near a full core: the server set the pace. Cheaper commands, pipelining or more shards raise it.",
  judge: ({ server }) => {
    const cpu = readServerCpu(server);
    if (!cpu || cpu.percent < SERVER_CPU_PERCENT) return undefined;
    const perCall = server!.usecPerCall !== undefined ? `, ${micros(server!.usecPerCall)} per call in the server` : '';
    return `${cpu.what} used ${Math.round(cpu.percent)} % of a core${perCall}: the server set the pace`;
  },
};
