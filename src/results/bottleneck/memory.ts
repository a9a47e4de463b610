// memory: the server ran out of room: it evicted keys (maxmemory with an eviction policy) or refused
// writes with OOM.
import { ownValue } from '../../gates/plainData';
import type { BottleneckJudge } from './judge';
import { count } from './figures';

export const memory: BottleneckJudge = {
  kind: 'memory',
  description: 'The server reached maxmemory: it evicted keys to make room, or refused writes with OOM errors. Raise maxmemory or shrink the data.',
  judge: ({ load, server }) => {
    const evicted = server?.evictedKeys ?? 0;
    const oom = ownValue(load.total.errorsByKind, 'OOM') ?? 0;
    if (evicted === 0 && oom === 0) return undefined;
    const parts = [evicted ? `the server evicted ${count(evicted)} keys` : '', oom ? `refused ${count(oom)} writes with OOM` : ''].filter(Boolean);
    return `${parts.join(' and ')}: it reached maxmemory`;
  },
};
