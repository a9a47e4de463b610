// RESP encoding of plain commands (handshakes, control reads, sentinel queries). The load's command
// templates have their own compiled encoder (src/engine/requests/templateEncoder.ts), checked against this one.

const CRLF = Buffer.from('\r\n');

/** Reference encoder: a RESP array of bulk strings. Used for handshakes and to check the fast encoder. */
export function encodeRespCommand(args: (string | Uint8Array)[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const arg of args) {
    const bytes = typeof arg === 'string' ? Buffer.from(arg, 'utf8') : Buffer.from(arg.buffer, arg.byteOffset, arg.byteLength);
    parts.push(Buffer.from(`$${bytes.length}\r\n`), bytes, CRLF);
  }
  return Buffer.concat(parts);
}

/** Reference encoder for an inline command (`PING\r\n`). */
export function encodeInlineCommand(args: string[]): Buffer {
  return Buffer.from(args.join(' ') + '\r\n', 'utf8');
}
