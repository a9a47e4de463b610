// Builds the bundles: extension host, command-line runner, engine worker, and webview scripts.
import * as esbuild from 'esbuild';
import { readdirSync, chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const nodeCommon = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
  // ioredis pulls optional native helpers it never needs at run time.
  external: ['vscode'],
};

// The engine's client paths other than the fast single-node one (src/engine/clientPaths.ts) are files of
// their own, loaded by the worker only when a load uses them: a fast-path worker thread does not parse
// ioredis (~0.3 MB) at every start, and with the cluster paths inside worker.js it parsed 0.49 MB instead
// of ~0.13 MB. Each is built at the place relative to dist/worker.js that tsc gives it relative to
// out/src/engine/worker.js (dist/ioredis/ioredisConnection.js ...), so the worker's one require finds it
// in both; esbuild leaves that require (its argument is no literal) out of the worker bundle.
const clientPathModules = Object.values(JSON.parse(readFileSync('src/engine/clientPathModules.json', 'utf8')));
const clientPathBuilds = clientPathModules.map((module) => ({ ...nodeCommon, entryPoints: { [module]: `src/engine/${module}.ts` }, outdir: 'dist' }));

// Libraries the command-line runner rarely needs, bundled into files of their own that it requires when
// used: zod checks run files read back (runFileSchema.ts), hdr-histogram-js merges histograms (rbench
// merge), csv-parse reads CSV data files, yaml reads benchmark-spec tests (rbench import). Left in dist/cli.js, V8 had to parse their ~1.1 MB at every start (~23 ms of CPU) though a
// `rbench run` never calls them. Each vendor file exports everything of what it stands for.
const vendors = [
  { file: 'zod', source: "export * from 'zod';", filter: /^zod$/ },
  {
    file: 'hdr-histogram',
    // HistogramLogWriter (rbench run --hdr-prefix) is the default export: it must share the decoder's
    // histogram classes (its encoder checks `instanceof`), and no other module here has a default.
    source:
      "export * from 'hdr-histogram-js/dist/encoding';\nexport * from 'hdr-histogram-js/dist/HistogramBuilder';\nexport { default } from 'hdr-histogram-js/dist/HistogramLogWriter';",
    filter: /^hdr-histogram-js\/dist\/(encoding|HistogramBuilder|HistogramLogWriter)$/,
  },
  // csv-parse reads `values from FILE.csv` (src/scenario/dataFormats.ts): only scenarios with a CSV data file need it.
  { file: 'csv-parse', source: "export * from 'csv-parse/sync';", filter: /^csv-parse\/sync$/ },
  // yaml reads benchmark-spec tests (`rbench import spec.yml`, src/results/import/spec/specYaml.ts): ~0.3 MB no run needs.
  { file: 'yaml', source: "export * from 'yaml';", filter: /^yaml$/ },
  // `rbench import` of benchmark-spec tests (src/cli/importSpec.ts, required by src/cli/import.ts when used): ~30 kB
  // of code no run needs. Its copies of shared modules (the scenario writer) are its own: it throws nothing across.
  { file: 'import-spec', source: "export * from './src/cli/importSpec.ts';", filter: /^\.\/importSpec$/, usesVendors: true },
  // `--memtier-json` and `--hdr-prefix` (src/cli/exportWriters.ts, required by src/cli/run.ts when asked): no other run needs them.
  { file: 'export-writers', source: "export * from './src/cli/exportWriters.ts';", filter: /^\.\/exportWriters$/, usesVendors: true },
  // `rbench replay` (src/cli/replay.ts, required by src/cli/main.ts when used): its reader and planner are of no use
  // to the other commands' start-up. Its copy of the run pipeline is its own, as import-spec's writer is.
  { file: 'replay', source: "export * from './src/cli/replay.ts';", filter: /^\.\/replay$/, usesVendors: true },
  // `rbench capture` (src/cli/capture.ts: the MONITOR reader, the fits, --verify's runner), required by src/cli/main.ts
  // when used. Only main.ts's `./capture` is this file: src/capture/verify.ts has a `./capture` of its own.
  { file: 'capture', source: "export * from './src/cli/capture.ts';", filter: /^\.\/capture$/, importer: /src\/cli\/main\.ts$/, usesVendors: true },
];
const vendorsApart = {
  name: 'vendors-apart',
  setup(build) {
    for (const vendor of vendors)
      build.onResolve({ filter: vendor.filter }, (args) =>
        vendor.importer && !vendor.importer.test(args.importer) ? undefined : { path: `./${vendor.file}.js`, external: true },
      );
  },
};
// ioredis (~0.4 MB of dist/cli-main.js) is for the commands that talk through it (`rbench check`, the cluster clean-up,
// the editor's readers): a run's control connections are raw (src/engine/fast/rawControl.ts), so it never runs there,
// yet V8 read, hashed and deserialised it at every start. dist/ioredis-vendor.js holds one copy of it, and its module
// object `DataHandler` as well: the reply gate (src/redis/replyGuard.ts) replaces that object's `default`, which
// ioredis's connect handler reads at every connect, so both must come from the one bundle. So must its two connectors,
// whose `connect` src/redis/ioredisSockets.ts wraps (a copy in dist/cli-main.js would be wrapped in vain). CommonJS on
// purpose: an import would give the gate a copy of the module object, whose change ioredis would never see.
const IOREDIS_PARTS = {
  ioredis: 'ioredis',
  'ioredis/built/DataHandler': 'DataHandler',
  'ioredis/built/connectors/StandaloneConnector': 'StandaloneConnector',
  'ioredis/built/connectors/SentinelConnector': 'SentinelConnector',
};
const ioredisVendor = {
  file: 'ioredis-vendor',
  source: `module.exports = { ${Object.entries(IOREDIS_PARTS)
    .map(([path, name]) => `${name}: require('${path}')`)
    .join(', ')} };`,
};
const ioredisApart = {
  name: 'ioredis-apart',
  setup(build) {
    // Each name the runner requires becomes a one-line module that takes its object from the vendor file when first required.
    build.onResolve({ filter: /^ioredis(\/|$)/ }, (args) => {
      if (IOREDIS_PARTS[args.path] === undefined) throw new Error(`${args.path}: not in dist/${ioredisVendor.file}.js (IOREDIS_PARTS, esbuild.mjs)`);
      return { path: args.path, namespace: 'ioredis-apart' };
    });
    build.onLoad({ filter: /.*/, namespace: 'ioredis-apart' }, (args) => ({
      contents: `module.exports = require('./${ioredisVendor.file}.js').${IOREDIS_PARTS[args.path]};`,
      loader: 'js',
    }));
    build.onResolve({ filter: new RegExp(`^\\./${ioredisVendor.file}\\.js$`) }, (args) => ({ path: args.path, external: true }));
  },
};

