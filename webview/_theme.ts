// Colours and fonts for canvas charts, read from the --vscode-* variables VS Code sets on the webview,
// and the status colours of the page's text made readable on the theme's background (WCAG AA).
// Nothing is hard-coded: a variable the host does not set falls back to another theme variable, and
// finally to the computed text colour of the body.
import { cssColour, parseColour, readableOn } from '../src/views/contrast';

export interface Theme {
  kind: 'light' | 'dark' | 'high-contrast';
  foreground: string;
  background: string;
  muted: string;
  grid: string;
  border: string;
  /** Series colours, in order. */
  palette: string[];
  red: string;
  green: string;
  orange: string;
  purple: string;
  yellow: string;
  blue: string;
  font: string;
  fontSize: number;
}

function variable(style: CSSStyleDeclaration, names: string[], fallback: string): string {
  for (const name of names) {
    const value = style.getPropertyValue(name).trim();
    if (value) return value;
  }
  return fallback;
}

export function readTheme(): Theme {
  const style = getComputedStyle(document.documentElement);
  const bodyStyle = getComputedStyle(document.body);
  const text = bodyStyle.color;
  const foreground = variable(style, ['--vscode-editor-foreground', '--vscode-foreground'], text);
  const background = variable(style, ['--vscode-editor-background', '--vscode-sideBar-background'], bodyStyle.backgroundColor);
  const muted = variable(style, ['--vscode-descriptionForeground', '--vscode-disabledForeground'], foreground);
  const grid = variable(style, ['--vscode-charts-lines', '--vscode-editorWidget-border', '--vscode-panel-border'], muted);
  const border = variable(style, ['--vscode-editorWidget-border', '--vscode-panel-border', '--vscode-charts-lines'], muted);
  const chart = (name: string, alternatives: string[]) => variable(style, [`--vscode-charts-${name}`, ...alternatives], foreground);
  const blue = chart('blue', ['--vscode-textLink-foreground', '--vscode-focusBorder']);
  const orange = chart('orange', ['--vscode-editorWarning-foreground']);
  const green = chart('green', ['--vscode-testing-iconPassed']);
  const purple = chart('purple', ['--vscode-symbolIcon-classForeground']);
  const yellow = chart('yellow', ['--vscode-editorWarning-foreground']);
  const red = chart('red', ['--vscode-errorForeground', '--vscode-editorError-foreground']);
  const classes = document.body.classList;
  const kind =
    classes.contains('vscode-high-contrast') || classes.contains('vscode-high-contrast-light')
      ? 'high-contrast'
      : classes.contains('vscode-light')
        ? 'light'
        : 'dark';
  const fontFamily = variable(style, ['--vscode-font-family'], bodyStyle.fontFamily);
  const fontSize = parseFloat(variable(style, ['--vscode-font-size'], bodyStyle.fontSize)) || parseFloat(bodyStyle.fontSize) || 13;
  return {
    kind,
    foreground,
    background,
    muted,
    grid,
    border,
    palette: [blue, orange, green, purple, yellow, red],
    red,
    green,
    orange,
    purple,
    yellow,
    blue,
    font: fontFamily,
    fontSize,
  };
}

/** The page's status colours (`--rbench-*`, used by _styles.css), each from the theme variables named, in order. */
const STATUS_COLOURS: Record<string, string[]> = {
  pass: ['--vscode-testing-iconPassed', '--vscode-charts-green'],
  fail: ['--vscode-testing-iconFailed', '--vscode-errorForeground'],
  error: ['--vscode-errorForeground', '--vscode-charts-red'],
  running: ['--vscode-charts-blue', '--vscode-textLink-foreground'],
  warning: ['--vscode-editorWarning-foreground', '--vscode-charts-orange'],
  better: ['--vscode-charts-green', '--vscode-testing-iconPassed'],
  worse: ['--vscode-charts-red', '--vscode-errorForeground'],
  muted: ['--vscode-descriptionForeground', '--vscode-foreground'],
};

/** A CSS colour as the browser resolves it (`rgb(…)`), whatever the theme wrote (`#73c991`, a name, `rgba`). */
function resolved(value: string, probe: HTMLElement): string {
  probe.style.color = '';
  probe.style.color = value;
  return getComputedStyle(probe).color;
}

/**
 * Sets each status colour to the theme's, darkened or lightened just enough for 4.5:1 on the editor
 * background (VS Code's "passed" green is about 2:1 on white). Call again when the theme changes.
 */
export function applyReadableColours(): void {
  const root = document.documentElement;
  const style = getComputedStyle(root);
  const probe = document.createElement('span');
  probe.hidden = true;
  document.body.append(probe);
  const background = parseColour(getComputedStyle(document.body).backgroundColor);
  const opaque = background && background.a > 0 ? background : parseColour(resolved(variable(style, ['--vscode-editor-background'], '#ffffff'), probe));
  for (const [name, sources] of Object.entries(STATUS_COLOURS)) {
    const colour = parseColour(resolved(variable(style, sources, getComputedStyle(document.body).color), probe));
    if (colour && opaque) root.style.setProperty(`--rbench-${name}`, cssColour(readableOn(colour, { ...opaque, a: 1 })));
  }
  probe.remove();
}

/** Calls `onChange` when VS Code switches theme (it changes the body class and the variables together). */
export function watchTheme(onChange: () => void): MutationObserver {
  let last = document.body.className;
  const observer = new MutationObserver(() => {
    if (document.body.className === last) return;
    last = document.body.className;
    onChange();
  });
  observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
  return observer;
}
