// Hover on a setting's value: what `50k`, `1KB`, `2ms` or `20k/s` amount to, and what a word such as
// `uniform` or `ioredis` means, from the same unit readers and tables the resolver uses.
import { KEY_DISTRIBUTIONS, type SettingInfo } from '../settings';
import { parseCount, parseDuration, parseRate, parseSize } from '../units';
import { code } from './docs';
import { groupDigits } from '../numberText';

/** The key distributions in a sentence each. */
const DISTRIBUTIONS: Record<(typeof KEY_DISTRIBUTIONS)[number], string> = {
  sequential: 'keys are drawn in order, 0, 1, 2 … N-1, then again from 0',
  uniform: 'every key of the space is equally likely (redis-benchmark `-r`)',
  gaussian: 'keys near the middle of the space are drawn most often; the number after it is the standard deviation as a fraction of the space (default 1/6)',
  zipf: 'a few keys are drawn very often and most rarely, as in a cache; the number after it is the exponent (default 0.99)',
};

const number = groupDigits;

function durationWords(ms: number): string {
  if (ms >= 1000) return `${number(ms / 1000)} s`;
  if (ms >= 1) return `${number(ms)} ms`;
  return `${number(ms * 1000)} µs`;
}

/** What one value word of a setting means; undefined when there is nothing to add to the word itself. */
export function valueMarkdown(info: SettingInfo, word: string, index: number): string | undefined {
  const lower = word.toLowerCase();
  if (info.kind === 'keys' && index > 0 && lower in DISTRIBUTIONS) {
    return `**${lower}** — key distribution: ${DISTRIBUTIONS[lower as keyof typeof DISTRIBUTIONS]}`;
  }
  if (info.values?.includes(word) && info.kind !== 'keys') return `**${word}** — one of ${info.values.map(code).join(', ')} for ${code(info.name)}`;
  const plain = /^\d+$/.test(word);
  if (info.kind === 'count' || info.kind === 'threads' || (info.kind === 'keys' && index === 0)) {
    const count = parseCount(word);
    if (count.ok && !plain) return `${code(word)} = ${number(count.value)}`;
  }
  if (info.kind === 'duration') {
    const duration = parseDuration(word);
    if (duration.ok) return `${code(word)} = ${durationWords(duration.value)}`;
  }
  if (info.kind === 'rate' || info.kind === 'find') {
    const rate = parseRate(word, info.kind === 'rate');
    if (rate.ok) return `${code(word)} = ${number(rate.value)} requests per second`;
  }
  if (info.kind === 'value' || (info.kind === 'sweep' && index > 0)) {
    const size = parseSize(word);
    if (size.ok && !plain) return `${code(word)} = ${number(size.value)} bytes`;
  }
  return undefined;
}
