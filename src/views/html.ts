// The results panel's HTML: a strict Content-Security-Policy (scripts and styles by nonce only, images and
// fonts from the extension's webview folder), a root element and the bundled script. Pure, so the browser
// test renders exactly what the host serves.
import { randomBytes } from 'node:crypto';

export interface PanelHtmlOptions {
  /** webview.cspSource: the origin of the extension's resources inside the webview. */
  cspSource: string;
  /** A fresh random nonce for this document (see newNonce). */
  nonce: string;
  /** webview.asWebviewUri of dist/webview/results.js. */
  scriptUri: string;
  title: string;
}

/** 128 random bits, base64: a new one for every HTML document. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

export function panelHtml(options: PanelHtmlOptions): string {
  const nonce = escapeHtml(options.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(options.cspSource, options.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(options.title)}</title>
</head>
<body>
<main id="root" aria-live="polite"><p class="loading">Loading results…</p></main>
<script nonce="${nonce}" src="${escapeHtml(options.scriptUri)}"></script>
</body>
</html>
`;
}
