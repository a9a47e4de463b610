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

function crc16(bytes: Uint8Array, start: number, end: number): number {
  let crc = 0;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ bytes[i]) & 0xff];
  return crc;
}

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }

/** The slot of the key bytes[start … end): only the part inside the first non-empty `{…}` counts when there is one. */
export function slotOfBytes(bytes: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; i++) {
    if (bytes[i] !== OPEN) continue;
    for (let j = i + 1; j < end; j++) {
      if (bytes[j] !== CLOSE) continue;
      if (j > i + 1) return crc16(bytes, i + 1, j) & (SLOT_COUNT - 1);
      break;
    }
    break;
  }
  return crc16(bytes, start, end) & (SLOT_COUNT - 1);
}

export function slotOf(key: string): number {
  const bytes = Buffer.from(key);
  return slotOfBytes(bytes, 0, bytes.length);
}
