import assert from 'node:assert/strict';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Diagnostic } from '../../../src/scenario';
import { check, span } from './helpers';

/** `@v0 = ha`, then each variable uses the one before `copies` times: 2^levels copies in the end. */
function laughs(levels: number, copies = 2, uses = 1): string {
  const lines = ['@v0 = ha'];
  for (let i = 1; i <= levels; i++) lines.push(`@v${i} = ${`{{v${i - 1}}}`.repeat(copies)}`);
  lines.push('### s');
  for (let i = 0; i < uses; i++) lines.push(`SET k {{v${levels}}}`);
  return lines.join('\n') + '\n';
}

interface Bounded {
  diagnostics?: Diagnostic[];
  failure?: string;
  elapsedMs: number;
}

/**
 * Checks `text` in a worker with a heap cap and a deadline, so code without an expansion budget
 * fails the test (killed or out of memory) instead of hanging the suite or the machine.
 */
function checkBounded(text: string, deadlineMs: number): Promise<Bounded> {
  const scenario = path.resolve(__dirname, '../../../src/scenario');
  const code = `const { parentPort, workerData } = require('node:worker_threads');
const { checkText } = require(workerData.scenario);
const started = performance.now();
const resolved = checkText(workerData.text, { env: {} });
parentPort.postMessage({ diagnostics: resolved.diagnostics, elapsedMs: performance.now() - started });`;
  return new Promise((resolve) => {
    const started = performance.now();
    const worker = new Worker(code, { eval: true, workerData: { scenario, text }, resourceLimits: { maxOldGenerationSizeMb: 256 } });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({ failure: `still checking after ${deadlineMs} ms`, elapsedMs: performance.now() - started });
    }, deadlineMs);
    worker.once('message', (result: Bounded) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      resolve({ failure: error.message, elapsedMs: performance.now() - started });
    });
  });
}

describe('variable expansion budget', () => {
  it('a billion-laughs file (24 doubling levels) is refused at the variable that crosses the limit, fast and small', async function () {
    this.timeout(30_000);
    const text = laughs(24);
    const result = await checkBounded(text, 10_000);
    assert.equal(result.failure, undefined, result.failure);
    const blown = result.diagnostics!.filter((diagnostic) => diagnostic.code === 'expansion-too-large');
    assert.equal(blown.length, 1, JSON.stringify(result.diagnostics));
    // 'ha' doubled 19 times is 1 MiB: @v19 is the first variable over the limit (line 19, its name).
    assert.deepEqual(span(blown[0]), [19, 1, 4]);
    assert.match(blown[0].message, /^`@v19` expands to more than 1 MiB/);
    assert.ok(result.elapsedMs < 2000, `took ${result.elapsedMs.toFixed(0)} ms`);
  });

  it('wide fan-out (ten uses per level) is caught the same way', async function () {
    this.timeout(30_000);
    const result = await checkBounded(laughs(9, 10), 10_000);
    assert.equal(result.failure, undefined, result.failure);
    const blown = result.diagnostics!.filter((diagnostic) => diagnostic.code === 'expansion-too-large');
    assert.equal(blown.length, 1);
    assert.equal(blown[0].range.start.line, 6); // 2·10^6 characters at v6
  });

  it('many lines each using a large variable stop at the per-file budget', async function () {
    this.timeout(30_000);
    // @v18 is 512 KiB; 5,000 uses ask for 2.5 GiB of text.
    const result = await checkBounded(laughs(18, 2, 5000), 10_000);
    assert.equal(result.failure, undefined, result.failure);
    const codes = result.diagnostics!.map((diagnostic) => diagnostic.code);
    assert.deepEqual(codes, ['expansion-budget']);
    assert.ok(result.elapsedMs < 5000, `took ${result.elapsedMs.toFixed(0)} ms`);
  });

  it('a line that expands past the limit is reported at that line', () => {
    const text = '@a = ' + 'x'.repeat(600_000) + '\n### s\nSET k {{a}}{{a}}\n';
    const resolved = check(text);
    assert.deepEqual(
      resolved.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.range.start.line]),
      [['expansion-too-large', 2]],
    );
  });

  it('values under the limit still expand exactly, with ranges at their `{{…}}`', () => {
    const resolved = check(laughs(10, 2, 1) + 'GET {{nope}}\n');
    const command = resolved.scenarios[0].points[0].phases[0].tests[0].commands[0].command;
    assert.equal((command.args[1][0] as string).length, 2 * 1024);
    assert.deepEqual(
      resolved.diagnostics.map((diagnostic) => diagnostic.code),
      ['unknown-variable'],
    );
  });

  it('a scenario with its own variables shares the budget with the file', () => {
    // Each of 40 scenarios re-expands the file's 512 KiB value in its own scope: 20 MiB in all.
    const big = 'x'.repeat(512 * 1024);
    const scenarios = Array.from({ length: 40 }, (_, i) => `### s${i}\n@own = ${i}\nSET k{{own}} {{big}}\n`).join('');
    const resolved = check(`@big = ${big}\n${scenarios}`);
    assert.deepEqual(
      resolved.diagnostics.map((diagnostic) => diagnostic.code),
      ['expansion-budget'],
    );
  });
});
