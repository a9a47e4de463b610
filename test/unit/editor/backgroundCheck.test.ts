import assert from 'node:assert/strict';
import { BackgroundChecker, checkWorkerPath } from '../../../src/editor/backgroundCheck';
import { checkText } from '../../../src/scenario';
import { documentOutline } from '../../../src/scenario/features';

/** About `bytes` of short realistic lines, with one error per scenario so results differ by text. */
function bigFile(bytes: number, typo = 'pipline'): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const block = `### s${i}\nclients 50\n${typo} 10\nrequests 1M\nSET k:__key__ __value__\nGET k:__key__\n\n`;
    parts.push(block);
    size += block.length;
  }
  return parts.join('');
}

describe('diagnostics of large files in a worker thread', function () {
  this.timeout(120_000);
  let checker: BackgroundChecker;
  beforeEach(() => {
    const script = checkWorkerPath();
    assert.ok(script, 'the check worker is built next to backgroundCheck.js');
    checker = new BackgroundChecker(script);
  });
  afterEach(() => checker.dispose());

  it('gives the same diagnostics and outline as checking in place', async () => {
    const text = bigFile(300_000);
    const checked = await checker.check('a', text, { env: {} });
    assert.deepEqual(checked?.diagnostics, checkText(text, { env: {} }).diagnostics);
    // CodeLens, the outline, folding and the Test Explorer read this outline instead of parsing the text again.
    const outline = documentOutline(text);
    assert.deepEqual(checked?.outline, outline);
    assert.equal(outline.scenarios.length, text.split('###').length - 1);
    assert.equal(outline.symbols.length, outline.scenarios.length);
    assert.ok(outline.folding.length >= outline.scenarios.length);
  });

  it('a 10 MB file does not block the thread that asked (typing stays responsive)', async () => {
    const text = bigFile(10 * 1024 * 1024);
    let worstGapMs = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      worstGapMs = Math.max(worstGapMs, now - last);
      last = now;
    }, 10);
    try {
      const checked = await checker.check('big', text, { env: {} });
      assert.ok(checked && checked.diagnostics.length > 0);
      assert.equal(checked.outline.scenarios.length, text.split('###').length - 1);
    } finally {
      clearInterval(ticker);
    }
    // Checking it in place blocks for seconds; the worker leaves only message passing (the copy of the text).
    assert.ok(worstGapMs < 500, `the asking thread was blocked for ${worstGapMs.toFixed(0)} ms`);
  });

  it('an edit cancels the stale check of the same document; other documents still get theirs', async () => {
    const stale = checker.check('doc', bigFile(10 * 1024 * 1024), { env: {} });
    const other = checker.check('other', '### o\npipline 1\nGET k\n', { env: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    const fresh = checker.check('doc', '### s\nGET k\nclientz 4\n', { env: {} });
    assert.equal(await stale, undefined, 'the stale check gives nothing');
    const checked = await fresh;
    assert.deepEqual(
      checked?.diagnostics.map((d) => d.code),
      ['unknown-keyword'],
    );
    // Without cancelling, the fresh result would wait for the whole 10 MB check first.
    assert.ok(performance.now() - started < 2000, `fresh result after ${(performance.now() - started).toFixed(0)} ms`);
    assert.deepEqual(
      (await other)?.diagnostics.map((d) => d.code),
      ['unknown-keyword'],
    );
  });
});
