// Calls a command makes inside the server: a module's command calls others through RM_Call (RediSearch's
// FT.SEARCH runs an HGETALL per document it returns), and Redis counts each of them in INFO commandstats as
// if a client had sent it (server.c call() counts every call, nested or not; so does total_commands_processed).
// No counter tells them from a client's, so they are learned before the load by a probe: one short load of
// the test's own requests (1 client, a few requests), the counters read around it; what the server ran
// beyond the probe's requests and RBench's own commands was run inside them. Only for tests that send a
// command the server flags `module` (a core command calls nothing), and only when every command of the test
// is one the server flags `readonly`: a probe of a write would write twice (a prefill's FT.CREATE would then
// find its index made). Such a test gets no foreign-load judgement, and says why.
import type { ControlLink } from '../redis/controlLink';
import { runLoad } from '../engine';
import { recordFromMap } from '../gates/plainData';
import type { CommandTally } from '../redis/commandTally';
import { tallyBetween } from '../redis/commandTally';
import { readCommandTable } from '../redis/commandTable';
import type { NodeCounters } from '../redis/serverCounters';
import type { ConnectionOptions } from '../redis/types';
import { accountingFor, serverCommandName, serverDelta } from '../results/serverDelta';
import type { ClientPath, PhasePlan, ScenarioPlan, TestPlan } from '../scenario/plan';
import { commandsOf } from './safety';

/** Requests of the probe per command of the test: enough that a weighted mix sends each of them. */
const PROBE_REQUESTS_PER_COMMAND = 8;

/** The plan's commands the server flags `module`, and those it flags `readonly`, by the server's names; empty when its table cannot be read. */
export interface ServerFlags {
  modules: ReadonlySet<string>;
  readOnly: ReadonlySet<string>;
}

export async function moduleCommands(control: ControlLink, plan: ScenarioPlan, display: string): Promise<ServerFlags> {
  const names = [...new Set(commandsOf(plan).map((command) => command.name.toLowerCase()))];
  const read = await readCommandTable(control, { names, display }).catch(() => undefined);
  if (!read?.ok) return { modules: new Set(), readOnly: new Set() };
  const flagged = (flag: string) => new Set(names.filter((name) => read.table.spec(name)?.flags.includes(flag)));
  return { modules: flagged('module'), readOnly: flagged('readonly') };
}

/** What the probe learned: the nested calls, or why foreign load cannot be judged for the test. */
export interface NestedCalls {
  nested?: Record<string, string>;
  inexact?: string;
}

interface ProbeContext {
  connection: ConnectionOptions;
  client: ClientPath;
  clusterDetected: boolean;
  readCounters(): Promise<NodeCounters[]>;
  tally: CommandTally;
}

/**
 * The commands the test's module commands ran inside the server (`hgetall` → `ft.search`), from a probe
 * load; nothing when the test sends no module command or the probe could not tell; `inexact` when the test
 * writes, so no probe is sent.
 */
export async function probeNestedCalls(phase: PhasePlan, test: TestPlan, flags: ServerFlags, context: ProbeContext): Promise<NestedCalls> {
  const parents = test.commands.map(({ command }) => serverCommandName(command)).filter((name) => flags.modules.has(name));
  if (parents.length === 0) return {};
  const parent = [...new Set(parents)].join(', ');
  const writes = [...new Set(test.commands.map(({ command }) => command.name.toLowerCase()).filter((name) => !flags.readOnly.has(name)))];
  if (writes.length > 0) {
    return {
      inexact: `the module commands (${parent}) may run others inside the server, which only a probe of the test's own requests tells apart, and the test writes (${writes.join(', ')}): no probe is sent, so foreign load is not judged`,
    };
  }
  const requests = PROBE_REQUESTS_PER_COMMAND * test.commands.length;
  const probe: PhasePlan = {
    ...phase,
    load: { ...phase.load, clients: 1, threads: 1, pipeline: 1, requests, durationMs: undefined, warmupMs: 0, rate: undefined },
  };
  try {
    const fromMark = context.tally.mark();
    const before = await context.readCounters();
    const result = await runLoad(
      { phase: probe, test, connection: context.connection, client: context.client, ...(context.clusterDetected ? { clusterDetected: true } : {}) },
      {},
    );
    const toMark = context.tally.mark();
    const after = await context.readCounters();
    const delta = serverDelta(before, after, accountingFor(test, result, 0, tallyBetween(fromMark, toMark)), 'cumulative');
    const inside = Object.keys(delta.foreign?.commands ?? {}).filter((name) => !parents.includes(name));
    return inside.length > 0 ? { nested: recordFromMap(new Map(inside.map((name) => [name, parent]))) } : {};
  } catch (error) {
    // Without the probe a module's own calls would read as another client's: no judgement rather than a wrong one.
    const why = error instanceof Error ? error.message.split('\n', 1)[0].slice(0, 200) : 'unknown error';
    return { inexact: `the probe of the module commands' own calls (${parent}) failed (${why}): foreign load is not judged` };
  }
}
