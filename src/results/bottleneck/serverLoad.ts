// The server's CPU as the verdicts read it: its main thread where the server tells, else the process; on a
// cluster, the busiest master.
import type { ServerDelta } from '../../redis/types';

export interface ServerCpu {
  percent: number;
  /** `the server's main thread`, `the server process`, `the busiest master (10.0.0.1:6379)`. */
  what: string;
}

export function serverCpu(server: ServerDelta | undefined): ServerCpu | undefined {
  if (!server) return undefined;
  const nodes = (server.byNode ?? []).filter((node) => node.cpuPercent !== undefined);
  if (server.nodes > 1 && nodes.length > 0) {
    const busiest = nodes.reduce((a, b) => (b.cpuPercent! > a.cpuPercent! ? b : a));
    return { percent: busiest.cpuPercent!, what: `the busiest master (${busiest.node})` };
  }
  if (server.mainThreadCpuPercent !== undefined) return { percent: server.mainThreadCpuPercent, what: "the server's main thread" };
  if (server.cpuPercent !== undefined) return { percent: server.cpuPercent, what: 'the server process' };
  return undefined;
}
