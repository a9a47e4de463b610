// A redis-benchmark command line as the `.rbench` scenario that runs the same load: the CSV does not record
// how it ran, so the user gives the command line (`--command`) and the plan is built from it — redis-benchmark's
// own defaults for what the line does not set (50 clients, 100,000 requests, 3-byte values, one key), as
// redis-benchmark applies them. A flag that changes the load in a way this does not model is refused.
import { ScenarioWriteError, writeScenario, type WrittenLine } from '../../scenario/writer';

export interface BenchmarkCommand {
  /** The scenario text (a `###` header, then settings) to resolve into the plan. */
  scenario: string;
  /** `redis://host:port` from `-h`/`-p` (redis-benchmark's default 127.0.0.1:6379), or `unix://` from `-s`. */
  target: string;
  /** The command line as the run file keeps it: `-a`'s password as `***`. */
  display: string;
}

const setting = (name: string, value: string): WrittenLine => ({ kind: 'setting', name, args: [value] });

/** Flags that take a value and the scenario line each becomes. */
const VALUE_FLAGS: Record<string, (value: string) => WrittenLine | undefined> = {
  '-c': (v) => setting('clients', v),
  '-n': (v) => setting('requests', v),
  '-P': (v) => setting('pipeline', v),
  '-d': (v) => setting('value', `${v}b`),
  '-r': (v) => setting('keys', v),
  '--threads': (v) => setting('threads', v),
  '-t': () => undefined,
  '-h': () => undefined,
  '-p': () => undefined,
  '-s': () => undefined,
  '--dbnum': (v) => setting('db', v),
};

/** Flags that only change what is printed or how connections are kept: no effect on the plan. */
const HARMLESS_FLAGS = new Set(['-q', '--csv', '--precision', '-k', '-a', '--user']);
/** Of those, the ones followed by a value. */
const HARMLESS_WITH_VALUE = new Set(['--precision', '-k', '-a', '--user']);

/** Splits a command line as a shell would for plain words and quotes (no expansions). */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

export interface BenchmarkLoad {
  /** The load's settings (clients, requests…), then `suite` (or, with a command, nothing: see `command`). */
  settings: WrittenLine[];
  /** `-t`'s tests, lower case; `default` without it. */
  tests: string;
  /** The words after the options (`redis-benchmark … SET k v`), when `allowCommand` let them in. */
  command?: string[];
  host: string;
  port: string;
  socket?: string;
  /** The words with `-a`'s password as `***`. */
  shown: string[];
}

/**
 * The load of a redis-benchmark argument list (the program name may lead), or a message naming the flag it
 * cannot model. With `allowCommand`, the first word that is no option starts the command redis-benchmark runs
 * instead of its tests.
 */
export function benchmarkLoad(args: readonly string[], options: { allowCommand?: boolean } = {}): BenchmarkLoad | string {
  args = [...args];
  if (args[0] && /(^|\/)redis-benchmark$/.test(args[0])) args = args.slice(1);
  const settings: WrittenLine[] = [];
  let tests = 'default';
  let host = '127.0.0.1';
  let port = '6379';
  let socket: string | undefined;
  let command: string[] | undefined;
  // The password never reaches the scenario's title or the run file.
  const shown = args.map((arg, i) => (i > 0 && args[i - 1] === '-a' ? '***' : arg));
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (HARMLESS_FLAGS.has(flag)) {
      if (HARMLESS_WITH_VALUE.has(flag)) i++;
      continue;
    }
    if (options.allowCommand && !flag.startsWith('-')) {
      command = args.slice(i);
      break;
    }
    const toLine = VALUE_FLAGS[flag];
    if (!toLine) return `redis-benchmark's ${flag} is not modelled by rbench import (it changes the load in a way the plan would not show)`;
    const value = args[++i];
    if (value === undefined) return `${flag} needs a value`;
    if (flag === '-t') tests = value.toLowerCase();
    else if (flag === '-h') host = value;
    else if (flag === '-p') port = value;
    else if (flag === '-s') socket = value;
    const setting = toLine(value);
    if (setting) settings.push(setting);
  }
  return { settings, tests, command, host, port, socket, shown };
}

/** The scenario of a redis-benchmark command line, or a message naming the flag it cannot model. */
export function benchmarkCommand(line: string): BenchmarkCommand | string {
  const args = words(line.trim());
  const load = benchmarkLoad(args);
  if (typeof load === 'string') return `--command: ${load}${/ not modelled /.test(load) ? '; import a run made without it' : ''}`;
  const { settings, tests, host, port, socket, shown } = load;
  let scenario: string;
  try {
    scenario = writeScenario([
      { kind: 'header', title: ['redis-benchmark', ...shown].join(' ') },
      setting('value-fill', 'redis-benchmark'),
      setting('suite', tests),
      ...settings,
    ]);
  } catch (error) {
    if (!(error instanceof ScenarioWriteError)) throw error;
    return `--command: ${error.message}`;
  }
  return {
    scenario,
    target: socket ? `unix://${socket}` : `redis://${host}:${port}`,
    display: args.includes('-a') ? ['redis-benchmark', ...shown].join(' ') : line,
  };
}
