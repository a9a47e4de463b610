// Reads encoded RESP requests (`*N\r\n$len\r\narg\r\n…`) as the batch builder wrote them: where each one
// ends and where a given argument lies, without copying.

function readNumber(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  let i = at;
  while (bytes[i] !== 0x0d) value = value * 10 + (bytes[i++] - 0x30);
  return { value, next: i + 2 };
}

/** Offset just past the request that starts at `start`; `argument` (≥ 0) also gets the bounds of that argument. */
export function scanRequest(bytes: Uint8Array, start: number, argument: number, bounds: Int32Array): number {
  const count = readNumber(bytes, start + 1);
  let at = count.next;
  bounds[0] = bounds[1] = -1;
  for (let i = 0; i < count.value; i++) {
    const length = readNumber(bytes, at + 1);
    if (i === argument) {
      bounds[0] = length.next;
      bounds[1] = length.next + length.value;
    }
    at = length.next + length.value + 2;
  }
  return at;
}
