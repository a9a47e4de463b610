// Lint: typescript-eslint's recommended rules, plus the project's one hard rule: pure layers never import `vscode`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noVscode = {
  'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'This layer is shared with the CLI and tests: keep `vscode` out (see DEVELOPERS.md).' }] }],
};

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
  { files: ['src/scenario/**', 'src/engine/**', 'src/redis/**', 'src/results/**', 'src/cli/**', 'src/runner/**'], rules: noVscode },
  // The view-models are bundled into the webviews and unit-tested in Node; only the webview hosts use `vscode`.
  { files: ['src/views/**'], ignores: ['src/views/resultsPanels.ts', 'src/views/comparePanel.ts', 'src/views/webviewHost.ts'], rules: noVscode },
);
