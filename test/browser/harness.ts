// Runs the results panel in headless Chromium (playwright-core), as a VS Code webview would: the HTML
// the host serves (same builder, same CSP), the built dist/webview/results.js, a fake acquireVsCodeApi,
// and the --vscode-* variables and body class of VS Code's default light and dark themes.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { newNonce, panelHtml } from '../../src/views/html';
import type { CompareHostMessage, HostMessage, WebviewMessage } from '../../src/views/messages';
import { repoRoot } from '../unit/scenario/helpers';

// Page functions below run in the browser. The root tsconfig has no DOM types (Node code must not see
// them), so the few browser globals they use are declared loosely, for this module only.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any, document: any, MutationObserver: any;
type HTMLCanvasElement = any;
type CanvasRenderingContext2D = any;
type HTMLElement = any;

export const CHROMIUM = process.env.RBENCH_CHROMIUM ?? '/usr/bin/chromium';
const ORIGIN = 'https://rbench-webview.test';

/** Values of VS Code's "Dark Modern" and "Light Modern" themes for the variables the panel reads. */
const MODERN: Record<'dark' | 'light', { bodyClass: string; variables: Record<string, string> }> = {
  dark: {
    bodyClass: 'vscode-dark',
    variables: {
      'editor-foreground': '#cccccc',
      'editor-background': '#1f1f1f',
      foreground: '#cccccc',
      descriptionForeground: '#9d9d9d',
      errorForeground: '#f85149',
      'charts-foreground': '#cccccc',
      'charts-lines': '#cccccc80',
      'charts-red': '#f14c4c',
      'charts-blue': '#3794ff',
      'charts-yellow': '#cca700',
      'charts-orange': '#d18616',
      'charts-green': '#89d185',
      'charts-purple': '#b180d7',
      'editorWidget-border': '#454545',
      'panel-border': '#2b2b2b',
      'testing-iconPassed': '#73c991',
      'testing-iconFailed': '#f14c4c',
      'editorWarning-foreground': '#cca700',
      'textBlockQuote-background': '#2b2b2b',
      focusBorder: '#0078d4',
      'button-background': '#0078d4',
      'button-foreground': '#ffffff',
      'button-hoverBackground': '#026ec1',
      'button-secondaryBackground': '#313131',
      'button-secondaryForeground': '#cccccc',
      'button-secondaryHoverBackground': '#3c3c3c',
      'button-border': '#ffffff12',
      'badge-background': '#616161',
      'badge-foreground': '#f8f8f8',
      'progressBar-background': '#0078d4',
      'textLink-foreground': '#4daafc',
      'editor-selectionBackground': '#264f78',
      'sideBarSectionHeader-background': '#181818',
      'sideBarSectionHeader-foreground': '#cccccc',
      'sideBarSectionHeader-border': '#2b2b2b',
      'font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif',
      'font-size': '13px',
      'font-weight': 'normal',
      'editor-font-family': '"Droid Sans Mono", "monospace", monospace',
      'editor-font-size': '14px',
    },
  },
  light: {
    bodyClass: 'vscode-light',
    variables: {
      'editor-foreground': '#3b3b3b',
      'editor-background': '#ffffff',
      foreground: '#3b3b3b',
      descriptionForeground: '#3b3b3b',
      errorForeground: '#f85149',
      'charts-foreground': '#616161',
      'charts-lines': '#61616180',
      'charts-red': '#e51400',
      'charts-blue': '#1a85ff',
      'charts-yellow': '#bf8803',
      'charts-orange': '#d18616',
      'charts-green': '#388a34',
      'charts-purple': '#652d90',
      'editorWidget-border': '#c8c8c8',
      'panel-border': '#e5e5e5',
      'testing-iconPassed': '#73c991',
      'testing-iconFailed': '#f14c4c',
      'editorWarning-foreground': '#bf8803',
      'textBlockQuote-background': '#f8f8f8',
      focusBorder: '#005fb8',
      'button-background': '#005fb8',
      'button-foreground': '#ffffff',
      'button-hoverBackground': '#0258a8',
      'button-secondaryBackground': '#e5e5e5',
      'button-secondaryForeground': '#3b3b3b',
      'button-secondaryHoverBackground': '#cccccc',
      'button-border': '#0000001a',
      'badge-background': '#cccccc',
      'badge-foreground': '#3b3b3b',
      'progressBar-background': '#005fb8',
      'textLink-foreground': '#005fb8',
      'editor-selectionBackground': '#add6ff',
      'sideBarSectionHeader-background': '#f8f8f8',
      'sideBarSectionHeader-foreground': '#3b3b3b',
      'sideBarSectionHeader-border': '#e5e5e5',
      'font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif',
      'font-size': '13px',
      'font-weight': 'normal',
      'editor-font-family': '"Droid Sans Mono", "monospace", monospace',
      'editor-font-size': '14px',
    },
  },
};

