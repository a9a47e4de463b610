// slow-commands: commands slow enough for the server's SLOWLOG ran during the test, holding up the rest —
// when they stand out from the test's own steady commands. A logged call of a command the test sent that
// took no longer than N of that command's average calls back to back (N requests in flight) is the test's
// own work queueing, not a cause: a busy server logs its steady commands too; so does one starved of a core.
import { ownValue } from '../../gates/plainData';
import type { BottleneckJudge } from './judge';
import { inFlight } from './cpuShares';
import { count, micros } from './figures';

export const slowCommands: BottleneckJudge = {
  kind: 'slow-commands',
  description:
    "Commands past the server's slowlog-log-slower-than, and slower than a round of the test's own calls, ran during the test: while one runs, every other client waits.",
  judge: (evidence) => {
    const { server } = evidence;
    const slowlog = server?.slowlog;
    if (!slowlog || slowlog.entries === 0) return undefined;
    const slowest = slowlog.slowest;
    const own = slowest && ownValue(server.sent ?? {}, slowest.command) !== undefined ? ownValue(server.commands, slowest.command) : undefined;
    const n = inFlight(evidence);
    if (slowest && own && own.usecPerCall > 0 && slowest.usec <= n * own.usecPerCall) return undefined;
    // SLOWLOG times a call by the wall clock: a server thread that waited for a core as long as it ran logs its own
    // cheap commands too, each holding one such wait — the server's starvation (server-cpu says so), not a slow command.
    const schedule = server.schedule;
    if (slowest && own && schedule && schedule.runnableWaitMs >= schedule.runMs) return undefined;
    const standsOut = own ? ` (its average ${micros(own.usecPerCall)} per call, × ${count(n)} connections = ${micros(n * own.usecPerCall)})` : '';
    const slowestText = slowest ? `, the slowest ${slowest.command} ${micros(slowest.usec)}${standsOut}` : '';
    return `${count(slowlog.entries)} new SLOWLOG entr${slowlog.entries === 1 ? 'y' : 'ies'}${slowestText}`;
  },
};
