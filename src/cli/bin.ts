// The runner itself, dist/cli-main.js, which the `rbench` command (dist/cli.js, src/cli/launch.ts) starts.
import { main } from './main';
import { printErrorLine } from './output';

const internalError = (error: unknown): void => {
  printErrorLine(`rbench: internal error: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 70;
};

// A small load runs the engine on this thread (src/engine/inThreadLoad.ts): a fault there ends the run as a
// worker's crash would, with exit code 70, not as Node's default dump.
process.on('uncaughtException', (error) => {
  internalError(error);
  process.exit(70);
});

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, internalError);
