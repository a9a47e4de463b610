// persistence: the server forked (BGSAVE, AOF rewrite) during the test: the fork stops the main thread and
// the child competes for CPU and memory bandwidth.
import type { BottleneckJudge } from './judge';
import { count, micros } from './figures';

export const persistence: BottleneckJudge = {
  kind: 'persistence',
  description: 'The server forked for a snapshot (BGSAVE) or an AOF rewrite during the test: the fork paused it and the child competed for the machine.',
  judge: ({ server, events }) => {
    const saves = events.filter((event) => event.kind === 'bgsave-start').length;
    const rewrites = events.filter((event) => event.kind === 'aof-rewrite-start').length;
    const named = [saves ? `${count(saves)} BGSAVE` : '', rewrites ? `${count(rewrites)} AOF rewrite${rewrites === 1 ? '' : 's'}` : '']
      .filter(Boolean)
      .join(' and ');
    const forks = server?.forks ?? 0;
    if (forks === 0 && !named) return undefined;
    const forked = forks > 0 ? `the server forked ${count(forks)}× during the test` : 'the server persisted during the test';
    const forkTime = forks > 0 && server?.forkUsec !== undefined ? `, the fork took ${micros(server.forkUsec)}` : '';
    return `${forked}${named ? ` (${named})` : ''}${forkTime}`;
  },
};
