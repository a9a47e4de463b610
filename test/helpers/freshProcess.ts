// Runs an exported function of a compiled test module in a Node process of its own. A CPU-time budget is
// measured there, as `rbench check` runs and as the editor's check worker starts, on a fresh heap: in the mocha
// process the collector also walks the heap every earlier test left, and V8's collector threads, shared by every
// thread of a process, would add that work to a worker's figure too.
import { execFile } from 'node:child_process';

/** `require(modulePath)[exportName](...args)` in a new `node`; resolves with its result (JSON). */
export function inFreshProcess<T>(modulePath: string, exportName: string, args: readonly unknown[] = []): Promise<T> {
  const code = `const [modulePath, exportName, args] = JSON.parse(process.argv[1]);
Promise.resolve(require(modulePath)[exportName](...args)).then((result) => process.stdout.write(JSON.stringify(result)));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', code, JSON.stringify([modulePath, exportName, args])], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${modulePath} ${exportName}: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as T);
    });
  });
}
