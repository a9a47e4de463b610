// Redis Cluster hash slots: CRC16 (XMODEM) of the key, or of its `{hash tag}`, modulo 16384.
export const SLOT_COUNT = 16384;

const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[i] = crc;
  }
  return table;
})();

/** CRC16 of bytes[start … end), continuing from `crc` (the CRC of the bytes before them; 0 for none). */
export function crc16(bytes: Uint8Array, start: number, end: number, crc = 0): number {
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ bytes[i]) & 0xff];
  return crc;
}

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }

/**
 * Where the part of the key bytes[start … end) that its slot hashes lies, into out[0] … out[1]: the inside of the
 * first non-empty `{…}` when there is one, else the whole key.
 */
export function hashedPart(bytes: Uint8Array, start: number, end: number, out: Int32Array): void {
  out[0] = start;
  out[1] = end;
  for (let i = start; i < end; i++) {
    if (bytes[i] !== OPEN) continue;
    for (let j = i + 1; j < end; j++) {
      if (bytes[j] !== CLOSE) continue;
      if (j > i + 1) {
        out[0] = i + 1;
        out[1] = j;
      }
      return;
    }
    return;
  }
}

const part = new Int32Array(2);

/** The slot of the key bytes[start … end). */
export function slotOfBytes(bytes: Uint8Array, start: number, end: number): number {
  hashedPart(bytes, start, end, part);
  return crc16(bytes, part[0], part[1]) & (SLOT_COUNT - 1);
}

export function slotOf(key: string): number {
  const bytes = Buffer.from(key);
  return slotOfBytes(bytes, 0, bytes.length);
}
