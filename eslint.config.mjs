// Lint: typescript-eslint's recommended rules, plus the project's one hard rule: pure layers never import `vscode`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const VSCODE = { name: 'vscode', message: 'This layer is shared with the CLI and tests: keep `vscode` out (see DEVELOPERS.md).' };
// The file gate (src/gates/files.ts) is the one door to the file system: regular files only, size caps, no
// blocking reads, no link followed out of the workspace (docs/safety.md). New code reads and writes through it.
const FS_MESSAGE = 'Read and write files through the file gate (src/gates/files.ts), so the caps and the link rules apply (docs/safety.md).';
const FS = ['node:fs', 'fs', 'node:fs/promises', 'fs/promises'].map((name) => ({ name, message: FS_MESSAGE }));
const restricted = (...paths) => ({ 'no-restricted-imports': ['error', { paths }] });
/** Files that touch the file system themselves, each for a reason the gate does not serve. */
const OWN_FILES = [
  'src/gates/files.ts', // the gate itself
  'src/redis/localServer.ts', // the throwaway server's own temp folder, config (0600) and pid file
  'src/engine/capacity.ts', // /proc/self/limits: this process's own open-file limit
  'src/engine/tcpCounters.ts', // /proc/net/snmp, /proc/net/netstat: this network namespace's TCP counters (fixed kernel files)
  'src/engine/threadCpu.ts', // /proc/thread-self/schedstat: the engine thread's own CPU time and wait (read on that thread)
  'src/engine/fast/socketWrite.ts', // write(2) on a connection's own socket descriptor: no file (the allocation-free send)
  'src/gates/procStats.ts', // /proc/<pid>/{comm,cmdline,task/<tid>/schedstat}: a local server's threads, the only /proc files it opens
  'src/engine/workerThreads.ts', // whether RBench's own worker bundle exists
  'src/editor/backgroundCheck.ts', // whether RBench's own check worker bundle exists
  'src/editor/runsIndex.ts', // lists the runs folder; each run file is then read through the gate
  'src/results/runFile.ts', // sizes a refused file for its message
  'src/results/runFileWriter.ts', // creates a runs folder the user named (--out)
];

// The layer map (docs/architecture.md): each row may import its own folder and the rows below it, never a row
// above or a sibling in its own row. The ground floor imports nothing else from src (protocol: the gates at most).
const LAYERS = [['gates'], ['protocol'], ['scenario'], ['redis'], ['engine'], ['results'], ['runner'], ['capture'], ['cli', 'editor', 'views']];
// Browser code runs the view-models and the formatting only: nothing that needs Node or the editor's host.
const WEBVIEW_REFUSES = ['gates', 'redis', 'engine', 'runner', 'capture', 'cli', 'editor'];
const layerZones = LAYERS.flatMap((row, level) =>
  row.flatMap((folder) =>
    LAYERS.flatMap((other, otherLevel) => (otherLevel > level ? other : otherLevel === level ? other.filter((name) => name !== folder) : [])).map((above) => ({
      target: `./src/${folder}`,
      from: `./src/${above}`,
      message: `src/${folder} sits below src/${above} in the layer map (docs/architecture.md): move the shared piece down, or pass it in.`,
    })),
  ),
);
// The engine's public face is src/engine/index.ts: the floors above see nothing deeper, so its files can
// move without touching theirs. measure/percentile.ts is public too: the webview bundle takes it, and the
// index names node-only modules (worker threads, sockets) a browser bundle cannot load; so is
// measure/schedule.ts, the starvation rule the verdict (in that bundle) shares with the engine.
const engineFaceZones = ['results', 'runner', 'capture', 'cli', 'editor', 'views'].map((folder) => ({
  target: `./src/${folder}`,
  from: './src/engine',
  except: ['./index.ts', './measure/percentile.ts', './measure/schedule.ts'],
  message: 'import the engine from src/engine (its index.ts), not its files (docs/architecture.md).',
}));
const webviewZones = WEBVIEW_REFUSES.map((folder) => ({
  target: './webview',
  from: `./src/${folder}`,
  message: `webview/ is browser code: it may use src/views' view-models and src/results' formatting, not src/${folder} (docs/architecture.md).`,
}));

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // Imports point down the layer map, and no module imports itself back through others (a circle).
    files: ['src/**', 'webview/**'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones, ...engineFaceZones, ...webviewZones] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  { files: ['src/**'], ignores: OWN_FILES, rules: restricted(...FS) },
  // Client sockets open in one place (src/redis/clientSocket.ts), which gives each the listener for errors no
  // owner hears any more (a TLS socket's second error would end the process).
  {
    files: ['src/**'],
    ignores: ['src/redis/clientSocket.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(connect|createConnection)$/][callee.object.name=/^(net|tls)$/]',
          message: 'Open client sockets with openTcpSocket or openTlsSocket (src/redis/clientSocket.ts).',
        },
        {
          selector: 'NewExpression[callee.name=/^(Socket|TLSSocket)$/], NewExpression[callee.property.name=/^(Socket|TLSSocket)$/]',
          message: 'Open client sockets with openTcpSocket or openTlsSocket (src/redis/clientSocket.ts).',
        },
        {
          selector: 'ImportDeclaration[source.value=/^(node:)?(net|tls)$/] > ImportSpecifier[imported.name=/^(connect|createConnection)$/]',
          message: 'Open client sockets with openTcpSocket or openTlsSocket (src/redis/clientSocket.ts).',
        },
      ],
    },
  },
  {
    files: [
      'src/gates/**',
      'src/protocol/**',
      'src/scenario/**',
      'src/engine/**',
      'src/redis/**',
      'src/results/**',
      'src/cli/**',
      'src/runner/**',
      'src/capture/**',
    ],
    ignores: OWN_FILES,
    rules: restricted(VSCODE, ...FS),
  },
  { files: OWN_FILES.filter((file) => !file.startsWith('src/editor/')), rules: restricted(VSCODE) },
  // The view-models are bundled into the webviews and unit-tested in Node; only the webview hosts use `vscode`.
  {
    files: ['src/views/**'],
    ignores: ['src/views/resultsPanels.ts', 'src/views/comparePanel.ts', 'src/views/webviewHost.ts'],
    rules: restricted(VSCODE, ...FS),
  },
);
