// The writers of files for other tools (`--memtier-json`, `--hdr-prefix`): only runs that ask for them need them,
// so they are a file of their own in dist (esbuild.mjs) that src/cli/run.ts requires when asked. They build text
// and data only; run.ts writes it through the file gate.
export { memtierJsonOf, memtierJsonPaths } from '../results/memtierJsonOut';
export { hdrFiles } from '../results/hdrOut';
