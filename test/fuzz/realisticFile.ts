// The 10 MB file of short realistic lines (test/unit/scenario/hostile.test.ts) and the CPU time its checks
// take, measured on a fresh heap: in a process of its own (test/helpers/freshProcess.ts).
import { checkDiagnostics, checkText } from '../../src/scenario';
import { cpuMs } from './linearity';

/** About 700k short lines in 70k differently named scenarios: the cost is per line and per scenario, not per byte. */
function realisticFile(bytes: number): { text: string; scenarios: number } {
  const block = (i: number) =>
    `### scenario ${i}\nclients 50\npipeline 10\nrequests 1M\nkeys 100k uniform\nvalue 3\nSET bench:__key__ __value__\nGET bench:__key__\nexpect p99 < 2ms\n\n`;
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    parts.push(block(i));
    size += parts[i].length;
  }
  return { text: parts.join(''), scenarios: parts.length };
}

export interface RealisticFileTimes {
  /** checkText (a run's and `rbench check`'s check, plans kept) of 1 MB and of 10 MB, CPU ms. */
  checkMegabyteMs: number;
  checkTenMegabytesMs: number;
  /** What the check of the 10 MB file found: problems, scenarios (and how many the file has), the last one's expects. */
  problems: number;
  scenarios: number;
  expectedScenarios: number;
  lastExpects: string[];
  /** checkDiagnostics (the editor's check, no plan kept): the best of three, CPU ms, and the problems it found. */
  diagnosticsMegabyteMs: number;
  diagnosticsTenMegabytesMs: number;
  diagnosticsProblems: number;
}

export function timeRealisticFile(): RealisticFileTimes {
  const time = <T>(work: () => T) => {
    const started = cpuMs();
    const result = work();
    return { result, elapsed: cpuMs() - started };
  };
  time(() => checkText(realisticFile(500_000).text, { env: {} })); // warm up the JIT
  const megabyte = realisticFile(1024 * 1024).text;
  const big = realisticFile(10 * 1024 * 1024);
  // The lesser of two runs: a loaded machine adds time, never removes it, and the first run of a fresh process still compiles.
  const twice = (text: string) => {
    const first = time(() => checkText(text, { env: {} }));
    const second = time(() => checkText(text, { env: {} }));
    return second.elapsed < first.elapsed ? second : first;
  };
  const tenth = twice(megabyte);
  const full = twice(big.text);
  const resolved = full.result;
  const best = (text: string) => {
    let least = Infinity;
    let problems = 0;
    for (let run = 0; run < 3; run++) {
      const timed = time(() => checkDiagnostics(text, { env: {} }));
      least = Math.min(least, timed.elapsed);
      problems = Math.max(problems, timed.result.length);
    }
    return { least, problems };
  };
  const diagnosticsMegabyte = best(megabyte);
  const diagnosticsBig = best(big.text);
  return {
    checkMegabyteMs: tenth.elapsed,
    checkTenMegabytesMs: full.elapsed,
    problems: resolved.diagnostics.length,
    scenarios: resolved.scenarios.length,
    expectedScenarios: big.scenarios,
    lastExpects: resolved.scenarios[resolved.scenarios.length - 1]?.expects.map((expect) => expect.text) ?? [],
    diagnosticsMegabyteMs: diagnosticsMegabyte.least,
    diagnosticsTenMegabytesMs: diagnosticsBig.least,
    diagnosticsProblems: Math.max(diagnosticsMegabyte.problems, diagnosticsBig.problems),
  };
}
