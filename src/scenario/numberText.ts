// Numbers as the messages and tables show them: `1,234,567`, `0.125`, like `toLocaleString('en-US')`.
// Written by hand because the first `toLocaleString` of a process loads ICU's number formatting, about
// 11 ms of CPU that every `rbench run` paid for its first message (the memory estimate).

/** `n` with a comma between each group of three digits and at most three fraction digits, as `n.toLocaleString('en-US')`. */
export function groupDigits(n: number): string {
  if (!Number.isFinite(n)) return n.toLocaleString('en-US');
  // Like ICU, round the shortest decimal that reads back as `n` (`toExponential()`), not its exact binary value.
  const [mantissa, exponentText] = Math.abs(n).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const wholeDigits = Number(exponentText) + 1;
  const padded = wholeDigits <= 0 ? '0'.repeat(1 - wholeDigits) + digits : digits.padEnd(wholeDigits, '0');
  const point = Math.max(wholeDigits, 1);
  const kept = padded.slice(0, point + 3).padEnd(point + 3, '0');
  const rounded = padded.charCodeAt(point + 3) >= 53 /* '5' */ ? addOne(kept) : kept;
  const whole = rounded.slice(0, rounded.length - 3).replace(/^0+(?=\d)/, '');
  const fraction = rounded.slice(rounded.length - 3).replace(/0+$/, '');
  let grouped = whole.slice(0, ((whole.length - 1) % 3) + 1);
  for (let i = grouped.length; i < whole.length; i += 3) grouped += `,${whole.slice(i, i + 3)}`;
  return `${n < 0 || Object.is(n, -0) ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** A string of decimal digits plus one, a digit longer when it carries out: `'0999'` → `'1000'`, `'999'` → `'1000'`. */
function addOne(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i--;
  const head = i < 0 ? '1' : digits.slice(0, i) + String(Number(digits[i]) + 1);
  return head + '0'.repeat(digits.length - 1 - i);
}

/** `256 MiB`, `11.8 GiB`, `512 B`: the one byte formatter (powers of 1024, named as such). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${bytes} B`;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}
