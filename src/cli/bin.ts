// Entry point of dist/cli.js (the `rbench` bin).
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
