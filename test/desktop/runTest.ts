// Runs the integration suite (test/integration) in desktop VS Code, downloaded by @vscode/test-electron.
// Needs internet on first use (it caches VS Code in .vscode-test/); offline, use scripts/test-e2e.sh,
// which runs the same suite in code-server. Usage: npm run test:desktop
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<void> {
  const repo = path.resolve(__dirname, '../../..');
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'rbench-it-workspace-'));
  writeFileSync(path.join(workspace, 'README.md'), 'Scratch workspace of the RBench integration tests.\n');
  try {
    await runTests({
      version: process.env.VSCODE_TEST_VERSION ?? 'stable',
      extensionDevelopmentPath: repo,
      extensionTestsPath: path.join(repo, 'out/test/integration/index'),
      extensionTestsEnv: { RBENCH_E2E_RESULT_FILE: path.join(repo, 'out/e2e/result.json') },
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
    });
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
