// The runner itself, dist/cli-main.js, which the `rbench` command (dist/cli.js, src/cli/launch.ts) starts.
import { main } from './main';
import { printErrorLine } from './output';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    printErrorLine(`rbench: internal error: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = 70;
  },
);
