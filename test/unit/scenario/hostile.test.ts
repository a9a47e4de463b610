import assert from 'node:assert/strict';
import { checkDiagnostics, checkText, DIAGNOSTIC_LIMIT, parseDocument, SETTINGS, type Diagnostic, type ResolvedFile } from '../../../src/scenario';
import { DiagnosticSink } from '../../../src/scenario/diagnostics';
import { parseScenarios } from '../../../src/scenario/parser';
import { check, only, span } from './helpers';
import * as path from 'node:path';
import { inFreshProcess } from '../../helpers/freshProcess';
import type { RealisticCheckTimes, RealisticDiagnosticsTimes } from '../../fuzz/realisticFile';

/** Every diagnostic has a well-formed range inside the text. */
function assertPositioned(resolved: ResolvedFile, text: string): void {
  const lines = text.split(/\r\n|\r|\n/);
  for (const diagnostic of resolved.diagnostics) {
    const { start, end } = diagnostic.range;
    assert.ok(start.line >= 0 && start.line < lines.length, `line ${start.line} in range: ${diagnostic.message}`);
    assert.ok(end.line >= start.line && end.line < lines.length, `end line ${end.line}`);
    assert.ok(start.character >= 0 && start.character <= lines[start.line].length, `start character ${start.character}`);
    assert.ok(end.character >= 0 && end.character <= lines[end.line].length, `end character ${end.character}`);
    assert.ok(end.line > start.line || end.character >= start.character, 'range runs forwards');
    assert.ok(diagnostic.message.length > 0 && diagnostic.code.length > 0);
  }
}

/**
 * CPU time the 10 MB short-line file may take to check with its plans (checkText: `rbench check`,
 * a run). The code before issue 12 took 1.7–1.9 s alone on the shared 2-core development machine and
 * 3.4 s inside the whole mocha suite; streaming one scenario at a time took it to 1.2–1.4 s with the
 * machine loaded by five other sessions (load average 10). The bound leaves room for such load
 * inside the suite; the linear-time check below catches a quadratic step.
 */
const BIG_FILE_LIMIT_MS = 4000;

/** The same for a 1 MB file (old code: 150–170 ms, 270–370 ms for the first run after warm-up; now 100–130 ms under load). */
const MEGABYTE_LIMIT_MS = 400;

/**
 * CPU time for the diagnostics alone (checkDiagnostics: what the editor's worker computes, no plan
 * kept), each in a process of its own (test/fuzz/realisticFile.ts says why). Measured at 65-95 ms for 1 MB
 * and 0.9-1.3 s for 10 MB under load average 10 on 2 cores (the issue asks for well under 100 ms and under
 * 1 s on a quiet machine); the bounds leave room for a loaded machine. Measured after a checkText in the
 * same process, the 10 MB file took 3.1 s on a clean CI machine, over the bound.
 */
const DIAGNOSTICS_MEGABYTE_LIMIT_MS = 250;
const DIAGNOSTICS_BIG_FILE_LIMIT_MS = 2500;

