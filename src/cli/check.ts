// `rbench check`: validates scenario files and prints `file:line:col: severity: message` lines. With
// `--url URL`, the files' commands are also checked against that server's own command table (reading
// COMMAND is a read, on a target you chose: no question asked).
import { FileGateError, readBoundedText } from '../gates/files';
import { withNetworkRule } from '../gates/network';
import { dirname, resolve } from 'node:path';
import { checkText, errorCount, formatDiagnostic, hiddenCount, type ResolveOptions } from '../scenario';
import type { CommandTableData } from '../scenario/commandTable';
import { memoryLimits } from '../runner/budget';
import { chooseTarget, connectionFor, defaultTargetPlan } from '../runner/targets';
import { closeControlConnection, ioredisLink, openControlConnection } from '../redis/control';
import { readCommandTable } from '../redis/commandTable';
import { ExitCode, type Output } from './output';
import { SCENARIO_READ_LIMIT } from '../runner/budget';
import { groupDigits } from '../scenario/numberText';

export interface CheckOptions {
  files: string[];
  vars: Record<string, string>;
  env: Record<string, string | undefined>;
  /** `--allow-env NAME`: environment variables the user lets into commands. */
  allowEnv?: string[];
  /** `--max-memory SIZE`: bytes a scenario may ask for on the server and in rbench. */
  maxMemory?: number;
  /** `--url URL`: check the commands against this server's own table too. */
  url?: string;
  /** `--server-binary NAME=PATH`: the names `server binary NAME` may give. */
  serverBinaries?: readonly string[];
}

interface ReadFile {
  file: string;
  text: string;
}

/** The server's table of `names`, or a message saying why there is none (the connection failed: exit 3). */
async function serverTable(url: string, names: readonly string[], options: CheckOptions, output: Output): Promise<CommandTableData | undefined | string> {
  const choice = chooseTarget({ ...defaultTargetPlan(), url: undefined, profile: undefined }, { kind: 'url', url });
  const connection = connectionFor(choice, { profiles: {}, env: options.env, storedPassword: options.env.RBENCH_PASSWORD });
  if (!connection.options) return `--url: ${connection.error}`;
  let redis;
  try {
    redis = await openControlConnection(withNetworkRule(connection.options));
  } catch (error) {
    return `--url ${connection.display}: ${(error as Error).message}`;
  }
  try {
    const read = await readCommandTable(ioredisLink(redis), { names, display: connection.display });
    if (!read.ok) {
      output.error(`warning: ${read.warning}`);
      return undefined;
    }
    return { origin: read.table.origin, specs: read.specs };
  } finally {
    await closeControlConnection(redis);
  }
}

export async function checkCommand(options: CheckOptions, output: Output): Promise<ExitCode> {
  let errors = 0;
  let hidden = 0;
  let scenarios = 0;
  const files: ReadFile[] = [];
  for (const file of options.files) {
    try {
      files.push({ file, text: readBoundedText(file, { userNamed: true, maxBytes: SCENARIO_READ_LIMIT }) });
    } catch (error) {
      if (!(error instanceof FileGateError)) throw error;
      output.error(`${file}:1:1: error: cannot read the file: ${error.message}`);
      errors++;
    }
  }
  const resolveOptions = (file: string): ResolveOptions => ({
    env: options.env,
    vars: options.vars,
    allowEnv: options.allowEnv,
    baseDir: dirname(resolve(file)),
    memory: memoryLimits(options.maxMemory),
    serverBinaries: options.serverBinaries ?? [],
  });
  let commandTable: CommandTableData | undefined;
  if (options.url) {
    // The commands to look up: every command of every scenario, as the built-in check reads them.
    const names = new Set<string>();
    for (const { file, text } of files) {
      for (const plan of checkText(text, resolveOptions(file)).scenarios)
        for (const point of plan.points)
          for (const phase of point.phases) for (const test of phase.tests) for (const { command } of test.commands) names.add(command.name.toLowerCase());
    }
    const table = await serverTable(options.url, [...names], options, output);
    if (typeof table === 'string') {
      output.error(`rbench check: ${table}`);
      return ExitCode.ConnectionError;
    }
    commandTable = table;
  }
  for (const { file, text } of files) {
    const resolved = checkText(text, { ...resolveOptions(file), ...(commandTable ? { commandTable } : {}) });
    scenarios += resolved.scenarios.length;
    for (const diagnostic of resolved.diagnostics) output.error(formatDiagnostic(file, diagnostic));
    // The list stops at DIAGNOSTIC_LIMIT; the count goes on (the final note counts the errors not listed).
    errors += errorCount(resolved.diagnostics);
    hidden += hiddenCount(resolved.diagnostics);
  }
  const notShown = hidden > 0 ? ` (${groupDigits(hidden)} problem${hidden === 1 ? '' : 's'} not shown)` : '';
  const against = commandTable ? `, commands checked against ${commandTable.origin}` : '';
  output.info(
    `${options.files.length} file${options.files.length === 1 ? '' : 's'}, ${scenarios} scenario${scenarios === 1 ? '' : 's'}, ${groupDigits(errors)} error${errors === 1 ? '' : 's'}${notShown}${against}`,
  );
  return errors > 0 ? ExitCode.ScenarioError : ExitCode.Ok;
}
