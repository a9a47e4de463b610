// The send stamp `__now__`: the sender's CLOCK_MONOTONIC time in microseconds, exactly 16 decimal digits, written
// into an argument per request. A receiver (a subscriber, a queue consumer) reads it back from the start of the
// value it got and subtracts it from its own clock. process.hrtime.bigint() reads CLOCK_MONOTONIC, one clock for
// every thread and process of a machine; performance.now() counts from each worker's own start and is not
// comparable across threads. Stamps of two machines (`--shard`) are not comparable at all.

/** Digits of a stamp: microseconds since boot fit in 16 digits for 300 years. */
export const SEND_STAMP_DIGITS = 16;

const ZERO = 48;

/** Now, in microseconds of CLOCK_MONOTONIC (exact as a number: below 2^53 for 285 years of uptime). */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** Writes the stamp of now at `offset` (exactly SEND_STAMP_DIGITS bytes). */
export function writeSendStamp(target: Uint8Array, offset: number, micros = monotonicMicros()): void {
  let rest = micros;
  for (let at = offset + SEND_STAMP_DIGITS - 1; at >= offset; at--) {
    const quotient = Math.floor(rest / 10);
    target[at] = ZERO + (rest - quotient * 10);
    rest = quotient;
  }
}

/** The stamp of now as text. */
export function sendStampText(micros = monotonicMicros()): string {
  return String(micros).padStart(SEND_STAMP_DIGITS, '0');
}

/** The number written in `count` ASCII digits at `offset`, or -1 when one of them is not a digit. */
function digitsAt(value: Uint8Array | string, offset: number, count: number): number {
  let number = 0;
  for (let i = offset; i < offset + count; i++) {
    const digit = (typeof value === 'string' ? value.charCodeAt(i) : value[i]) - ZERO;
    if (!(digit >= 0 && digit <= 9)) return -1;
    number = number * 10 + digit;
  }
  return number;
}

const HALF = SEND_STAMP_DIGITS / 2;

/**
 * The stamp at `offset` of a received value (a message, a popped job): 16 digits, in microseconds;
 * undefined when the value does not start with one (a message someone else published).
 */
export function stampAt(value: Uint8Array | string, offset = 0): bigint | undefined {
  if (value.length - offset < SEND_STAMP_DIGITS) return undefined;
  const high = digitsAt(value, offset, HALF);
  const low = high < 0 ? -1 : digitsAt(value, offset + HALF, HALF);
  return low < 0 ? undefined : BigInt(high) * 10n ** BigInt(HALF) + BigInt(low);
}

/** Microseconds from a stamp to `now` on this machine's monotonic clock; undefined when the value holds none. */
export function stampAge(value: Uint8Array | string, offset = 0, now = monotonicMicros()): number | undefined {
  if (value.length - offset < SEND_STAMP_DIGITS) return undefined;
  const high = digitsAt(value, offset, HALF);
  const low = high < 0 ? -1 : digitsAt(value, offset + HALF, HALF);
  // Exact below 2^53 µs (285 years of uptime); a receiver's clock never runs behind the sender's on one machine.
  return low < 0 ? undefined : now - (high * 10 ** HALF + low);
}
