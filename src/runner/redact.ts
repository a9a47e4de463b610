// Secrets never stored: every value a run learns that must not be written down (the password, whatever its
// source; environment values the user let into commands) is replaced before a run file is written or a line
// is printed. Plain data, no `vscode`.

import { redactUrl } from '../protocol/redisUrl';

/** `redis://user:pw@host` → `redis://user@host`: a URL without its password, for storing and printing. */
export function stripUrlPassword(url: string): string {
  return redactUrl(url, '');
}

/** Shorter values would turn up inside unrelated text; a password that short is no secret anyway. */
const MIN_SECRET_LENGTH = 4;

export class Redactor {
  private readonly secrets: { value: string; replacement: string }[] = [];

  /** Adds a value to hide; `replacement` is shown instead (`***`, or `${env:NAME}` for an allowed variable). */
  add(value: string | undefined, replacement = '***'): void {
    if (value === undefined || value.length < MIN_SECRET_LENGTH) return;
    for (const form of new Set([value, encodeURIComponent(value)])) {
      if (!this.secrets.some((secret) => secret.value === form)) this.secrets.push({ value: form, replacement });
    }
    // Longest first, so a secret containing another is replaced whole.
    this.secrets.sort((a, b) => b.value.length - a.value.length);
  }

  text(text: string): string {
    let result = text;
    for (const { value, replacement } of this.secrets) if (result.includes(value)) result = result.split(value).join(replacement);
    return result;
  }

  /** A copy of `value` with every string redacted (keys included); other values as they are. */
  deep<T>(value: T): T {
    if (this.secrets.length === 0) return value;
    const walk = (item: unknown): unknown => {
      if (typeof item === 'string') return this.text(item);
      if (Array.isArray(item)) return item.map(walk);
      if (item && typeof item === 'object') {
        // Defined, never assigned: a `__proto__` key from the server stays a key.
        return Object.fromEntries(Object.entries(item).map(([key, child]) => [this.text(key), walk(child)]));
      }
      return item;
    };
    return walk(value) as T;
  }
}
