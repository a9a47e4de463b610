// The runner itself, dist/cli-main.js, which the `rbench` command (dist/cli.js, src/cli/launch.ts) starts.
import { failLoadsOnThisThread, letLoadsHoldThisThread } from '../engine';
import { main } from './main';
import { printErrorLine } from './output';

const internalError = (error: unknown): void => {
  printErrorLine(`rbench: internal error: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 70;
};

// This thread has nothing else to do while a load runs: a one-thread load runs here, not in a worker (issue 46).
letLoadsHoldThisThread();

// A fault thrown while a load runs on this thread (src/engine/inThreadLoad.ts) ends that load as a worker's crash
// would: it stops, and the run keeps what was measured. Any other ends the process with exit code 70, not with
// Node's default dump.
process.on('uncaughtException', (error) => {
  if (failLoadsOnThisThread(error)) return;
  internalError(error);
  process.exit(70);
});

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, internalError);
