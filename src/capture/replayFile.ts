// The file `rbench replay` sends: a MONITOR output (`1700000000.123456 [0 127.0.0.1:5000] "SET" "k" "v"`,
// read by the capture's own line parser) or commands one per line in redis-cli's quoting (`SET k "a b"`).
// Read as untrusted text through the file gate, bounded in bytes, lines and line length; a line that is
// neither kind is an error naming its number. Blank lines, `#` comments and MONITOR's `OK` are skipped.
import { readBoundedFile } from '../gates/files';
import { parseMonitorLine } from './monitorLine';

/** Bytes of a replay file read at most. */
export const REPLAY_MAX_BYTES = 64 * 1024 * 1024;
/** Commands in a replay file at most: each one is a template in the run's plan (and its run file). */
export const REPLAY_MAX_COMMANDS = 100_000;
/** Characters of one line at most (MONITOR's reader keeps as many). */
export const REPLAY_MAX_LINE = 64 * 1024;

export interface ReplayCommand {
  /** 1-based line number in the file. */
  line: number;
  /** The command name and its arguments, decoded. */
  args: string[];
  /** MONITOR: who sent it (`127.0.0.1:5000`), and when (seconds since the epoch). */
  source?: string;
  time?: number;
}

export interface ReplayFile {
  kind: 'monitor' | 'commands';
  commands: ReplayCommand[];
}

export class ReplayFileError extends Error {}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * An argument read as bytes (one latin1 character a byte: MONITOR's `\xHH`, the file's own bytes) as the text
 * whose UTF-8 is those bytes: the engine sends text as UTF-8, so the same bytes go out. Bytes that are no UTF-8
 * (binary payloads) cannot be sent byte for byte yet: refused, naming the line.
 */
function sentAsRecorded(arg: string, shown: string, line: number, index: number): string {
  // ASCII needs nothing; a character above U+00FF is text already (a caller's string, not a file's bytes).
  if (!/[\x80-\xff]/.test(arg) || /[\u0100-\uffff]/.test(arg)) return arg;
  try {
    return UTF8.decode(Buffer.from(arg, 'latin1'));
  } catch {
    throw new ReplayFileError(
      `${shown}:${line}: argument ${index + 1} holds bytes that are not UTF-8 text (binary data); RBench sends arguments as UTF-8 and cannot replay them byte for byte — remove the line`,
    );
  }
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', a: '\x07' };

/** One line in redis-cli's quoting (sdssplitargs): bare words, "double quotes" with escapes, 'single quotes'; undefined when unbalanced. */
export function splitCommandLine(line: string): string[] | undefined {
  const args: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && /\s/.test(line[i])) i++;
    if (i >= line.length) break;
    let arg = '';
    let quote: '"' | "'" | undefined;
    for (;;) {
      if (i >= line.length) {
        if (quote) return undefined;
        break;
      }
      const c = line[i];
      if (quote === '"') {
        if (c === '\\' && line[i + 1] === 'x' && /^[0-9a-fA-F]{2}$/.test(line.slice(i + 2, i + 4))) {
          arg += String.fromCharCode(parseInt(line.slice(i + 2, i + 4), 16));
          i += 4;
        } else if (c === '\\' && i + 1 < line.length) {
          arg += SIMPLE_ESCAPES[line[i + 1]] ?? line[i + 1];
          i += 2;
        } else if (c === '"') {
          // A closing quote must end the argument.
          if (i + 1 < line.length && !/\s/.test(line[i + 1])) return undefined;
          i++;
          break;
        } else {
          arg += c;
          i++;
        }
      } else if (quote === "'") {
        if (c === '\\' && line[i + 1] === "'") {
          arg += "'";
          i += 2;
        } else if (c === "'") {
          if (i + 1 < line.length && !/\s/.test(line[i + 1])) return undefined;
          i++;
          break;
        } else {
          arg += c;
          i++;
        }
      } else if (/\s/.test(c)) {
        break;
      } else if (c === '"' || c === "'") {
        quote = c;
        i++;
      } else {
        arg += c;
        i++;
      }
    }
    args.push(arg);
  }
  return args;
}

/** The commands of a replay file's text; `shown` names the file in messages. Throws ReplayFileError. */
export function parseReplayText(text: string, shown: string): ReplayFile {
  const commands: ReplayCommand[] = [];
  let kind: ReplayFile['kind'] | undefined;
  let number = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    number++;
    const line = text.slice(start, end).replace(/\r$/, '');
    start = end + 1;
    if (line.length > REPLAY_MAX_LINE)
      throw new ReplayFileError(`${shown}:${number}: the line is longer than ${REPLAY_MAX_LINE} characters — shorten it or remove it`);
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed === 'OK') continue;
    const monitor = kind === 'commands' ? undefined : parseMonitorLine(trimmed, false, REPLAY_MAX_LINE);
    let command: ReplayCommand;
    if (monitor) {
      command = { line: number, args: monitor.args.map((arg, i) => sentAsRecorded(arg.text, shown, number, i)), source: monitor.source, time: monitor.time };
      kind ??= 'monitor';
    } else {
      if (kind === 'monitor')
        throw new ReplayFileError(`${shown}:${number}: not a MONITOR line like the ones before it — remove it, or give a file of one kind`);
      const args = splitCommandLine(trimmed);
      if (!args || args.length === 0 || args[0] === '')
        throw new ReplayFileError(`${shown}:${number}: unbalanced quotes — write the command as redis-cli takes it (\`SET k "a b"\`)`);
      command = { line: number, args: args.map((arg, i) => sentAsRecorded(arg, shown, number, i)) };
      kind = 'commands';
    }
    commands.push(command);
    if (commands.length > REPLAY_MAX_COMMANDS)
      throw new ReplayFileError(`${shown}: more than ${REPLAY_MAX_COMMANDS} commands — replay a part of it (split the file)`);
  }
  if (commands.length === 0) throw new ReplayFileError(`${shown}: no command to replay (a MONITOR output or one command a line)`);
  return { kind: kind ?? 'commands', commands };
}

/** Reads a replay file the user named, through the file gate (at most REPLAY_MAX_BYTES). Throws FileGateError or ReplayFileError. */
export function readReplayFile(path: string): ReplayFile {
  // Bytes as latin1 characters, as MONITOR's `\xHH` escapes decode: each argument is then read back as UTF-8 (sentAsRecorded).
  const text = readBoundedFile(path, { userNamed: true, maxBytes: REPLAY_MAX_BYTES }).toString('latin1');
  return parseReplayText(text, path);
}
