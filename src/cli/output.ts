// Where the CLI writes: results on stdout, diagnostics on stderr, a live progress line on a terminal.
// Every text passes escapeControl here, the one place the CLI writes: run files, scenario names and server
// replies must not reach the terminal as escape sequences (OSC 52 writes the clipboard). The progress
// line's own `\r\x1b[2K` is written around the text, not through it.
import { escapeControl } from '../gates/output';

export enum ExitCode {
  Ok = 0,
  ThresholdFailed = 1,
  ScenarioError = 2,
  ConnectionError = 3,
  /** The results were measured and printed, but a run file (or --json/--csv) could not be written. */
  SaveError = 4,
  Cancelled = 130,
}

export interface Output {
  /** The table, CSV: what a pipe wants. */
  result(text: string): void;
  /** Human notes (target, saved path, warnings). */
  info(line: string): void;
  error(line: string): void;
  /** A live line that the next one replaces (terminals only; dropped elsewhere). */
  progress(line: string): void;
  /** A line that stays, after progress lines. */
  progressDone(line: string): void;
  clearProgress(): void;
}

export interface ConsoleOutputOptions {
  quiet: boolean;
  /** stdout carries machine output (`--csv -`): send everything else to stderr. */
  stdoutReserved: boolean;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
}

export function consoleOutput(options: ConsoleOutputOptions): Output {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const notes = options.stdoutReserved ? stderr : stdout;
  const live = Boolean(stderr.isTTY);
  let progressShown = false;
  const clearProgress = () => {
    if (progressShown) stderr.write('\r\x1b[2K');
    progressShown = false;
  };
  return {
    result: (raw) => {
      const text = escapeControl(raw);
      clearProgress();
      if (!options.quiet || options.stdoutReserved) stdout.write(text.endsWith('\n') ? text : text + '\n');
    },
    info: (line) => {
      if (options.quiet) return;
      clearProgress();
      notes.write(escapeControl(line) + '\n');
    },
    error: (line) => {
      clearProgress();
      stderr.write(escapeControl(line) + '\n');
    },
    progress: (line) => {
      if (options.quiet || !live) return;
      const width = stderr.columns ? stderr.columns - 1 : 120;
      stderr.write('\r\x1b[2K' + escapeControl(line).slice(0, width));
      progressShown = true;
    },
    progressDone: (line) => {
      if (options.quiet) return;
      clearProgress();
      stderr.write(escapeControl(line) + '\n');
    },
    clearProgress,
  };
}

/** A line on stdout before an Output exists (`--help`, `--version`), escaped like the rest. */
export function printLine(text: string): void {
  process.stdout.write(escapeControl(text) + '\n');
}

/** A line on stderr before an Output exists (a usage error: its text quotes the command line). */
export function printErrorLine(text: string): void {
  process.stderr.write(escapeControl(text) + '\n');
}
