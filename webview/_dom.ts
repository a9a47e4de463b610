// Small DOM helpers shared by the panels' scripts: elements, VS Code Elements custom tags, buttons, and
// the panel's styles injected as <style nonce> elements (the CSP allows no inline style without it).

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === 'class') node.className = value;
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

export function custom(tag: string, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

export function button(label: string, onClick: () => void, options: { secondary?: boolean; id?: string; disabled?: boolean } = {}): HTMLElement {
  const b = custom('vscode-button', options.id ? { id: options.id } : {}, label);
  if (options.secondary) b.setAttribute('secondary', '');
  if (options.disabled) b.setAttribute('disabled', '');
  b.addEventListener('click', () => {
    if (!b.hasAttribute('disabled')) onClick();
  });
  return b;
}

/** Adds the style sheets with the page script's nonce. */
export function injectStyles(...sheets: string[]): void {
  const nonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? '';
  for (const css of sheets) {
    const style = document.createElement('style');
    style.nonce = nonce;
    style.textContent = css;
    document.head.append(style);
  }
}

/** Calls `handle` with each message the host posts; anything without a string `type` is ignored. */
export function onHostMessage<T extends { type: string }>(handle: (message: T) => void): void {
  window.addEventListener('message', (event: MessageEvent<T>) => {
    const message = event.data;
    if (message && typeof message === 'object' && typeof message.type === 'string') handle(message);
  });
}

/** Shows the host's short notice (copied, saved, …) in the page's live region. */
export function showNotice(text: string): void {
  const notice = document.getElementById('notice');
  if (notice) notice.textContent = text;
}
