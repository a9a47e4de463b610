// The `rbench` command: check and run `.rbench` scenario files from a terminal or CI.
import { parseArgs } from 'node:util';
import { TOOL_VERSION } from '../version';
import { checkCommand } from './check';
import { ExitCode, consoleOutput } from './output';
import { runCommand } from './run';

const USAGE = `rbench ${TOOL_VERSION}: Redis benchmarks from .rbench scenario files

Usage:
  rbench check <files...>                 validate files; prints file:line:col: error: message
  rbench run <files...> [options]         run scenarios and print the result table

Run options:
  --scenario NAME     run only this scenario (by name or 1-based number); repeatable
  --url URL           target redis://[user@]host:port[/db] or rediss://…; overrides the files' target.
                      Without --url and without a target in the file, a throwaway local
                      redis-server is started on a free port and stopped after.
  --var NAME=VALUE    set a file variable (@NAME); repeatable
  --out DIR           folder for run files (default .rbench/runs)
  --json FILE         also write the run files' content as a JSON array to FILE
  --csv FILE          write redis-benchmark --csv compatible rows to FILE (- for stdout)
  --quiet             print only errors and failed thresholds

Passwords never come from files: use \`password env:NAME\` in the scenario, or RBENCH_PASSWORD
for \`password secret\`.

Exit codes: 0 ok, 1 a threshold failed, 2 a scenario error, 3 a connection or server error,
130 cancelled (Ctrl-C; partial results are saved).`;

function parseVars(values: string[] | undefined): Record<string, string> | string {
  const vars: Record<string, string> = {};
  for (const entry of values ?? []) {
    const eq = entry.indexOf('=');
    if (eq <= 0) return `--var takes NAME=VALUE, got "${entry}"`;
    vars[entry.slice(0, eq).replace(/^@/, '')] = entry.slice(eq + 1);
  }
  return vars;
}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        scenario: { type: 'string', multiple: true },
        url: { type: 'string' },
        var: { type: 'string', multiple: true },
        out: { type: 'string' },
        json: { type: 'string' },
        csv: { type: 'string' },
        quiet: { type: 'boolean', short: 'q' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    process.stderr.write(`rbench: ${(error as Error).message}\n\n${USAGE}\n`);
    return ExitCode.ScenarioError;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    process.stdout.write(`${TOOL_VERSION}\n`);
    return ExitCode.Ok;
  }
  const [command, ...files] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE + '\n');
    return values.help ? ExitCode.Ok : ExitCode.ScenarioError;
  }
  const vars = parseVars(values.var);
  if (typeof vars === 'string') {
    process.stderr.write(`rbench: ${vars}\n`);
    return ExitCode.ScenarioError;
  }
  if (files.length === 0) {
    process.stderr.write(`rbench ${command}: name at least one .rbench file\n`);
    return ExitCode.ScenarioError;
  }
  const output = consoleOutput({ quiet: Boolean(values.quiet), stdoutReserved: values.csv === '-' });
  switch (command) {
    case 'check':
      return checkCommand({ files, vars, env: process.env }, output);
    case 'run': {
      const abort = new AbortController();
      let interrupts = 0;
      const onInterrupt = () => {
        // First Ctrl-C: stop the workers and save what was measured. Second: leave now.
        if (++interrupts > 1) process.exit(ExitCode.Cancelled);
        output.error('Cancelling… (Ctrl-C again to quit without saving)');
        abort.abort();
      };
      process.on('SIGINT', onInterrupt);
      process.on('SIGTERM', onInterrupt);
      try {
        return await runCommand(
          {
            files,
            scenarios: values.scenario ?? [],
            url: values.url,
            out: values.out ?? '.rbench/runs',
            json: values.json,
            csv: values.csv,
            quiet: Boolean(values.quiet),
            vars,
            env: process.env,
            signal: abort.signal,
          },
          output,
        );
      } finally {
        process.off('SIGINT', onInterrupt);
        process.off('SIGTERM', onInterrupt);
      }
    }
    default:
      process.stderr.write(`rbench: unknown command "${command}"\n\n${USAGE}\n`);
      return ExitCode.ScenarioError;
  }
}
