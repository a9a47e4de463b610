// The throwaway redis-server runs under a small Node watchdog that holds a pipe from its parent (the CLI
// or the extension host). When that pipe closes — the parent stopped the server, exited, or was killed,
// even with SIGKILL — the watchdog stops redis-server and removes its temp folder. Nothing is orphaned.

/**
 * The watchdog's program, run with `node -e` (the extension host runs it with ELECTRON_RUN_AS_NODE).
 * Arguments: the redis-server binary, its config file, the temp folder to remove.
 * Exit code 127: the binary was not found.
 */
export const WATCHDOG_SOURCE = `
const { spawn } = require('node:child_process');
const { rmSync } = require('node:fs');
const [binary, conf, dir] = process.argv.slice(1);
const removeDir = () => { try { rmSync(dir, { recursive: true, force: true }); } catch {} };
const server = spawn(binary, [conf], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  if (server.exitCode !== null || server.signalCode !== null) { removeDir(); process.exit(0); }
  server.kill('SIGTERM');
  setTimeout(() => server.kill('SIGKILL'), 5000).unref();
};
server.on('error', (error) => {
  process.stderr.write(error.message + '\\n');
  removeDir();
  process.exit(error.code === 'ENOENT' ? 127 : 1);
});
server.on('exit', (code) => { removeDir(); process.exit(code ?? 1); });
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.on('error', stop);
process.stdin.resume();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop);
`;

/** Exit code of the watchdog when the redis-server binary does not exist. */
export const BINARY_NOT_FOUND = 127;

/** The environment of the watchdog and its server: what finding and running the binary needs, not the user's secrets. */
export function watchdogEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = { ELECTRON_RUN_AS_NODE: '1' };
  for (const name of ['PATH', 'Path', 'SystemRoot', 'LD_LIBRARY_PATH', 'DYLD_LIBRARY_PATH', 'TMPDIR', 'TMP', 'TEMP', 'LANG']) {
    if (env[name] !== undefined) kept[name] = env[name];
  }
  return kept;
}
