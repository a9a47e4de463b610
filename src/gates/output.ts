// The one sanitizer for output. Run files, scenario names and server replies carry bytes a stranger chose;
// printed raw, ESC sequences recolour or clear a terminal, OSC 52 writes the clipboard, bidi overrides
// reorder what a reader sees, `=…` in a CSV cell runs as a spreadsheet formula and HTML in a Markdown
// cell renders in a pull-request comment. Every channel passes its text through one of these functions
// at the one place it writes. Node builtins only: this is the ground floor.

/**
 * C0 controls but `\n` and `\t`, DEL, C1 controls, the bidi embeddings/overrides/isolates (U+202A–202E,
 * U+2066–2069) and marks (U+200E, U+200F, U+061C), and the line/paragraph separators U+2028/U+2029 (a
 * line break for some viewers).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/**
 * `text` with every control character shown as a visible `\uXXXX` escape (`\x1b[31m` → `\u001b[31m`).
 *
 * The `\uXXXX` form (not `\x1b`) keeps JSON printed through the same channel valid and equal in meaning.
 * Idempotent: the output holds no control character and a backslash is left as it is, so text escaped
 * twice (a notification built from an already escaped line) shows each escape once. The price is that a
 * literal `\u001b` in the input reads the same as an escaped ESC: for a reader, both are harmless text.
 * One regular-expression pass over a character class: linear in the text.
 */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A signed number as a spreadsheet reads it: it evaluates to itself, so it is no formula (`-1.5`, `+3`, `-2e-3`).
 * Consulted only for text that starts like a formula, so the sign is always there.
 */
const SIGNED_NUMBER = /^[-+](?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * What a spreadsheet may run as a formula (OWASP "CSV injection"): a cell starting with `=`, `+`, `-`,
 * `@` or a tab. (A carriage return cannot start a cell here: escapeControl has made it text.)
 */
const FORMULA_START = /^[=+\-@\t]/;

/**
 * One CSV cell, always quoted (RFC 4180: `"` doubled inside), control characters escaped. A cell a
 * spreadsheet would run as a formula gets a leading `'`, which spreadsheets read as "this is text",
 * inside the quotes — except a plain number (`-12.5` in a change column), which stays a number.
 */
export function csvCell(value: string): string {
  const text = escapeControl(value);
  const safe = FORMULA_START.test(text) && !SIGNED_NUMBER.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** Markdown's inline syntax characters that text can use to format, link or end a table cell. */
const MARKDOWN_SPECIAL = /[\\`*_[\]|<>&\n]/g;
const MARKDOWN_ESCAPES: Readonly<Record<string, string>> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '\n': ' ' };

/**
 * Text for a Markdown table cell, list item or heading, shown as written: control characters escaped,
 * HTML's `<`, `>` and `&` as entities (GitHub renders raw HTML), `|` (ends a cell), backslash, backticks,
 * emphasis, link and strikethrough characters backslash-escaped, a newline (ends the table row) a space.
 * The text is always placed after other text on its line (`| `, `- `), so line-start syntax (`#`, `>`,
 * `1.`) has no effect and is left alone.
 */
export function markdownCell(value: string): string {
  return escapeControl(value).replace(MARKDOWN_SPECIAL, (char) => MARKDOWN_ESCAPES[char] ?? `\\${char}`);
}

/**
 * A Markdown code span of `value` in a list item or heading (shown literally, backslashes too): a backtick
 * or newline would end it, so they become `'` and a space. Not for table cells (a `|` would end the cell).
 */
export function markdownCode(value: string): string {
  return `\`${escapeControl(value).replace(/`/g, "'").replace(/\n/g, ' ')}\``;
}
