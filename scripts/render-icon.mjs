// Renders the extension icon media/icon.svg to media/icon.png (128×128, transparent corners) in headless
// chromium (playwright-core, a dev dependency). Run it after editing the SVG and commit both files.
//
//   node scripts/render-icon.mjs        chromium from PATH, or RBENCH_E2E_CHROMIUM
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('..', import.meta.url));
const which = (name) => {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
};
const executablePath = process.env.RBENCH_E2E_CHROMIUM || which('chromium') || which('chromium-browser') || which('google-chrome');
if (!executablePath) {
  console.error('render-icon: needs chromium (Debian/Ubuntu: apt-get install chromium), or RBENCH_E2E_CHROMIUM=path');
  process.exit(1);
}
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.goto(pathToFileURL(`${root}media/icon.svg`).href);
  await page.screenshot({ path: `${root}media/icon.png`, omitBackground: true });
  console.log('render-icon: wrote media/icon.png (128×128)');
} finally {
  await browser.close();
}
