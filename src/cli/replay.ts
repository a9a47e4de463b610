// `rbench replay FILE`: a MONITOR output or a file of commands sent as recorded, through `rbench run`'s own
// pipeline: a scenario of the replay's settings (written by the scenario writer, never by hand) whose one
// test is the file's commands in sequence (src/capture/replayPlan.ts). Target, consent and the effects gate
// are the run's; a refusal also names the replay file's first line that brings it.
import { relative, resolve } from 'node:path';
import { FileGateError } from '../gates/files';
import { escapeControl } from '../gates/output';
import { readReplayFile, ReplayFileError, type ReplayFile } from '../capture/replayFile';
import {
  replayBlame,
  recordedRate,
  replayConnections,
  replayTest,
  ReplayPlanError,
  withReplayConnections,
  withReplayTest,
  REPLAY_TEST,
  type ReplayConnection,
} from '../capture/replayPlan';
import { writeScenario, type WrittenLine } from '../scenario/writer';
import { parseCount, parseRate } from '../scenario/units';
import type { ScenarioFile } from '../runner/session';
import { runCommand } from './run';
import { ExitCode, consoleOutput, printErrorLine } from './output';
import { commandArgs } from './commandArgs';
import { whileInterruptible } from './interrupt';

export const REPLAY_USAGE = `Usage: rbench replay FILE [options]

Sends the commands of FILE to a server as recorded: FILE is a MONITOR output (redis-cli MONITOR lines,
\`1700000000.123456 [0 127.0.0.1:5000] "SET" "k" "v"\`) or one command a line in redis-cli's quoting
(\`SET k "a b"\`; blank lines and # comments skipped). The result is one test, "replay", with a row per
command, like any run's (table, run file, --json, --csv). Every command is classed by the same effects
gate as a scenario's: on a server other than the throwaway one, an admin command or one that can destroy
keys the replay does not create (FLUSHALL, DEL of a key it never writes…) is refused, naming its line.

Options:
  --url URL           the target, as rbench run's; without it a throwaway local redis-server
  --order recorded|shuffled
                      the file's order (default), or shuffled by --seed (each command still sent once a pass)
  --seed N            the shuffle's seed (default 1)
  --clients N         connections the commands are spread over (default 1: one connection keeps the
                      file's order exactly; with more, request j goes to whichever connection claims it)
  --pipeline N        commands in flight on each connection (default 1)
  --rate N/s          open loop at N commands per second (default: closed loop, as fast as replies come)
  --timing recorded   MONITOR files: send each command after the gap MONITOR recorded before it (one
                      connection, or one per recorded client with --per-connection recorded)
  --repeat N          send the file N times over (default 1)
  --requests N        send exactly N commands (the file wraps around); instead of --repeat
  --prefix NS         every key, where the command table's key specs put them, becomes NS + key
  --per-connection recorded
                      MONITOR files: a connection per recorded client (at most 32), each sending its
                      own commands in its order, all at the same time (a test per connection)
  --out DIR, --json FILE, --csv FILE, --quiet, -q/--brief, --yes, --allow-admin, --allow-destructive,
  --allow-host HOST   as for rbench run

Bounds: at most 64 MB, 100,000 commands and 64 KB a line.`;

function fail(message: string): number {
  printErrorLine(`rbench replay: ${message}`);
  return ExitCode.ScenarioError;
}

/** A whole number of at least 1 from an option. */
function countOption(text: string | undefined, flag: string, fallback: number): number | string {
  if (text === undefined) return fallback;
  const parsed = parseCount(text);
  if (!parsed.ok || !Number.isSafeInteger(parsed.value) || parsed.value < 1) return `${flag} ${text}: give a whole number of at least 1`;
  return parsed.value;
}

