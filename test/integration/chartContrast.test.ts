// Issue 45 (6): in a real VS Code, the results panel's chart lines keep at least 3:1 contrast against the
// panel's background (WCAG 2.1, 1.4.11 non-text contrast) in Light Modern, Dark Modern and High Contrast.
// The theme is switched through `workbench.colorTheme`; the webview reports the colours it drew each line
// in and the background it measured (its computed style), and the contrast is computed here.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RBenchApi } from '../../src/extension';
import type { RunOutcome } from '../../src/editor/runService';
import type { ChartColoursReport } from '../../src/views/messages';
import { contrastRatio, parseColour } from '../../src/views/contrast';
import { useRunSuite, waitFor } from './helpers';

const THEMES = [
  { name: 'Default Light Modern', kind: 'light' },
  { name: 'Default Dark Modern', kind: 'dark' },
  { name: 'Default High Contrast', kind: 'high-contrast' },
] as const;

function lowContrast(report: ChartColoursReport): string[] {
  const background = parseColour(report.background);
  assert.ok(background, `a readable background: ${report.background}`);
  return report.series.flatMap(({ chart, label, colour }) => {
    const parsed = parseColour(colour);
    const ratio = parsed ? contrastRatio(parsed, background) : 0;
    return ratio >= 3 ? [] : [`${chart}/${label} ${colour} on ${report.background}: ${ratio.toFixed(2)}:1`];
  });
}

describe('Chart colours in the built-in themes (issue 45)', function () {
  this.timeout(60_000);
  const suite = useRunSuite('rbench-contrast-it-');
  let before: string | undefined;

  after(async () => {
    await vscode.workspace.getConfiguration('workbench').update('colorTheme', before, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('every chart line keeps 3:1 against the background in Light Modern, Dark Modern and High Contrast', async () => {
    const testing = (suite.api as RBenchApi).testing;
    assert.ok(testing, 'test mode');
    before = vscode.workspace.getConfiguration('workbench').inspect<string>('colorTheme')?.globalValue;
    const document = await suite.openScenario(
      'contrast.rbench',
      ['### contrast', 'clients 2', 'requests 3000', 'SET rbench:contrast:__key__ x', 'GET rbench:contrast:__key__', ''].join('\n'),
    );
    const seen: string[] = [];
    for (const [i, theme] of THEMES.entries()) {
      const reportsBefore = testing.chartColours().length;
      await vscode.workspace.getConfiguration('workbench').update('colorTheme', theme.name, vscode.ConfigurationTarget.Global);
      if (i === 0) {
        const outcome = await vscode.commands.executeCommand<RunOutcome>('rbench.runScenario', document.uri, 0);
        assert.equal(outcome.kind, 'finished', JSON.stringify(outcome).slice(0, 300));
      }
      const report = await waitFor(`the panel to draw its charts in ${theme.name}`, (): ChartColoursReport | undefined => {
        const latest: ChartColoursReport | undefined = testing.chartColours().slice(reportsBefore).at(-1);
        return latest?.theme === theme.kind && latest.series.some((s) => s.chart === 'percentiles') ? latest : undefined;
      });
      const charts = new Set(report.series.map((s) => s.chart));
      assert.ok(charts.has('timeline') && charts.has('percentiles'), [...charts].join(', '));
      assert.deepEqual(lowContrast(report), [], `${theme.name}: lines under 3:1`);
      seen.push(`${theme.name}: ${report.background}, ${report.series.map((s) => `${s.label} ${s.colour}`).join('; ')}`);
    }
    console.log(`rbench-e2e| chart colours: ${seen.join(' | ')}`);
  });
});