/**
 * VS Code's "Default High Contrast" (dark) where it differs from Dark Modern: black, white text, its own
 * chart colours (code-server 4.139 sets no chart orange there: the warning yellow stands in).
 */
export const THEMES: Record<'dark' | 'light' | 'high-contrast', { bodyClass: string; variables: Record<string, string> }> = {
  ...MODERN,
  'high-contrast': {
    bodyClass: 'vscode-high-contrast',
    variables: {
      ...MODERN.dark.variables,
      'editor-foreground': '#ffffff',
      'editor-background': '#000000',
      foreground: '#ffffff',
      descriptionForeground: '#ffffffb3',
      'charts-foreground': '#ffffff',
      'charts-lines': '#ffffff80',
      'charts-red': '#f48771',
      'charts-blue': '#59a4f9',
      'charts-yellow': '#ffd370',
      'charts-orange': '#ab5a00',
      'charts-green': '#89d185',
      'charts-purple': '#b180d7',
      'editorWarning-foreground': '#ffd370',
      'panel-border': '#6fc3df',
      'editorWidget-border': '#6fc3df',
    },
  },
};

export type ThemeName = keyof typeof THEMES;

export function fixture(name: string): string {
  return join(repoRoot(), 'test', 'browser', 'fixtures', name);
}

export function readFixture<T = unknown>(name: string): T {
  return JSON.parse(readFileSync(fixture(name), 'utf8')) as T;
}

export interface PanelBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Why the browser tests cannot run here (no Chromium), or undefined. */
export function browserUnavailable(): string | undefined {
  if (!existsSync(CHROMIUM)) return `Chromium not found at ${CHROMIUM} (install it, e.g. apt-get install chromium, or set RBENCH_CHROMIUM)`;
  return undefined;
}

/**
 * For a suite's `before` hook: skips the suite (saying why) without Chromium, fails without the built
 * webview script, else launches the browser.
 */
/** Launches chromium for a browser suite. A missing browser fails the suite: a skipped suite would hide behind a green total. */
export async function launchBrowserForSuite(entry: 'results' | 'compare' = 'results'): Promise<PanelBrowser> {
  const why = browserUnavailable();
  if (why) throw new Error(why);
  if (!existsSync(join(repoRoot(), 'dist', 'webview', `${entry}.js`))) throw new Error(`dist/webview/${entry}.js is missing: run \`npm run build\` first`);
  return launchBrowser();
}

