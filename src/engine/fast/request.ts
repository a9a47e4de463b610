// Reads encoded RESP requests (`*N\r\n$len\r\narg\r\n…`) as the batch builder wrote them: where each one
// ends and where a given argument lies, without copying or allocating (this runs once per request).

/** Offset just past the request that starts at `start`; `argument` (≥ 0) also gets the bounds of that argument. */
export function scanRequest(bytes: Uint8Array, start: number, argument: number, bounds: Int32Array): number {
  let at = start + 1;
  let count = 0;
  while (bytes[at] !== 0x0d) count = count * 10 + (bytes[at++] - 0x30);
  at += 2;
  bounds[0] = bounds[1] = -1;
  for (let i = 0; i < count; i++) {
    // `$len\r\n` then len bytes and `\r\n`.
    let length = 0;
    at++;
    while (bytes[at] !== 0x0d) length = length * 10 + (bytes[at++] - 0x30);
    at += 2;
    if (i === argument) {
      bounds[0] = at;
      bounds[1] = at + length;
    }
    at += length + 2;
  }
  return at;
}
