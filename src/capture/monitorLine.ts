// One MONITOR line, read as untrusted text: `1700000000.123456 [0 127.0.0.1:5000] "SET" "key" "v\x00"`.
// Redis writes each argument quoted with sdscatrepr's escapes (\\ \" \n \r \t \a \b \xHH). An argument keeps
// at most ARG_TEXT_LIMIT characters of its text (enough to read a key's shape) and its full decoded length
// (a value's size): a 512 MB value costs no more memory here than a short one.

/** Characters of an argument's text kept for reading its shape; its length is counted in full. */
export const ARG_TEXT_LIMIT = 512;

export interface MonitorArg {
  /** The decoded argument, cut at ARG_TEXT_LIMIT characters (bytes as latin1 characters). */
  text: string;
  /** Its decoded length in bytes. */
  length: number;
}

export interface MonitorLine {
  /** Seconds since the epoch, as the server stamped the command. */
  time: number;
  db: number;
  /** `127.0.0.1:5000`, `unix:` and the socket's path, `lua`: who sent it. */
  source: string;
  args: MonitorArg[];
  /** The line was longer than the reader keeps: its last argument's length is a lower bound. */
  truncated?: boolean;
}

const SIMPLE_ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, a: 7, b: 8, '\\': 92, '"': 34 };

/** The line parsed, or undefined when it is no MONITOR line (an error, the `OK` of MONITOR, garbage); `textLimit`: characters kept an argument (replay keeps them all). */
export function parseMonitorLine(line: string, truncated = false, textLimit = ARG_TEXT_LIMIT): MonitorLine | undefined {
  const head = /^(\d+(?:\.\d+)?) \[(\d+) ([^\]]*)\] /.exec(line);
  if (!head) return undefined;
  const args: MonitorArg[] = [];
  let i = head[0].length;
  while (i < line.length) {
    if (line[i] === ' ') {
      i++;
      continue;
    }
    if (line[i] !== '"') return undefined;
    i++;
    let text = '';
    let length = 0;
    let closed = false;
    while (i < line.length) {
      const c = line[i];
      let code: number;
      if (c === '"') {
        closed = true;
        i++;
        break;
      }
      if (c === '\\' && i + 1 < line.length) {
        const next = line[i + 1];
        if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(line.slice(i + 2, i + 4))) {
          code = parseInt(line.slice(i + 2, i + 4), 16);
          i += 4;
        } else {
          code = SIMPLE_ESCAPES[next] ?? next.charCodeAt(0);
          i += 2;
        }
      } else {
        code = c.charCodeAt(0);
        i++;
      }
      length++;
      if (text.length < textLimit) text += String.fromCharCode(code);
    }
    if (!closed && !truncated) return undefined;
    args.push({ text, length });
  }
  if (args.length === 0) return undefined;
  const parsed: MonitorLine = { time: Number(head[1]), db: Number(head[2]), source: head[3], args };
  if (truncated) parsed.truncated = true;
  return parsed;
}
