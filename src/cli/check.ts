// `rbench check`: validates scenario files and prints `file:line:col: severity: message` lines.
import { FileGateError, readBoundedText } from '../gates/files';
import { dirname, resolve } from 'node:path';
import { checkText, errorCount, formatDiagnostic, hiddenCount } from '../scenario';
import { memoryLimits } from '../runner/budget';
import { ExitCode, type Output } from './output';
import { SCENARIO_READ_LIMIT } from '../runner/budget';

export interface CheckOptions {
  files: string[];
  vars: Record<string, string>;
  env: Record<string, string | undefined>;
  /** `--allow-env NAME`: environment variables the user lets into commands. */
  allowEnv?: string[];
  /** `--max-memory SIZE`: bytes a scenario may ask for on the server and in rbench. */
  maxMemory?: number;
}

export function checkCommand(options: CheckOptions, output: Output): ExitCode {
  let errors = 0;
  let hidden = 0;
  let scenarios = 0;
  for (const file of options.files) {
    let text: string;
    try {
      text = readBoundedText(file, { userNamed: true, maxBytes: SCENARIO_READ_LIMIT });
    } catch (error) {
      if (!(error instanceof FileGateError)) throw error;
      output.error(`${file}:1:1: error: cannot read the file: ${error.message}`);
      errors++;
      continue;
    }
    const resolved = checkText(text, {
      env: options.env,
      vars: options.vars,
      allowEnv: options.allowEnv,
      baseDir: dirname(resolve(file)),
      memory: memoryLimits(options.maxMemory),
    });
    scenarios += resolved.scenarios.length;
    for (const diagnostic of resolved.diagnostics) output.error(formatDiagnostic(file, diagnostic));
    // The list stops at DIAGNOSTIC_LIMIT; the count goes on (the final note counts the errors not listed).
    errors += errorCount(resolved.diagnostics);
    hidden += hiddenCount(resolved.diagnostics);
  }
  const notShown = hidden > 0 ? ` (${hidden.toLocaleString('en-US')} problem${hidden === 1 ? '' : 's'} not shown)` : '';
  output.info(
    `${options.files.length} file${options.files.length === 1 ? '' : 's'}, ${scenarios} scenario${scenarios === 1 ? '' : 's'}, ${errors.toLocaleString('en-US')} error${errors === 1 ? '' : 's'}${notShown}`,
  );
  return errors > 0 ? ExitCode.ScenarioError : ExitCode.Ok;
}
