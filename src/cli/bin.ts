// Entry point of dist/cli.js (the `rbench` bin).
import { main } from './main';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`rbench: internal error: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 70;
  },
);