const vendorBuilds = vendors.map((vendor) => ({
  ...nodeCommon,
  stdin: { contents: vendor.source, resolveDir: '.', sourcefile: `${vendor.file}.ts`, loader: 'ts' },
  outfile: `dist/${vendor.file}.js`,
  // A vendor that itself uses others (import-spec uses yaml) requires their files too.
  ...(vendor.usesVendors ? { plugins: [vendorsApart] } : {}),
}));

const webviewEntries = existsSync('webview')
  ? readdirSync('webview')
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('_'))
      .map((f) => join('webview', f))
  : [];

// The runner's and the engine's bundles, which src/gates/compiledBundle.ts compiles from V8's code cache: wrapped as
// Node wraps a CommonJS file, so that V8 keeps the file's string alone (src/gates/compiledBundle.ts MODULE_WRAPPER).
const compiledFromCache = { banner: { js: '(function (exports, require, module, __filename, __dirname) {' }, footer: { js: '})' } };
const lean = { minifyWhitespace: true, minifySyntax: true };
const builds = [
  { ...nodeCommon, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist' },
  // dist/cli.js is the `rbench` command: a launcher that runs dist/cli-main.js from V8's code cache (src/cli/launch.ts).
  { ...nodeCommon, entryPoints: { cli: 'src/cli/launch.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } },
  { ...nodeCommon, ...lean, ...compiledFromCache, entryPoints: { 'cli-main': 'src/cli/bin.ts' }, outdir: 'dist', plugins: [vendorsApart, ioredisApart] },
  ...vendorBuilds,
  {
    ...nodeCommon,
    stdin: { contents: ioredisVendor.source, resolveDir: '.', sourcefile: `${ioredisVendor.file}.js`, loader: 'js' },
    outfile: `dist/${ioredisVendor.file}.js`,
  },
  // dist/worker.js is an engine thread's script: a loader that runs dist/worker-main.js from V8's code cache (src/engine/workerLaunch.ts).
  { ...nodeCommon, entryPoints: { worker: 'src/engine/workerLaunch.ts' }, outdir: 'dist' },
  { ...nodeCommon, ...lean, ...compiledFromCache, entryPoints: { 'worker-main': 'src/engine/worker.ts' }, outdir: 'dist' },
  ...clientPathBuilds,
  { ...nodeCommon, entryPoints: { checkWorker: 'src/editor/checkWorker.ts' }, outdir: 'dist' },
  {
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    sourcemap: !production,
    minify: production,
    logLevel: 'info',
    entryPoints: webviewEntries,
    outdir: 'dist/webview',
    loader: { '.css': 'text' },
  },
];

/**
 * A bundle with any non-ASCII character (a µ in a comment or a regular expression, which esbuild leaves
 * as is) is held as a two-byte string by V8: reading and parsing dist/cli.js then cost ~7 ms more CPU at
 * every start. Such characters become \u escapes, which mean the same in strings, regular expressions and comments.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  if (!/[^\x00-\x7f]/.test(text)) return;
  writeFileSync(
    file,
    text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  for (const file of [
    'dist/cli-main.js',
    'dist/worker.js',
    'dist/worker-main.js',
    ...clientPathModules.map((m) => `dist/${m}.js`),
    ...vendors.map((v) => `dist/${v.file}.js`),
    `dist/${ioredisVendor.file}.js`,
  ])
    if (existsSync(file)) asciiOnly(file);
  if (existsSync('dist/cli.js')) chmodSync('dist/cli.js', 0o755);
  // After asciiOnly: the cache is of the bundle's final bytes.
  const cache = spawnSync(process.execPath, ['scripts/codeCache.mjs'], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (cache.status !== 0) throw new Error(`scripts/codeCache.mjs failed (${cache.status ?? cache.signal}): ${cache.stderr}`);
}
