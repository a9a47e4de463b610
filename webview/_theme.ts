// Colours and fonts for canvas charts, read from the --vscode-* variables VS Code sets on the webview,
// and the status colours of the page's text made readable on the theme's background (WCAG AA).
// Nothing is hard-coded: a variable the host does not set falls back to another theme variable, and
// finally to the computed text colour of the body.
import { cssColour, parseColour, readableOn, type Rgba } from '../src/views/contrast';

export interface Theme {
  kind: 'light' | 'dark' | 'high-contrast';
  foreground: string;
  background: string;
  muted: string;
  /** `muted` as a chart line (the offered rate's diagonal): 3:1 against the background. */
  lineMuted: string;
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

/**
 * WCAG 2.1's minimum for graphical objects (1.4.11): a chart line against the page. A theme's chart colour
 * can miss it (Light Modern's orange is about 2.6:1 on white); it is darkened or lightened just enough.
 */
export const CHART_CONTRAST = 3;

/** The page's background as an opaque colour: the body's, else the editor background variable. */
function pageBackground(style: CSSStyleDeclaration, probe: HTMLElement): Rgba | undefined {
  const background = parseColour(getComputedStyle(document.body).backgroundColor);
  if (background && background.a > 0) return { ...background, a: 1 };
  const variableColour = parseColour(resolved(variable(style, ['--vscode-editor-background'], '#ffffff'), probe));
  return variableColour ? { ...variableColour, a: 1 } : undefined;
}

/** The page's opaque background as `rgb(…)`, as the charts are measured against. */
export function pageBackgroundColour(): string | undefined {
  return withProbe((probe) => {
    const background = pageBackground(getComputedStyle(document.documentElement), probe);
    return background ? cssColour(background) : undefined;
  });
}

/** Runs `use` with a hidden element to resolve CSS colours on. */
function withProbe<T>(use: (probe: HTMLElement) => T): T {
  const probe = document.createElement('span');
  probe.hidden = true;
  document.body.append(probe);
  try {
    return use(probe);
  } finally {
    probe.remove();
  }
}

/**
 * Each colour as `rgb(…)`, opaque and at least `min`:1 against the page's background (unchanged where it
 * already is). A translucent theme colour is taken at full strength first: composed over the background it
 * turns muddy (Dark Modern's orange at a third showed brown on black), and darkening mud keeps it mud.
 */
function readableColours<K extends string>(colours: Record<K, string>, min: number): Record<K, string> {
  return withProbe((probe) => {
    const background = pageBackground(getComputedStyle(document.documentElement), probe);
    const out = { ...colours };
    for (const key of Object.keys(colours) as K[]) {
      const colour = parseColour(resolved(colours[key], probe));
      if (colour && background) out[key] = cssColour(readableOn({ ...colour, a: 1 }, background, min));
    }
    return out;
  });
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
  // The theme's chart colours, each made to keep 3:1 against the background: every line is drawn in these.
  const { blue, orange, green, purple, yellow, red, lineMuted } = readableColours(
    {
      blue: chart('blue', ['--vscode-textLink-foreground', '--vscode-focusBorder']),
      orange: chart('orange', ['--vscode-editorWarning-foreground']),
      green: chart('green', ['--vscode-testing-iconPassed']),
      purple: chart('purple', ['--vscode-symbolIcon-classForeground']),
      yellow: chart('yellow', ['--vscode-editorWarning-foreground']),
      red: chart('red', ['--vscode-errorForeground', '--vscode-editorError-foreground']),
      lineMuted: muted,
    },
    CHART_CONTRAST,
  );
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
    lineMuted,
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
  withProbe((probe) => {
    const opaque = pageBackground(style, probe);
    for (const [name, sources] of Object.entries(STATUS_COLOURS)) {
      const colour = parseColour(resolved(variable(style, sources, getComputedStyle(document.body).color), probe));
      if (colour && opaque) root.style.setProperty(`--rbench-${name}`, cssColour(readableOn(colour, opaque)));
    }
  });
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