export async function launchBrowser(): Promise<PanelBrowser> {
  const { chromium } = await import('playwright-core');
  const userDataDir = mkdtempSync(join(tmpdir(), 'rbench-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** The fake VS Code API and theme, installed before any page script runs. */
function initScript(args: { variables: Record<string, string>; bodyClass: string; state: unknown }): void {
  const w = window as unknown as Record<string, unknown>;
  const posted: unknown[] = [];
  const violations: { directive: string; blocked: string; sample: string }[] = [];
  let state = args.state;
  w.__posted = posted;
  w.__violations = violations;
  w.__getState = () => state;
  w.acquireVsCodeApi = () => ({
    postMessage: (message: unknown) => posted.push(JSON.parse(JSON.stringify(message))),
    getState: () => state,
    setState: (value: unknown) => {
      state = value;
    },
  });
  document.addEventListener('securitypolicyviolation', (e: any) =>
    violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample }),
  );
  // As VS Code does: variables on <html> through the CSSOM (not a style attribute, which the CSP would block), class on <body>.
  let applied = false;
  const apply = () => {
    if (applied || !document.documentElement || !document.body) return;
    applied = true;
    for (const [name, value] of Object.entries(args.variables)) document.documentElement.style.setProperty(`--vscode-${name}`, value);
    document.body.className = args.bodyClass;
  };
  const observer = new MutationObserver(() => {
    apply();
    if (applied) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
}

export interface OpenPanel {
  page: Page;
  /** Milliseconds from posting the first host message to the panel's first paint (rbench-first-paint). */
  post(message: HostMessage | CompareHostMessage): Promise<void>;
  posted(): Promise<WebviewMessage[]>;
  violations(): Promise<{ directive: string; blocked: string; sample: string }[]>;
  setTheme(name: ThemeName): Promise<void>;
}

/** Opens a panel page: the results panel, or another webview script of dist/webview (`compare`). */
export async function openPanel(
  browser: PanelBrowser,
  theme: ThemeName,
  state: unknown = undefined,
  entry: 'results' | 'compare' = 'results',
): Promise<OpenPanel> {
  const page = await browser.context.newPage();
  const script = readFileSync(join(repoRoot(), 'dist', 'webview', `${entry}.js`), 'utf8');
  const html = panelHtml({ cspSource: ORIGIN, nonce: newNonce(), scriptUri: `${ORIGIN}/dist/webview/${entry}.js`, title: 'RBench results' });
  await page.route(`${ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/panel.html') return route.fulfill({ status: 200, contentType: 'text/html', body: html });
    if (url.pathname === `/dist/webview/${entry}.js`) return route.fulfill({ status: 200, contentType: 'text/javascript', body: script });
    return route.fulfill({ status: 404, body: '' });
  });
  await page.addInitScript(initScript, { variables: THEMES[theme].variables, bodyClass: THEMES[theme].bodyClass, state });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${ORIGIN}/panel.html`);
  await page.waitForFunction(() => ((window as unknown as { __posted: { type: string }[] }).__posted ?? []).some((m) => m.type === 'ready'));
  if (errors.length > 0) throw new Error(`panel script errors: ${errors.join('; ')}`);
  return {
    page,
    async post(message) {
      await page.evaluate((m) => window.postMessage(m, '*'), message as unknown as Record<string, unknown>);
      if (errors.length > 0) throw new Error(`panel script errors: ${errors.join('; ')}`);
    },
    posted: () => page.evaluate(() => (window as unknown as { __posted: WebviewMessage[] }).__posted),
    violations: () => page.evaluate(() => (window as unknown as { __violations: { directive: string; blocked: string; sample: string }[] }).__violations),
    async setTheme(name) {
      await page.evaluate(
        ({ variables, bodyClass }) => {
          for (const [key, value] of Object.entries(variables)) document.documentElement.style.setProperty(`--vscode-${key}`, value);
          document.body.className = bodyClass;
        },
        { variables: THEMES[name].variables, bodyClass: THEMES[name].bodyClass },
      );
    },
  };
}

/** Waits for the first render, returns ms from the `run` message's arrival to the first painted frame. */
export async function firstPaint(page: Page): Promise<number> {
  await page.waitForFunction(() => document.body.dataset.rendered === 'true');
  return page.evaluate(() => {
    const received = performance.getEntriesByName('rbench-run-received')[0];
    const painted = performance.getEntriesByName('rbench-first-paint')[0];
    return painted && received ? painted.startTime - received.startTime : NaN;
  });
}

/** Counts canvas pixels that differ from the first pixel (a blank canvas has none) for each chart. */
export async function chartInk(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const result: Record<string, number> = {};
    for (const figure of document.querySelectorAll('figure[data-chart]')) {
      const canvas = figure.querySelector('canvas');
      const id = (figure as HTMLElement).dataset.chart as string;
      if (!canvas) {
        result[id] = 0;
        continue;
      }
      const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let ink = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i + 3] !== 0) ink++;
      result[id] = ink;
    }
    return result;
  });
}

/** Pixels of one chart's canvas within a small distance of a colour (`#rrggbb`), at least `minAlpha` opaque: proof that a series in that colour was drawn. */
export async function colourInk(page: Page, chart: string, hex: string, minAlpha = 200): Promise<number> {
  return page.evaluate(
    ({ chart, hex, minAlpha }) => {
      const canvas = document.querySelector(`figure[data-chart="${chart}"] canvas`) as HTMLCanvasElement | null;
      if (!canvas) return 0;
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      const { data } = (canvas.getContext('2d') as CanvasRenderingContext2D).getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] >= minAlpha && Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) < 40) count++;
      }
      return count;
    },
    { chart, hex, minAlpha },
  );
}
