// Drives the packaged extension as a person would: installs the .vsix into a fresh code-server, opens a
// scratch workspace with a small .rbench file in headless chromium, clicks "▶ Run" above the first
// scenario, waits for the "Run complete" notification and the summary lens, checks the run file, opens
// the RBench output channel through the command palette, and takes screenshots: the lenses, the empty
// RBench view with the Get Started walkthrough it links to, the finished run, the scenario and its results
// panel side by side (its table scrolls sideways to every column), and the short run's timeline chart. Last,
// Run All (F1): its modal question, one progress, runs one after another and one summary; then lines typed
// with a pause before each Enter, which must each end the line. No target is set,
// so the extension starts its own throwaway redis-server: the default path a user gets.
// Started by scripts/test-ui.sh (which packages the .vsix and installs the tools); code-server and chromium
// handling is shared with the integration suite's driver: test/e2e/codeServer.ts.
//
// Environment (set by scripts/test-ui.sh, plus those codeServer.ts reads):
//   RBENCH_UI_VSIX        the .vsix to install           RBENCH_UI_SCRATCH    empty folder (deleted by the caller)
//   RBENCH_UI_ARTIFACTS   logs and screenshots (kept)    RBENCH_UI_TIMEOUT    seconds for the whole test (default 270)
//   RBENCH_UI_DOCS_IMAGES folder to copy the screenshots into when every check passed (unset: do not copy)
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import {
  installExtension,
  killGroup,
  launchChromium,
  loadPlaywright,
  OFFLINE_NOISE,
  required,
  startServer,
  stopServer,
  tail,
  writeUserSettings,
  type CodeServer,
} from '../e2e/codeServer';

const SCRIPT = 'scripts/test-ui.sh';
const scratch = required('RBENCH_UI_SCRATCH', SCRIPT);
const vsix = required('RBENCH_UI_VSIX', SCRIPT);
const artifacts = required('RBENCH_UI_ARTIFACTS', SCRIPT);
const docsImages = process.env.RBENCH_UI_DOCS_IMAGES || undefined;
const totalTimeoutMs = Number(process.env.RBENCH_UI_TIMEOUT ?? 270) * 1000;
const started = Date.now();

const serverLog = path.join(artifacts, 'code-server.log');
const browserLog = path.join(artifacts, 'browser-console.log');
const userDataDir = path.join(scratch, 'user-data');
const extensionsDir = path.join(scratch, 'extensions');
const workspace = path.join(scratch, 'workspace');
const SCENARIO_FILE = 'bench.rbench';
const FIRST = 'SET and GET, 4 clients';
const SCREENSHOTS = {
  codelens: 'editor-codelens.png',
  getStarted: 'editor-get-started.png',
  runComplete: 'editor-run-complete.png',
  sideBySide: 'editor-results-side-by-side.png',
  timeline: 'results-short-run-timeline.png',
};

/** Two short scenarios; no `target`, so the run uses a throwaway local redis-server. */
const SCENARIOS = `# Two short scenarios: 4 clients, 20k requests per test, on a throwaway local redis-server.
clients 4
requests 20k
keys 1k

### ${FIRST}
SET ui:__key__ __value__
GET ui:__key__

### SET with pipelining
pipeline 8
value 100
SET ui:__key__ __value__
expect p99 < 50ms
`;

function say(message: string): void {
  console.log(`[ui ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${message}`);
}

let passed = 0;
let failed = 0;
let broken = false;

