// A small reader of whole RESP values, for the few replies whose content matters outside ioredis (a
// sentinel's primary address, ROLE on a load connection). The load itself only counts replies (respScanner.ts).

/** An error reply (`-ERR …`), kept apart from strings so a caller cannot mistake it for data. */
export class RespErrorReply {
  constructor(readonly message: string) {}
}

export type RespValue = string | number | null | RespErrorReply | RespValue[];

/** The value starting at `offset`, and where it ends; undefined while the bytes are incomplete. Throws on bytes that are not RESP. */
export function readRespValue(buffer: Buffer, offset = 0): { value: RespValue; end: number } | undefined {
  const lineEnd = buffer.indexOf('\r\n', offset);
  if (lineEnd < 0) return undefined;
  const type = String.fromCharCode(buffer[offset]);
  const line = buffer.toString('utf8', offset + 1, lineEnd);
  const next = lineEnd + 2;
  switch (type) {
    case '+':
      return { value: line, end: next };
    case '-':
    case '!':
      return { value: new RespErrorReply(line), end: next };
    case ':':
    case ',':
      return { value: Number(line), end: next };
    case '_':
      return { value: null, end: next };
    case '#':
      return { value: line === 't' ? 1 : 0, end: next };
    case '$':
    case '=': {
      const length = Number(line);
      if (length < 0) return { value: null, end: next };
      if (buffer.length < next + length + 2) return undefined;
      return { value: buffer.toString('utf8', next, next + length), end: next + length + 2 };
    }
    case '*':
    case '~':
    case '>':
    case '%': {
      const count = Number(line) * (type === '%' ? 2 : 1);
      if (count < 0) return { value: null, end: next };
      const items: RespValue[] = [];
      let at = next;
      for (let i = 0; i < count; i++) {
        const item = readRespValue(buffer, at);
        if (!item) return undefined;
        items.push(item.value);
        at = item.end;
      }
      return { value: items, end: at };
    }
    default:
      throw new Error(`unexpected RESP type byte ${JSON.stringify(type)}`);
  }
}
