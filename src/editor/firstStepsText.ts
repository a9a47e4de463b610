// Texts of the first steps (no `vscode` here): the new scenario file, its name, the examples' summaries and
// the data files an example reads.
import { parseDocument } from '../scenario';
import { writeScenario } from '../scenario/writer';

/**
 * The text of a new scenario file ("RBench: New Scenario File"): short enough to run in seconds on a
 * throwaway server, and showing the parts a first scenario needs (settings, a header, commands, expect).
 */
export const NEW_SCENARIO_TEMPLATE = writeScenario([
  { kind: 'comment', text: 'A benchmark scenario file. Settings at the top apply to every scenario (### header) below.' },
  { kind: 'comment', text: 'There is no `target` line, so a run uses the target shown in the status bar: by default `local`,' },
  { kind: 'comment', text: 'a throwaway redis-server started for the run and stopped after it.' },
  { kind: 'setting', name: 'clients', args: ['4'] },
  { kind: 'setting', name: 'requests', args: ['20k'] },
  { kind: 'setting', name: 'keys', args: ['1k', 'uniform'] },
  { kind: 'setting', name: 'value', args: ['100'] },
  { kind: 'header', title: 'SET and GET' },
  { kind: 'command', name: 'SET', args: ['bench:__key__', '__value__'] },
  { kind: 'command', name: 'GET', args: ['bench:__key__'] },
  { kind: 'expect', condition: 'p99 < 5ms' },
]);

/**
 * A file name in a workspace folder that is not taken: `base`, else base-2.rbench, base-3.rbench…
 * (never an existing file); undefined when the first 999 are all taken.
 */
export function freeScenarioFileName(taken: (name: string) => boolean, base = 'benchmark.rbench'): string | undefined {
  const stem = base.replace(/\.rbench$/, '');
  for (let n = 1; n < 1000; n++) {
    const name = n === 1 ? `${stem}.rbench` : `${stem}-${n}.rbench`;
    if (!taken(name)) return name;
  }
  return undefined;
}

/** What an example is about, for the picker: its leading comment lines, up to the first sentence's end. */
export function exampleSummary(text: string): string {
  const comments: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^#(?!##)\s?(.*)$/.exec(line);
    if (!match) break;
    comments.push(match[1].trim());
  }
  const joined = comments.join(' ').trim();
  const end = joined.search(/[.:](\s|$)/);
  return end === -1 ? joined : joined.slice(0, end + 1);
}

/**
 * The data files a scenario reads (`values from FILE`, `fields from FILE`), as written: relative to its
 * folder. Open Example Scenario copies them along, or the copy would not run.
 */
export function dataFilesOf(text: string): string[] {
  const files = new Set<string>();
  for (const line of parseDocument(text).lines) {
    if (line.kind !== 'setting' || line.setting.kind !== 'data') continue;
    const [from, file] = line.args;
    if (from?.value === 'from' && file && file.kind === 'word' && file.value) files.add(file.value);
  }
  return [...files];
}
