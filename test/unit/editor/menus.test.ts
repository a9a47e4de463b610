// Issue 45 (7, 10): the editor's menus as package.json contributes them. Right-click in a scenario offers
// Run Scenario and Run File (the README promises it); the two run commands are named by what they run; the
// palette shows Show or Hide Failed Attempts, never both at once.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../helpers/cli';

interface MenuItem {
  command: string;
  when?: string;
  group?: string;
}
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  contributes: { commands: { command: string; title: string }[]; menus: Record<string, MenuItem[]> };
};
const title = (command: string) => manifest.contributes.commands.find((entry) => entry.command === command)?.title;

describe('editor menus (issue 45)', () => {
  it("the editor's context menu has Run Scenario and Run File in .rbench files", () => {
    const items = manifest.contributes.menus['editor/context'] ?? [];
    for (const command of ['rbench.runScenario', 'rbench.runFile']) {
      const item = items.find((entry) => entry.command === command);
      assert.ok(item, `${command} in editor/context`);
      assert.equal(item.when, 'editorLangId == rbench');
    }
  });

  it('the run commands are named by what they run', () => {
    assert.equal(title('rbench.runScenario'), 'Run Scenario');
    assert.equal(title('rbench.runFile'), 'Run File');
  });

  it('the palette offers Show or Hide Failed Attempts as they apply, never both', () => {
    const palette = manifest.contributes.menus.commandPalette;
    const when = (command: string) => palette.find((entry) => entry.command === command)?.when;
    assert.equal(when('rbench.history.showUnmeasured'), '!rbench.history.showingUnmeasured');
    assert.equal(when('rbench.history.hideUnmeasured'), 'rbench.history.showingUnmeasured');
  });
});
