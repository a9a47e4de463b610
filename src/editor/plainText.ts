// VS Code shows diagnostics, notifications, test messages and quick-fix titles as plain text: the
// language's messages mark code with `backticks` (for the CLI, hovers and docs), which would show literally.
// The text also carries scenario names, run files and server replies: control characters (ANSI, OSC 52,
// bidi overrides) are escaped first (src/gates/output.ts), so every notification built here shows them as text.
import { escapeControl } from '../gates/output';

/** `value`: `10QB` has… → "value": "10QB" has… (code already holding a double quote is left unquoted). */
export function plainText(message: string): string {
  return escapeControl(message).replace(/`([^`\n]+)`/g, (_, code: string) => (code.includes('"') ? code : `"${code}"`));
}
