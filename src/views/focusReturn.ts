// Opening a webview in another editor group can activate that group, and a loading webview can take
// keyboard focus, even with `preserveFocus` (the scenario's title Run/Stop buttons then vanish, and the
// next file opens in the results group). This remembers where focus was when a results panel opened and says when to give it
// back: only while the panel is loading, so a click into the panel later is left alone. No `vscode` here.

/** How long after the webview says it is ready a focus grab still counts as part of loading. */
export const SETTLE_MS = 1000;
/** Never longer than this after opening, even if the webview never says it is ready. */
export const MAX_LOADING_MS = 10_000;

export class FocusReturn<Target> {
  private target: Target | undefined;
  private until = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** A panel opens (or reloads) while `target` has focus; nothing to return to when undefined. */
  opened(target: Target | undefined): void {
    this.target = target;
    this.until = this.now() + MAX_LOADING_MS;
  }

  /** The webview finished loading: a grab right after still belongs to the load. */
  ready(): void {
    if (this.target !== undefined) this.until = Math.min(this.until, this.now() + SETTLE_MS);
  }

  /** Where to put focus back if it left the editor now: while a panel loads; undefined after (then the user moved it). */
  returnTo(): Target | undefined {
    if (this.target !== undefined && this.now() > this.until) this.target = undefined;
    return this.target;
  }
}
