// slow-commands: commands slow enough for the server's SLOWLOG ran during the test, holding up the rest.
import type { BottleneckJudge } from './judge';
import { count, micros } from './figures';

export const slowCommands: BottleneckJudge = {
  kind: 'slow-commands',
  description: "Commands past the server's slowlog-log-slower-than ran during the test: while one runs, every other client waits.",
  judge: ({ server }) => {
    const slowlog = server?.slowlog;
    if (!slowlog || slowlog.entries === 0) return undefined;
    const slowest = slowlog.slowest ? `, the slowest ${slowlog.slowest.command} ${micros(slowlog.slowest.usec)}` : '';
    return `${count(slowlog.entries)} new SLOWLOG entr${slowlog.entries === 1 ? 'y' : 'ies'}${slowest}`;
  },
};
