// The 10 MB file of short realistic lines (test/unit/scenario/hostile.test.ts) and the CPU time its checks
// take, measured on a fresh heap: in a process of its own (test/helpers/freshProcess.ts).
import { checkDiagnostics, checkText } from '../../src/scenario';
import { leastCpuMs } from './linearity';

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

export interface RealisticCheckTimes {
  /** checkText (a run's and `rbench check`'s check, plans kept) of 1 MB and of 10 MB, CPU ms. */
  checkMegabyteMs: number;
  checkTenMegabytesMs: number;
  /** What the check of the 10 MB file found: problems, scenarios (and how many the file has), the last one's expects. */
  problems: number;
  scenarios: number;
  expectedScenarios: number;
  lastExpects: string[];
}

export interface RealisticDiagnosticsTimes {
  /** checkDiagnostics (the editor's check, no plan kept) of 1 MB and of 10 MB, CPU ms, and the problems it found. */
  diagnosticsMegabyteMs: number;
  diagnosticsTenMegabytesMs: number;
  diagnosticsProblems: number;
}

// Each kind of check is timed in a process of its own, on a fresh heap and fresh type feedback. After a checkText
// in the same process, checkDiagnostics of 10 MB takes 1.4-1.7x as long (1.7-2.0 s against 1.0-1.2 s here, no one
// hot spot: the whole parse is slower), which is the editor's check worker's case, as it checks plans and outlines
// both; that is left to its own issue, and these budgets each guard one check. A timed check keeps only a summary
// of what it found, so the collector never walks an earlier result.

/** checkText of 1 MB and of 10 MB (the lesser of two runs each), after a warm-up. */
export function timeRealisticCheck(): RealisticCheckTimes {
  let found = { problems: 0, scenarios: 0, lastExpects: [] as string[] };
  const checked = (text: string) => () => {
    const resolved = checkText(text, { env: {} });
    found = {
      problems: resolved.diagnostics.length,
      scenarios: resolved.scenarios.length,
      lastExpects: resolved.scenarios[resolved.scenarios.length - 1]?.expects.map((expect) => expect.text) ?? [],
    };
  };
  checked(realisticFile(500_000).text)(); // warm up the JIT
  const megabyte = realisticFile(1024 * 1024).text;
  const big = realisticFile(10 * 1024 * 1024);
  const checkMegabyteMs = leastCpuMs(checked(megabyte), 2);
  const checkTenMegabytesMs = leastCpuMs(checked(big.text), 2);
  return { checkMegabyteMs, checkTenMegabytesMs, ...found, expectedScenarios: big.scenarios };
}

/** checkDiagnostics of 1 MB and of 10 MB (the lesser of three runs each), after a warm-up. */
export function timeRealisticDiagnostics(): RealisticDiagnosticsTimes {
  let diagnosticsProblems = 0;
  const diagnosed = (text: string) => () => {
    diagnosticsProblems = Math.max(diagnosticsProblems, checkDiagnostics(text, { env: {} }).length);
  };
  diagnosed(realisticFile(500_000).text)(); // warm up the JIT
  const megabyte = realisticFile(1024 * 1024).text;
  const big = realisticFile(10 * 1024 * 1024).text;
  const diagnosticsMegabyteMs = leastCpuMs(diagnosed(megabyte), 3);
  const diagnosticsTenMegabytesMs = leastCpuMs(diagnosed(big), 3);
  return { diagnosticsMegabyteMs, diagnosticsTenMegabytesMs, diagnosticsProblems };
}
