// A subcommand's options, read one way: parseArgs with `--help`/`-h` added, a bad option answered with the
// command's name, the reason and its usage (exit 2), `--help` with the usage (exit 0). Each subcommand then
// only checks what its own options mean.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ExitCode, printErrorLine, printLine } from './output';

type Options = NonNullable<ParseArgsConfig['options']>;
const HELP = { help: { type: 'boolean', short: 'h' } } as const;

type Parsed<O extends Options, P extends boolean> = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: P; options: O & typeof HELP }>>;

/**
 * `rbench <command> …`'s options: the parsed values and positionals, or the exit code when there is nothing more to
 * do (a bad option: its message and `usage` on stderr; `--help`: `usage` on stdout).
 */
export function commandArgs<O extends Options, P extends boolean = true>(
  command: string,
  argv: string[],
  options: O,
  usage: string,
  allowPositionals: P = true as P,
): Parsed<O, P> | ExitCode {
  let parsed: Parsed<O, P>;
  try {
    parsed = parseArgs({ args: argv, allowPositionals, options: { ...options, ...HELP } }) as Parsed<O, P>;
  } catch (error) {
    printErrorLine(`rbench ${command}: ${(error as Error).message}\n\n${usage}`);
    return ExitCode.ScenarioError;
  }
  if ((parsed.values as { help?: boolean }).help) {
    printLine(usage);
    return ExitCode.Ok;
  }
  return parsed;
}
