// Messages between the extension host and the results webview, typed in one place for both sides.
import type { RunFile } from '../results/runFile';

/** Host → webview. */
export type HostMessage =
  | { type: 'run'; run: RunFile }
  | { type: 'theme-changed' };

/** Webview → host. */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'export'; format: 'csv' | 'markdown' | 'json' };

const WEBVIEW_MESSAGE_TYPES = new Set(['ready', 'export']);
const EXPORT_FORMATS = new Set(['csv', 'markdown', 'json']);

/** The host trusts nothing the webview sends: returns the message if it has a known shape. */
export function parseWebviewMessage(value: unknown): WebviewMessage | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const message = value as { type?: unknown; format?: unknown };
  if (typeof message.type !== 'string' || !WEBVIEW_MESSAGE_TYPES.has(message.type)) return undefined;
  if (message.type === 'export') {
    return typeof message.format === 'string' && EXPORT_FORMATS.has(message.format)
      ? { type: 'export', format: message.format as 'csv' | 'markdown' | 'json' }
      : undefined;
  }
  return { type: 'ready' };
}