/** A deterministic pseudo-random generator, so a failure can be reproduced. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('hostile input', () => {
  it('an empty file has no scenarios and no diagnostics', () => {
    for (const text of ['', '\n\n', '   ', '# only a comment\n']) {
      const resolved = check(text);
      assert.deepEqual([resolved.scenarios.length, resolved.diagnostics.length], [0, 0], JSON.stringify(text));
    }
  });

  it('random binary garbage gives positioned diagnostics and never throws', () => {
    const next = random(42);
    for (let round = 0; round < 20; round++) {
      const text = Array.from({ length: 5000 }, () => String.fromCharCode(Math.floor(next() * 256))).join('');
      const resolved = check(text);
      assert.ok(resolved.diagnostics.length > 0);
      assertPositioned(resolved, text);
    }
  });

  it('random lines made of language fragments never throw', () => {
    const fragments = [
      '###',
      '@',
      '=',
      '{{',
      '}}',
      '${env:',
      ':-',
      '}',
      '"',
      "'",
      '(',
      ')*',
      '*3',
      '%',
      '80%',
      'GET',
      'SET',
      'phase',
      'prefill',
      'sweep',
      'value',
      'keys',
      'expect',
      '<',
      '..',
      'step',
      'x2',
      ',',
      ' ',
      '#',
      '__key__',
      'target',
      'redis://',
      '1M',
      '\t',
      'suite',
      'default',
    ];
    const next = random(7);
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++)
      lines.push(Array.from({ length: 1 + Math.floor(next() * 8) }, () => fragments[Math.floor(next() * fragments.length)]).join(''));
    const text = lines.join('\n');
    const resolved = check(text);
    assertPositioned(resolved, text);
  });

  it('a 10 MB file checks in well under a second', function () {
    this.timeout(20_000);
    // Megabytes come from long lines here (literal 4 KB payloads and long comments); the cost of many
    // short lines is covered by the 100k-line test below.
    const block = (i: number) =>
      `### scenario ${i}\nrequests 100k\npipeline 10\nSET big:${i} "${'v'.repeat(4000)}" # ${i}\n# ${'c'.repeat(4000)}\nexpect p99 < 2ms\n\n`;
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < 10 * 1024 * 1024; i++) {
      const text = block(i);
      parts.push(text);
      size += text.length;
    }
    const text = parts.join('');
    checkText(text.slice(0, 200_000), { env: {} }); // warm up the JIT
    const started = performance.now();
    const resolved = checkText(text, { env: {} });
    const elapsed = performance.now() - started;
    assert.equal(resolved.diagnostics.length, 0);
    assert.equal(resolved.scenarios.length, parts.length);
    assert.equal((resolved.scenarios[7].points[0].phases[0].tests[0].commands[0].command.args[1][0] as string).length, 4000);
    assert.ok(elapsed < 1000, `took ${elapsed.toFixed(0)} ms`);
  });

  it('a 100k-line file is checked in linear time, its problems capped and summarised', function () {
    this.timeout(60_000);
    const lines = (count: number) => Array.from({ length: count }, (_, i) => (i % 2 ? 'pipline 10' : `GET k:${i}`)).join('\n');
    const time = (text: string) => {
      const started = performance.now();
      const resolved = check(text);
      return { resolved, elapsed: performance.now() - started };
    };
    time(lines(5000)); // warm up the JIT
    const quarter = time(lines(25_000));
    const text = lines(100_000);
    const full = time(text);
    // Four times the lines may cost about four times as long; a quadratic step would cost sixteen.
    assert.ok(full.elapsed < Math.max(8 * quarter.elapsed, 200), `25k lines: ${quarter.elapsed.toFixed(0)} ms, 100k lines: ${full.elapsed.toFixed(0)} ms`);
    const resolved = full.resolved;
    assert.equal(resolved.diagnostics.length, DIAGNOSTIC_LIMIT + 1);
    const last = resolved.diagnostics[resolved.diagnostics.length - 1];
    assert.equal(last.code, 'too-many-problems');
    assert.match(last.message, /^49000 more problems not shown/);
    assert.equal(resolved.scenarios[0].points[0].phases[0].tests.length, 50_000);
    assertPositioned(resolved, text);
  });

  it('a 10 MB file of short realistic lines checks fast, in linear time', async function () {
    this.timeout(120_000);
    // About 700k short lines in 70k differently named scenarios (test/fuzz/realisticFile.ts). CPU time of the
    // process (the collector's threads included) rather than wall-clock time: the machines running these tests
    // are shared, and another process's load must not fail this one. Each kind of check is measured in a process
    // of its own, as `rbench check` runs it and as the editor's check worker starts: in this one the collector would
    // also walk the heap of every test before this one (it took 4.1 s here inside the suite, 2.1–2.7 s on its own).
    const realisticFile = path.resolve(__dirname, '../../fuzz/realisticFile');
    const times = {
      ...(await inFreshProcess<RealisticCheckTimes>(realisticFile, 'timeRealisticCheck')),
      ...(await inFreshProcess<RealisticDiagnosticsTimes>(realisticFile, 'timeRealisticDiagnostics')),
    };
    assert.equal(times.problems, 0);
    assert.equal(times.scenarios, times.expectedScenarios);
    assert.deepEqual(times.lastExpects, ['expect p99 < 2ms']);
    // Ten times the text may cost about ten times as long (garbage collection grows with what the
    // result holds); anything quadratic, such as a per-scenario pass over the file, costs a hundred.
    const checked = `CPU time for 1 MB: ${times.checkMegabyteMs.toFixed(0)} ms, for 10 MB: ${times.checkTenMegabytesMs.toFixed(0)} ms`;
    assert.ok(times.checkTenMegabytesMs < Math.max(20 * times.checkMegabyteMs, 1000), checked);
    assert.ok(times.checkTenMegabytesMs < BIG_FILE_LIMIT_MS, checked);
    assert.ok(times.checkMegabyteMs < MEGABYTE_LIMIT_MS, checked);

    // The diagnostics alone (the editor's check): the best of three, as a loaded machine adds, never removes.
    assert.equal(times.diagnosticsProblems, 0);
    const diagnosed = `diagnostics CPU time for 1 MB: ${times.diagnosticsMegabyteMs.toFixed(0)} ms, for 10 MB: ${times.diagnosticsTenMegabytesMs.toFixed(0)} ms`;
    assert.ok(times.diagnosticsMegabyteMs < DIAGNOSTICS_MEGABYTE_LIMIT_MS, diagnosed);
    assert.ok(times.diagnosticsTenMegabytesMs < DIAGNOSTICS_BIG_FILE_LIMIT_MS, diagnosed);
  });

  it('hands each scenario over as soon as it ends, so the tree of the whole file is never kept', () => {
    const blocks = Array.from({ length: 2000 }, (_, i) => `### s${i}\nclients 5\nGET k:${i}\n`);
    const text = `@p = x\n${blocks.join('')}`;
    const handed: number[] = [];
    let linesSeen = 0;
    parseScenarios(text, new DiagnosticSink(), {
      line: () => linesSeen++,
      fileLines: (lines) => assert.equal(lines.length, 1),
      // Scenario i ends on line 3i + 3; it is handed over when the next header (line 3i + 4) is read.
      scenario: (node) => handed.push(linesSeen - node.range.end.line),
    });
    assert.equal(handed.length, 2000);
    assert.ok(
      handed.every((ahead) => ahead <= 2),
      `read ahead by ${Math.max(...handed)} lines`,
    );
    // The plans still match the whole file's, scenario for scenario.
    const resolved = checkText(text, { env: {} });
    assert.deepEqual(
      resolved.scenarios.map((plan) => plan.points[0].phases[0].tests[0].commands[0].command.args),
      blocks.map((_, i) => [[`k:${i}`]]),
    );
    assert.deepEqual(checkDiagnostics(text, { env: {} }), resolved.diagnostics);
  });

  it('a 1 MB single line is handled in linear time', () => {
    for (const line of [
      'x'.repeat(1 << 20),
      'GET ' + 'a'.repeat(1 << 20),
      'SET k "' + 'a'.repeat(1 << 20),
      '{{'.repeat(1 << 19),
      '(('.repeat(1 << 19),
      ')*1'.repeat(1 << 18),
      `### ${'n'.repeat(1 << 20)}`,
      `expect ${'p'.repeat(1 << 20)}`,
      '__a_'.repeat(1 << 18),
    ]) {
      const started = performance.now();
      const resolved = check(`### s\n${line}\nGET k`);
      assert.ok(performance.now() - started < 1000, `${line.slice(0, 10)}… took too long`);
      assertPositioned(resolved, `### s\n${line}\nGET k`);
    }
  });

  it('keeps ranges right with CRLF line endings and unicode', () => {
    const text = '### café ☕\r\n@p = ünï\r\n  pipline 10\r\nGET {{p}}:€ {{nope}}\r\n';
    const doc = parseDocument(text);
    assert.equal(doc.scenarios[0].name, 'café ☕');
    const resolved = check(text);
    assert.deepEqual(span(only(resolved, 'unknown-keyword')), [2, 2, 9]);
    assert.deepEqual(span(only(resolved, 'unknown-variable')), [3, 14, 18]);
    assert.deepEqual(resolved.scenarios[0].points[0].phases[0].tests[0].commands[0].command.args, [['ünï:€']]);
    assertPositioned(resolved, text);
  });

  it('reports unterminated interpolation and quotes without crashing', () => {
    for (const text of [
      '### s\nGET {{',
      '### s\nGET ${',
      '### s\nGET ${env:',
      '### s\nGET "abc',
      "### s\nGET 'abc",
      '@x = {{x\n### s\nGET {{x}}',
      '### s\nGET {{}}',
    ]) {
      const resolved = check(text);
      assert.ok(
        resolved.diagnostics.some((diagnostic: Diagnostic) => diagnostic.severity === 'error'),
        text,
      );
      assertPositioned(resolved, text);
    }
  });

  it('reports every setting with a missing or wrong value at a position', () => {
    // Free-text settings accept any word; for them only a missing value is wrong.
    // `prefill`, `group` and `end` are complete without a value (groups: test/unit/scenario/groups.test.ts).
    const freeText = new Set(['name', 'path', 'pattern', 'prefill', 'group', 'end']);
    for (const setting of SETTINGS) {
      const scoped = (line: string) => (setting.scopes.includes('scenario') ? `### s\n${line}\nGET k` : `### s\nphase p\n${line}\nGET k`);
      if (!freeText.has(setting.kind) || setting.kind === 'name' || setting.kind === 'path' || setting.kind === 'pattern') {
        const missing = check(scoped(setting.name));
        assert.ok(
          missing.diagnostics.some((d) => d.severity === 'error'),
          `${setting.name} without a value`,
        );
        assertPositioned(missing, scoped(setting.name));
      }
      if (freeText.has(setting.kind)) continue;
      const text = scoped(`${setting.name} %%`);
      const wrong = check(text);
      const error = wrong.diagnostics.find((d) => d.severity === 'error');
      assert.ok(error, `${setting.name} %% gives an error`);
      const line = setting.scopes.includes('scenario') ? 1 : 2;
      assert.equal(error.range.start.line, line, `${setting.name}: ${error.message}`);
      assert.equal(error.range.start.character, setting.name.length + 1, `${setting.name} error at the value: ${error.message}`);
    }
  });

  it('reports duplicate scenario names', () => {
    const resolved = check('### a\nGET k\n### a\nGET k');
    assert.deepEqual(span(only(resolved, 'duplicate-scenario')), [2, 4, 5]);
    assert.equal(resolved.scenarios.length, 2);
  });
});