export async function replayMain(argv: string[]): Promise<number> {
  const parsed = commandArgs(
    'replay',
    argv,
    {
      url: { type: 'string' },
      order: { type: 'string' },
      seed: { type: 'string' },
      clients: { type: 'string' },
      pipeline: { type: 'string' },
      rate: { type: 'string' },
      repeat: { type: 'string' },
      requests: { type: 'string' },
      prefix: { type: 'string' },
      timing: { type: 'string' },
      'per-connection': { type: 'string' },
      out: { type: 'string' },
      json: { type: 'string' },
      csv: { type: 'string' },
      quiet: { type: 'boolean' },
      brief: { type: 'boolean', short: 'q' },
      yes: { type: 'boolean', short: 'y' },
      'allow-admin': { type: 'boolean' },
      'allow-destructive': { type: 'boolean' },
      'allow-host': { type: 'string', multiple: true },
    },
    REPLAY_USAGE,
    true,
  );
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return fail('name one file to replay (a MONITOR output or one command a line)');
  // Asked for in issue 44 and not built yet: said plainly rather than approximated.
  const timing = values.timing;
  if (timing !== undefined && timing !== 'recorded') return fail(`--timing ${timing}: the one timing is recorded (the captured gaps between commands)`);
  if (timing !== undefined && (values.rate !== undefined || values.order === 'shuffled' || (values.clients ?? '1') !== '1' || (values.pipeline ?? '1') !== '1'))
    return fail(
      '--timing recorded sends each command when it came, one at a time: drop --rate, --order shuffled, --clients and --pipeline (or use --per-connection recorded)',
    );
  const perConnection = values['per-connection'];
  if (perConnection !== undefined && perConnection !== 'recorded') return fail(`--per-connection ${perConnection}: the one way is recorded`);
  if (perConnection !== undefined && (values.clients !== undefined || values.requests !== undefined || values.order === 'shuffled'))
    return fail('--per-connection recorded opens one connection per recorded client, each in its order: drop --clients, --requests and --order shuffled');
  const order = values.order ?? 'recorded';
  if (order !== 'recorded' && order !== 'shuffled') return fail(`--order ${order}: give recorded or shuffled`);
  const numbers = {
    seed: countOption(values.seed, '--seed', 1),
    clients: countOption(values.clients, '--clients', 1),
    pipeline: countOption(values.pipeline, '--pipeline', 1),
    repeat: countOption(values.repeat, '--repeat', 1),
    requests: countOption(values.requests, '--requests', 0),
  };
  for (const value of Object.values(numbers)) if (typeof value === 'string') return fail(value);
  const { seed, clients, pipeline, repeat, requests } = numbers as Record<keyof typeof numbers, number>;
  if (values.repeat !== undefined && values.requests !== undefined) return fail('give --repeat or --requests, not both');
  let rate: number | undefined;
  if (values.rate !== undefined) {
    const parsedRate = parseRate(values.rate, true);
    if (!parsedRate.ok || parsedRate.value <= 0) return fail(`--rate ${values.rate}: give commands per second, e.g. 1000/s`);
    rate = parsedRate.value;
  }
  if (values.prefix !== undefined && values.prefix === '') return fail('--prefix needs a namespace, e.g. --prefix replay:');

  const path = positionals[0];
  let replay: ReplayFile;
  try {
    replay = readReplayFile(path);
  } catch (error) {
    if (error instanceof FileGateError || error instanceof ReplayFileError) return fail(error.message);
    throw error;
  }
  let test;
  let connections: ReplayConnection[] | undefined;
  try {
    test = replayTest(replay.commands, { order, prefix: values.prefix, seed, timing: timing !== undefined }, path);
    if (perConnection !== undefined) connections = replayConnections(replay.commands, values.prefix, path, timing !== undefined);
    // The captured timing is an open loop whose sends follow the recorded gaps (planned at the mean rate).
    if (timing !== undefined) rate = recordedRate(replay.commands);
  } catch (error) {
    if (error instanceof ReplayPlanError) return fail(error.message);
    throw error;
  }
  const sent = requests > 0 ? requests : replay.commands.length * repeat;
  const lines: WrittenLine[] = [
    { kind: 'header', title: REPLAY_TEST },
    { kind: 'comment', text: `rbench replay: ${replay.commands.length} commands of a ${replay.kind === 'monitor' ? 'MONITOR output' : 'command file'}` },
    { kind: 'setting', name: 'clients', args: [String(clients)] },
    { kind: 'setting', name: 'pipeline', args: [String(pipeline)] },
    { kind: 'setting', name: 'requests', args: [String(sent)] },
    { kind: 'setting', name: 'warmup', args: ['0s'] },
    ...(rate !== undefined ? [{ kind: 'setting' as const, name: 'rate', args: [`${rate}/s`] }] : []),
    // The command the replay's test replaces: it only gives the scenario a test to stand in for.
    { kind: 'command', name: 'PING', args: [] },
  ];
  const file: ScenarioFile = { display: path, text: writeScenario(lines), baseDir: process.cwd(), recorded: relative(process.cwd(), resolve(path)) };
  const local = values.url === undefined || values.url === 'local';
  const output = consoleOutput({ quiet: Boolean(values.quiet), stdoutReserved: values.csv === '-' });
  const planEdit = (plan: Parameters<typeof withReplayTest>[0]) => {
    const edited = connections ? withReplayConnections(plan, connections, repeat) : withReplayTest(plan, test);
    const blame = replayBlame(
      edited,
      test,
      { allowAdmin: Boolean(values['allow-admin']), allowDestructive: Boolean(values['allow-destructive']), throwaway: local },
      path,
    );
    return blame?.line ? `${escapeControl(blame.line)}\n${path}: ${blame.refusal}` : edited;
  };
  return whileInterruptible(output, 'Cancelling… (Ctrl-C again to quit without saving)', (signal) =>
    runCommand(
      {
        files: [],
        inline: [file],
        planEdit,
        scenarios: [],
        url: values.url,
        targets: values.url === undefined ? undefined : [values.url],
        out: values.out ?? '.rbench/runs',
        outNamed: values.out !== undefined,
        json: values.json,
        csv: values.csv,
        quiet: Boolean(values.quiet),
        brief: Boolean(values.brief),
        vars: {},
        env: process.env,
        allowAdmin: Boolean(values['allow-admin']),
        allowDestructive: Boolean(values['allow-destructive']),
        allowHosts: values['allow-host'] ?? [],
        yes: Boolean(values.yes),
        signal,
      },
      output,
    ),
  );
}
