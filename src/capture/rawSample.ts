// `rbench capture --raw FILE`: the MONITOR sample kept as MONITOR prints it, for `rbench replay`. The lines
// come from a server, so only what a well-behaved MONITOR writes is kept: printable ASCII (Redis escapes
// every other byte), parsed whole (a line cut at the reader's limit is left out: it cannot be replayed), and
// not the capture's own commands; within replay's bounds (its commands and bytes), the rest counted.
import type { MonitorLine } from './monitorLine';
import { REPLAY_MAX_BYTES, REPLAY_MAX_COMMANDS } from './replayFile';

const PRINTABLE = /^[\x20-\x7e]*$/;

export class RawSample {
  private readonly lines: string[] = [];
  private bytes = 0;
  /** Lines left out: cut, not printable, or past the bounds. */
  skipped = { cut: 0, unprintable: 0, bounds: 0 };

  constructor(
    private readonly own: ReadonlySet<string>,
    private readonly limits = { lines: REPLAY_MAX_COMMANDS, bytes: REPLAY_MAX_BYTES },
  ) {}

  add(line: MonitorLine, text: string): void {
    if (this.own.has(line.source)) return;
    if (line.truncated) this.skipped.cut++;
    else if (!PRINTABLE.test(text)) this.skipped.unprintable++;
    else if (this.lines.length >= this.limits.lines || this.bytes + text.length + 1 > this.limits.bytes) this.skipped.bounds++;
    else {
      this.lines.push(text);
      this.bytes += text.length + 1;
    }
  }

  get count(): number {
    return this.lines.length;
  }

  text(): string {
    return this.lines.map((line) => `${line}\n`).join('');
  }

  /** What was left out, for people; empty when nothing was. */
  notes(): string[] {
    const { cut, unprintable, bounds } = this.skipped;
    return [
      ...(cut ? [`${cut} lines longer than the reader keeps (64 KB) were left out of --raw: they cannot be replayed`] : []),
      ...(unprintable ? [`${unprintable} lines with bytes MONITOR never writes unescaped were left out of --raw`] : []),
      ...(bounds
        ? [`--raw keeps at most ${this.limits.lines} lines and ${this.limits.bytes / 1024 / 1024} MB (what rbench replay reads): ${bounds} more were left out`]
        : []),
    ];
  }
}
