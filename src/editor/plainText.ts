// VS Code shows diagnostics, notifications, test messages and quick-fix titles as plain text: the
// language's messages mark code with `backticks` (for the CLI, hovers and docs), which would show literally.

/** `value`: `10QB` has… → "value": "10QB" has… (code already holding a double quote is left unquoted). */
export function plainText(message: string): string {
  return message.replace(/`([^`\n]+)`/g, (_, code: string) => (code.includes('"') ? code : `"${code}"`));
}