/** One check: later ones are skipped once one fails (each builds on the previous). */
async function check(title: string, body: () => Promise<string | void>): Promise<void> {
  if (broken) {
    say(`- skipped: ${title}`);
    return;
  }
  const at = Date.now();
  try {
    const detail = await body();
    passed++;
    say(`✓ ${title}${detail ? ` — ${detail}` : ''} (${((Date.now() - at) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failed++;
    broken = true;
    say(`✗ ${title}`);
    console.error(`  ${(error instanceof Error ? error.message : String(error)).split('\n').join('\n  ')}`);
  }
}

function makeWorkspace(): void {
  mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  writeFileSync(path.join(workspace, SCENARIO_FILE), SCENARIOS);
  // Only what keeps the screenshots tidy; rbench.target stays unset (the default: `local`).
  writeFileSync(path.join(workspace, '.vscode/settings.json'), JSON.stringify({ 'files.exclude': { '.vscode': true } }, null, 2));
}

function runFiles(): string[] {
  const folder = path.join(workspace, '.rbench/runs');
  return existsSync(folder)
    ? readdirSync(folder)
        .filter((name) => name.endsWith('.rbench-run.json'))
        .map((name) => path.join(folder, name))
    : [];
}

interface RunFileShape {
  status: string;
  scenario: { name: string; index: number };
  target: { local: boolean };
  points: { repeats: { test: string; measured: boolean; total: { requests: number; errors: number } }[][] }[];
}

/** The text of the notification toasts on screen. */
async function toastTexts(page: Page): Promise<string[]> {
  return page.locator('.notifications-toasts .notification-toast').allInnerTexts();
}

async function screenshot(page: Page, name: string, clip?: { x: number; y: number; width: number; height: number }): Promise<string> {
  const file = path.join(artifacts, name);
  // Let fonts, tokens and lens layout settle.
  await page.waitForTimeout(400);
  await page.screenshot({ path: file, clip });
  return file;
}

/** Runs a command by its label through the command palette (F1). */
async function runCommand(page: Page, label: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await visible(input, 'the command palette');
  await input.first().fill(`>${label}`);
  await visible(page.locator('.quick-input-list .monaco-list-row', { hasText: label }), `the "${label}" command`);
  await page.keyboard.press('Enter');
  await page
    .locator('.quick-input-widget')
    .waitFor({ state: 'hidden', timeout: 5000 })
    .catch(() => undefined);
}

async function visible(locator: Locator, what: string, timeout = 20_000): Promise<void> {
  try {
    await locator.first().waitFor({ state: 'visible', timeout });
  } catch {
    throw new Error(`${what} did not appear within ${timeout / 1000} s`);
  }
}

/**
 * Two more small files for Run All, written only now so the earlier pictures show one file. With bench.rbench
 * that makes 4 scenarios in 3 files: 4 tests that run a request count, and one timed test of 1 s.
 */
const BATCH_FILES: Record<string, string> = {
  'batch-a.rbench': `clients 2\nrequests 300\nkeys 100\n\n### Batch: strings\nSET batch:__key__ __value__\n`,
  'batch-b.rbench': `clients 2\nduration 1s\nkeys 100\n\n### Batch: hashes\nHSET batch:h:__key__ f __value__\n`,
};
const BATCH_ORDER = ['Batch: strings', 'Batch: hashes', FIRST, 'SET with pipelining'];
const BATCH_QUESTION = 'Run 4 scenarios from 3 files in the workspace, one after another? Estimated time: about 1.0s, plus 4 tests that run a request count';
const BATCH_PROGRESS = 'RBench: 4 scenarios in the workspace';
const BATCH_SUMMARY = /RBench: 4 scenarios: ((\d+) passed)?(, )?((\d+) failed)?/;

interface TimedRun extends RunFileShape {
  file: string;
  startedAt: string;
  finishedAt: string;
}

/** F1 → Run All, the modal question, then one progress toast, one summary toast and four runs that do not overlap. */
async function runAllInWorkspace(page: Page): Promise<string> {
  for (const [name, text] of Object.entries(BATCH_FILES)) writeFileSync(path.join(workspace, name), text);
  const before = new Set(runFiles());
  await runCommand(page, 'Notifications: Clear All Notifications');
  await runCommand(page, 'RBench: Run All Benchmarks in Workspace');

  const dialog = page.locator('.monaco-dialog-box');
  await visible(dialog, 'the Run All question (a modal dialog)');
  const question = (await dialog.first().innerText()).replace(/\s+/g, ' ');
  if (!question.includes(BATCH_QUESTION)) throw new Error(`the Run All question reads "${question}"; want it to include "${BATCH_QUESTION}"`);
  await dialog.locator('.monaco-button', { hasText: 'Run all' }).first().click();
  await dialog.first().waitFor({ state: 'hidden', timeout: 5000 });

  // Every toast until the summary must be the one batch progress: no toast per scenario, no "Run complete".
  const toasts = page.locator('.notifications-toasts .notification-toast .notification-list-item-message');
  let progressSeen = false;
  let summary: string | undefined;
  const deadline = Date.now() + 120_000;
  while (!summary && Date.now() < deadline) {
    const texts = (await toasts.allInnerTexts().catch(() => [] as string[])).map((text) => text.replace(/\s+/g, ' ').trim());
    const progress = texts.filter((text) => text.startsWith(BATCH_PROGRESS));
    if (progress.length > 1) throw new Error(`${progress.length} batch progress notifications at once: ${JSON.stringify(texts)}`);
    if (progress.length === 1) progressSeen = true;
    summary = texts.find((text) => BATCH_SUMMARY.test(text));
    const others = texts.filter((text) => !text.startsWith(BATCH_PROGRESS) && text !== summary);
    if (others.length > 0) throw new Error(`other notifications during Run All (want only the one progress and the summary): ${JSON.stringify(others)}`);
    if (!summary) await page.waitForTimeout(200);
  }
  if (!summary)
    throw new Error(`no summary notification ("RBench: 4 scenarios: …") within 120 s; notifications on screen: ${JSON.stringify(await toastTexts(page))}`);
  if (!progressSeen) throw new Error(`never saw the progress notification "${BATCH_PROGRESS}"`);
  const counts = BATCH_SUMMARY.exec(summary)!;
  const passedCount = Number(counts[2] ?? 0);
  const failedCount = Number(counts[5] ?? 0);
  // `expect p99 < 50ms` may fail on a loaded machine; nothing else may (no errors, none not run).
  if (passedCount + failedCount !== 4 || /errored|cancelled|not run/.test(summary))
    throw new Error(`the summary "${summary}" does not account for 4 scenarios that passed or failed`);
  await page.waitForTimeout(300);
  const stillThere = (await toasts.allInnerTexts()).filter((text) => BATCH_SUMMARY.test(text.replace(/\s+/g, ' ')));
  if (stillThere.length !== 1) throw new Error(`expected one summary notification, found ${stillThere.length}`);

  const runs = runFiles()
    .filter((file) => !before.has(file))
    .map((file) => ({ file, ...(JSON.parse(readFileSync(file, 'utf8')) as Omit<TimedRun, 'file'>) }))
    .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
  const names = runs.map((run) => run.scenario.name);
  for (let i = 1; i < runs.length; i++) {
    if (Date.parse(runs[i].startedAt) < Date.parse(runs[i - 1].finishedAt)) {
      throw new Error(`"${names[i]}" started at ${runs[i].startedAt}, before "${names[i - 1]}" finished at ${runs[i - 1].finishedAt}: the runs overlap`);
    }
  }
  if (JSON.stringify(names) !== JSON.stringify(BATCH_ORDER))
    throw new Error(`new run files for ${JSON.stringify(names)}; want ${JSON.stringify(BATCH_ORDER)} in this order`);
  for (const run of runs) if (run.status !== 'complete') throw new Error(`${path.basename(run.file)} has status ${run.status}`);
  return `${summary}; ${runs.map((run) => `${run.startedAt.slice(11, 23)}–${run.finishedAt.slice(11, 23)}`).join(', ')}`;
}

/** The few DOM members tableReach uses (this project compiles without the DOM library). */
interface Cell {
  innerText: string;
  getBoundingClientRect(): { left: number; right: number };
}
interface Scroller extends Cell {
  scrollLeft: number;
  scrollWidth: number;
  clientWidth: number;
}
interface TableElement {
  closest(selector: string): Scroller | null;
  querySelectorAll(selector: string): ArrayLike<Cell>;
  ownerDocument: { documentElement: { clientWidth: number } };
}

/**
 * The results table in the narrow panel: its scroller stays inside the panel, the last column comes into view
 * when scrolled to the end, and the sticky first column stays at the scroller's left edge meanwhile.
 */
async function tableReach(table: Locator, page: Page): Promise<string> {
  const m = await table.evaluate((node) => {
    const el = node as unknown as TableElement;
    const wrap = el.closest('.table-wrap');
    if (!wrap) return { error: 'the table is not inside a .table-wrap scroller' };
    const heads = el.querySelectorAll('thead th');
    const first = heads[0];
    const last = heads[heads.length - 1];
    wrap.scrollLeft = wrap.scrollWidth;
    const w = wrap.getBoundingClientRect();
    return {
      columns: heads.length,
      lastHeader: last.innerText.trim(),
      scrollWidth: wrap.scrollWidth,
      clientWidth: wrap.clientWidth,
      viewport: el.ownerDocument.documentElement.clientWidth,
      wrapLeft: w.left,
      wrapRight: w.right,
      firstLeft: first.getBoundingClientRect().left,
      lastRight: last.getBoundingClientRect().right,
      scrolled: wrap.scrollLeft,
    } as Record<string, number | string>;
  });
  if (m.error) throw new Error(String(m.error));
  const n = (key: string) => Number(m[key]);
  const problems: string[] = [];
  if (n('wrapRight') > n('viewport') + 1)
    problems.push(`the scroller (right edge ${n('wrapRight')} px) is wider than the panel (${n('viewport')} px): columns past the edge cannot be reached`);
  if (n('lastRight') > n('wrapRight') + 1)
    problems.push(
      `scrolled to the end, the last column "${m.lastHeader}" still ends at ${n('lastRight')} px, past the scroller's edge at ${n('wrapRight')} px`,
    );
  if (Math.abs(n('firstLeft') - n('wrapLeft')) > 1)
    problems.push(
      `scrolled by ${n('scrolled')} px, the first column is at ${n('firstLeft')} px instead of the scroller's left edge ${n('wrapLeft')} px (not sticky)`,
    );
  if (problems.length) throw new Error(problems.join('; '));
  await page.waitForTimeout(200);
  await table.screenshot({ path: path.join(artifacts, 'table-scrolled.png') }).catch(() => undefined);
  await table.evaluate((node) => {
    const wrap = (node as unknown as TableElement).closest('.table-wrap');
    if (wrap) wrap.scrollLeft = 0;
  });
  return `${m.columns} columns, ${n('scrollWidth') > n('clientWidth') ? `scrolls ${n('scrollWidth') - n('clientWidth')} px sideways to "${m.lastHeader}"` : 'all in view without scrolling'}`;
}

/** Lines typed as a person does: a pause after the last word (completion opens), then Enter. */
const TYPED_LINES = ['requests 50k', 'SET bench:__key__ __value__', 'GET bench:__key__', 'clients 10', 'pipeline 4'];

async function typeLinesWithPauses(page: Page): Promise<string> {
  const file = path.join(workspace, 'typing.rbench');
  writeFileSync(file, '### typing\n');
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await visible(input, 'Quick Open');
  await input.first().fill('typing.rbench');
  await visible(page.locator('.quick-input-list .monaco-list-row', { hasText: 'typing.rbench' }), 'typing.rbench in Quick Open');
  await page.keyboard.press('Enter');
  await visible(page.locator('.tabs-container .tab.active', { hasText: 'typing.rbench' }), 'the typing.rbench tab');
  // The editor of the active group (a results panel or another file may be open beside it).
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+End');
  for (const line of TYPED_LINES) {
    await page.keyboard.type(line, { delay: 30 });
    // Long enough for quick suggestions (10 ms) and the provider to answer.
    await page.waitForTimeout(700);
    await page.keyboard.press('Enter');
  }
  await page.keyboard.press('Control+S');
  const want = ['### typing', ...TYPED_LINES, ''].join('\n');
  const deadline = Date.now() + 5000;
  let got = readFileSync(file, 'utf8');
  while (got !== want && Date.now() < deadline) {
    await page.waitForTimeout(200);
    got = readFileSync(file, 'utf8');
  }
  // Auto-indent or a trailing space on a line would also be the editor fighting the typist.
  if (got !== want) throw new Error(`typed ${JSON.stringify(want)}\nthe file holds ${JSON.stringify(got)}`);
  await runCommand(page, 'View: Close Editor');
  return `${TYPED_LINES.length} lines, each ended by Enter`;
}

async function main(): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  for (const name of Object.values(SCREENSHOTS).concat('failure.png')) rmSync(path.join(artifacts, name), { force: true });
  for (const file of [serverLog, browserLog]) writeFileSync(file, '');
  makeWorkspace();
  writeUserSettings(userDataDir, {
    'workbench.tips.enabled': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'editor.minimap.enabled': false,
    'remote.autoForwardPorts': false,
  });
  const playwright = await loadPlaywright();

  let server: CodeServer | undefined;
  const stop = () => {
    if (server?.child.pid) killGroup(server.child.pid, 'SIGKILL');
    console.log(`${passed} passed, ${failed + 1} failed`);
    process.exit(130);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const watchdog = setTimeout(() => {
    console.error(`ui: the test did not finish within ${totalTimeoutMs / 1000} s (RBENCH_UI_TIMEOUT)`);
    stop();
  }, totalTimeoutMs);

  let page: Page | undefined;
  let closeBrowser: () => Promise<unknown> = async () => undefined;
  try {
    await check('installs the packaged .vsix with code-server --install-extension', async () => {
      await installExtension({ scratch, log: serverLog, userDataDir, extensionsDir, vsix });
      const installed = readdirSync(extensionsDir).filter((name) => name.startsWith('rbench.rbench-'));
      if (installed.length !== 1)
        throw new Error(`expected one rbench.rbench-<version> folder in ${extensionsDir}, found: ${readdirSync(extensionsDir).join(', ')}`);
      for (const file of ['dist/extension.js', 'dist/worker.js', 'dist/worker-main.js', 'package.json']) {
        if (!existsSync(path.join(extensionsDir, installed[0], file))) throw new Error(`${installed[0]}/${file} is missing`);
      }
      return installed[0];
    });

    await check('opens the workbench on the scratch workspace', async () => {
      server = await startServer({ scratch, log: serverLog, userDataDir, extensionsDir, say, smokeTestDriver: false });
      const browser = await launchChromium(playwright, path.join(scratch, 'chromium-profile'), { width: 1440, height: 900 }, true);
      closeBrowser = () => browser.close();
      page = browser.pages()[0] ?? (await browser.newPage());
      page.on('console', (message) => {
        const text = message.text();
        appendFileSync(browserLog, `[console.${message.type()}] ${text}\n`);
        if (message.type() === 'error' && !OFFLINE_NOISE.test(text) && /rbench/i.test(text)) say(`browser error: ${text.split('\n')[0]}`);
      });
      page.on('pageerror', (error) => appendFileSync(browserLog, `[pageerror] ${error.stack ?? error.message}\n`));
      await page.goto(`http://127.0.0.1:${server.port}/?folder=${encodeURIComponent(workspace)}`, { timeout: 30_000 });
      await visible(page.locator('.monaco-workbench'), 'the workbench', 30_000);
      await visible(page.locator('.explorer-folders-view .monaco-list-row', { hasText: SCENARIO_FILE }), `${SCENARIO_FILE} in the explorer`, 30_000);
    });

    await check('offers New Scenario File, Open Example Scenario and Get started in the empty RBench view', async () => {
      await page!.locator('.part.activitybar .action-label[aria-label^="RBench"]').first().click();
      const welcome = page!.locator('.part.sidebar .welcome-view-content');
      for (const button of ['New Scenario File', 'Open Example Scenario']) {
        await visible(welcome.locator('.monaco-button', { hasText: button }), `the "${button}" button`);
      }
      await welcome.locator('a', { hasText: 'Get started' }).first().click();
      const walkthrough = page!.locator('.gettingStartedContainer');
      await visible(walkthrough.filter({ hasText: 'Get started with RBench' }), 'the Get started with RBench walkthrough');
      for (const step of ['Write a scenario', 'Run it on a throwaway server', 'Read the results panel', 'Compare two runs']) {
        await visible(walkthrough.locator('.step-title', { hasText: step }), `the walkthrough step "${step}"`, 5000);
      }
      await screenshot(page!, SCREENSHOTS.getStarted);
      await runCommand(page!, 'View: Close Editor');
      await walkthrough.first().waitFor({ state: 'hidden', timeout: 5000 });
    });

    await check(`opens ${SCENARIO_FILE} from the explorer`, async () => {
      await page!.locator('.part.activitybar .action-label[aria-label^="Explorer"]').first().click();
      await page!.locator('.explorer-folders-view .monaco-list-row', { hasText: SCENARIO_FILE }).first().click();
      await visible(page!.locator('.tabs-container .tab', { hasText: SCENARIO_FILE }), 'its editor tab');
      await visible(page!.locator('.editor-instance .view-lines', { hasText: FIRST }), 'its text');
    });

    await check('shows ▶ Run above both scenarios, and highlights the file', async () => {
      const runLenses = page!.locator('.codelens-decoration a', { hasText: '▶ Run' });
      await visible(runLenses, 'the "▶ Run" lens', 30_000);
      // "▶ Run" twice and "Run all": wait for all three (the lenses of a file arrive together, but be patient).
      await page!.waitForFunction("document.querySelectorAll('.codelens-decoration a').length >= 3", undefined, { timeout: 10_000 }).catch(() => undefined);
      const lenses = await page!.locator('.codelens-decoration a').allInnerTexts();
      const runs = lenses.filter((text) => text.includes('▶ Run')).length;
      if (runs !== 2) throw new Error(`expected 2 "▶ Run" lenses, found ${runs}: ${JSON.stringify(lenses)}`);
      if (!lenses.some((text) => text.includes('Run all'))) throw new Error(`no "Run all" lens: ${JSON.stringify(lenses)}`);
      // The TextMate grammar colours the header, keywords and commands: more than one token colour.
      await page!
        .waitForFunction(
          // A string: this project compiles without the DOM library.
          `new Set([...document.querySelectorAll('.editor-instance .view-lines span[class^="mtk"]')].map((span) => span.className)).size >= 4`,
          undefined,
          { timeout: 10_000 },
        )
        .catch(() => {
          throw new Error('the file is not syntax-highlighted (fewer than 4 token colours)');
        });
      // The top of the window: the file is short, the rest is empty editor.
      await screenshot(page!, SCREENSHOTS.codelens, { x: 0, y: 0, width: 1440, height: 450 });
      return lenses.join(' | ');
    });

    await check('opens the RBench output channel (F1 → RBench: Show Output)', async () => {
      await runCommand(page!, 'RBench: Show Output');
      await visible(page!.locator('.part.panel .monaco-editor'), 'the Output panel');
    });

    let toast: Locator | undefined;
    await check(`runs "${FIRST}" from its ▶ Run lens and announces "Run complete"`, async () => {
      await page!.locator('.codelens-decoration a', { hasText: '▶ Run' }).first().click();
      const complete = page!.locator('.notifications-toasts .notification-toast', { hasText: 'Run complete' });
      try {
        await complete.first().waitFor({ state: 'visible', timeout: 60_000 });
      } catch {
        throw new Error(`no "Run complete" notification within 60 s; notifications on screen: ${JSON.stringify(await toastTexts(page!))}`);
      }
      toast = complete.first();
      // Keep it on screen for the screenshot: an information toast goes away after a few seconds, unless the pointer is on it.
      await toast.hover().catch(() => undefined);
      return (
        await toast
          .locator('.notification-list-item-message')
          .innerText()
          .catch(() => toast!.innerText())
      ).trim();
    });

    await check('saves a run file with 20,000 SET and 20,000 GET requests', async () => {
      const files = runFiles();
      if (files.length !== 1) throw new Error(`expected one run file in ${path.join(workspace, '.rbench/runs')}, found ${files.length}`);
      const run = JSON.parse(readFileSync(files[0], 'utf8')) as RunFileShape;
      const loads = run.points[0]?.repeats[0]?.filter((load) => load.measured) ?? [];
      const got = loads.map((load) => `${load.test} ${load.total.requests}/${load.total.errors} errors`);
      const want = ['SET 20000/0 errors', 'GET 20000/0 errors'];
      if (run.status !== 'complete' || run.scenario.name !== FIRST || !run.target.local || JSON.stringify(got) !== JSON.stringify(want)) {
        throw new Error(
          `unexpected run file ${files[0]}: status ${run.status}, scenario "${run.scenario.name}", local ${run.target.local}, loads ${JSON.stringify(got)} (want ${JSON.stringify(want)})`,
        );
      }
      return path.basename(files[0]);
    });

    await check('sums the run up in a lens above the scenario', async () => {
      const summary = page!.locator('.codelens-decoration a', { hasText: /ops\/s · p99/ });
      await visible(summary, 'the summary lens (… ops/s · p99 …)');
      return (await summary.first().innerText()).trim();
    });

    await check('shows the result table in the RBench output channel', async () => {
      const output = page!.locator('.part.panel .view-lines');
      await visible(output.filter({ hasText: 'Run saved' }), 'the run report in the Output panel');
      const text = await output.first().innerText();
      for (const want of ['command', 'requests', 'SET', 'GET', '20,000']) {
        if (!text.includes(want)) throw new Error(`the output does not show "${want}":\n${text}`);
      }
      // A results panel (a webview) may open beside the editor: give it a moment to draw, for the picture.
      await page!
        .frameLocator('iframe.webview')
        .frameLocator('iframe')
        .locator('body', { hasText: FIRST })
        .first()
        .waitFor({ state: 'visible', timeout: 15_000 })
        .catch(() => say('note: no results panel showing the run within 15 s (the picture may show it empty)'));
      // Hide the side bar (Ctrl+B), so the notification does not cover the table's last columns.
      const sideBar = page!.locator('.part.sidebar');
      await page!.keyboard.press('Control+B');
      await sideBar.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => say('note: the side bar did not hide'));
      if (!toast || !(await toast.isVisible())) say('note: the "Run complete" notification has already gone');
      await screenshot(page!, SCREENSHOTS.runComplete);
    });

    // The results panel, a webview: its document sits in an iframe inside the webview's iframe.
    const panel = page && page.frameLocator('iframe.webview').frameLocator('iframe');
    await check('shows the results table in the panel beside the scenario', async () => {
      // Only the editor and the panel in the picture: no Output panel, no notifications.
      await runCommand(page!, 'View: Hide Panel');
      await page!
        .locator('.part.panel')
        .waitFor({ state: 'hidden', timeout: 5000 })
        .catch(() => say('note: the Output panel did not hide'));
      await page!.mouse.move(10, 450);
      await runCommand(page!, 'Notifications: Clear All Notifications');
      const table = panel!.locator('#results-table');
      await visible(table, 'the results table in the results panel', 15_000);
      const text = await table.innerText();
      for (const want of ['SET', 'GET', '20,000']) {
        if (!text.includes(want)) throw new Error(`the results table does not show "${want}":\n${text}`);
      }
      await visible(page!.locator('.tabs-container .tab', { hasText: SCENARIO_FILE }), 'the scenario beside the panel');
      await screenshot(page!, SCREENSHOTS.sideBySide);
    });

    await check('lets the side-by-side table scroll sideways to its last column, the test name staying in view', async () => {
      return tableReach(panel!.locator('#results-table'), page!);
    });

    await check("draws the short run's timeline chart", async () => {
      const figure = panel!.locator('figure[data-chart="timeline"]');
      await visible(figure.locator('canvas'), 'the timeline chart', 15_000);
      await figure.first().scrollIntoViewIfNeeded();
      await page!.waitForTimeout(400);
      await figure.first().screenshot({ path: path.join(artifacts, SCREENSHOTS.timeline) });
      return (await figure.locator('h2').first().innerText()).trim();
    });

    await check('Run All asks first with the count and an estimate, then runs the scenarios one after another under one progress', async () => {
      return runAllInWorkspace(page!);
    });

    await check('typing never fights: Enter after a fully typed word ends the line (no word completion, no swallowed Enter)', async () => {
      return typeLinesWithPauses(page!);
    });
  } finally {
    clearTimeout(watchdog);
    if (broken && page) await page.screenshot({ path: path.join(artifacts, 'failure.png'), timeout: 5000 }).catch(() => undefined);
    await closeBrowser().catch(() => undefined);
    await stopServer(server?.child);
  }

  if (failed === 0 && docsImages) {
    mkdirSync(docsImages, { recursive: true });
    for (const name of Object.values(SCREENSHOTS)) copyFileSync(path.join(artifacts, name), path.join(docsImages, name));
    say(`screenshots copied to ${docsImages}`);
  }
  if (failed > 0) {
    console.error(`--- last lines of code-server's log (${serverLog}):\n${tail(serverLog, 15)}`);
    console.error(`ui: logs and a screenshot (failure.png) in ${artifacts}`);
  }
  const total = process.env.RBENCH_UI_STARTED ? `, ${Math.round(Date.now() / 1000 - Number(process.env.RBENCH_UI_STARTED))} s in all` : '';
  say(`done${total}; screenshots and logs in ${path.relative(process.cwd(), artifacts) || artifacts}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
});
