// One redis-benchmarks-specification test (its YAML as plain data) as a `.rbench` scenario: the client's
// load (memtier_benchmark or redis-benchmark arguments) as the measured phase, `init_commands` and the
// preload tool as prefill phases, `configuration-parameters` as `server` lines where the throwaway server
// allows them, `check.keyspacelen` as `expect keys = N` after the prefill, and the tested commands, groups
// and priority as a `tags` line. What a scenario cannot say is a comment in it and a note in the summary.
// Every text from the file reaches the scenario through the one writer (src/scenario/writer.ts).
import { ownValue } from '../../../gates/plainData';
import { serverDirectiveRefusal } from '../../../scenario/serverDirectives';
import { ScenarioWriteError, writeScenario, type WrittenLine } from '../../../scenario/writer';
import { benchmarkLoad } from '../redisBenchmarkCommand';
import { commandWords, memtierLoad } from './memtierArgs';
import { memtierLines, type LoadLines } from './memtierLines';

export interface SpecScenario {
  /** The test's name (its `name`, else the file's). */
  name: string;
  /** The scenario text; absent when the test could not be imported. */
  text?: string;
  /** What the scenario does not carry over, one sentence each (also comments in the text). */
  notes: string[];
  /** Why the test is not importable (the tool, a flag, a line the writer refused). */
  refused?: string;
  /** The client tool the test names. */
  tool?: string;
}

const MEMTIER = 'memtier_benchmark';
const REDIS_BENCHMARK = 'redis-benchmark';
const TAG = /^[A-Za-z0-9_.:-]+$/;
const MAX_DESCRIPTION_LINES = 12;

type Data = Record<string, unknown>;
const record = (value: unknown): Data | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Data) : undefined);
const field = (data: Data | undefined, key: string): unknown => ownValue(data, key);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(text).filter((item): item is string => item !== undefined) : []);
const setting = (name: string, ...args: string[]): WrittenLine => ({ kind: 'setting', name, args });
const comment = (line: string): WrittenLine => ({ kind: 'comment', text: line });

class NotImportable extends Error {}

/** A tool's `arguments` as the phase's lines. */
function toolLines(tool: string, args: unknown, where: string): LoadLines {
  const line = text(args);
  if (line === undefined) throw new NotImportable(`${where}: its arguments are not one line of text`);
  const words = commandWords(line);
  if (tool === MEMTIER) {
    const load = memtierLoad(words);
    if ('refused' in load) throw new NotImportable(`${where}: ${load.refused}`);
    return memtierLines(load);
  }
  if (tool === REDIS_BENCHMARK) {
    const load = benchmarkLoad(words, { allowCommand: true });
    if (typeof load === 'string') throw new NotImportable(`${where}: ${load}`);
    const phase: WrittenLine[] = [setting('value-fill', 'redis-benchmark'), ...load.settings];
    if (load.command) {
      const [name, ...rest] = load.command;
      phase.push({ kind: 'command', name, args: rest });
    } else phase.push(setting('suite', load.tests));
    return { scenario: [], phase, notes: [] };
  }
  throw new NotImportable(`${where}: the tool ${tool} is not one the import reads (memtier_benchmark, redis-benchmark)`);
}

/** The tool a config names: `tool`, else the image's name (`redislabs/memtier_benchmark:edge`). */
function toolOf(config: Data | undefined): string | undefined {
  const tool = text(field(config, 'tool'));
  if (tool) return tool;
  const image = text(field(config, 'run_image'));
  if (image?.includes(MEMTIER)) return MEMTIER;
  if (image?.includes('redis-benchmark')) return REDIS_BENCHMARK;
  return image;
}

function tagsOf(test: Data, notes: string[]): string[] {
  const words = [...strings(field(test, 'tested-groups')), ...strings(field(test, 'tested-commands'))].map((tag) => tag.toLowerCase());
  const priority = field(test, 'priority');
  if (typeof priority === 'number' && Number.isInteger(priority)) words.push(`priority:${priority}`);
  const bad = words.filter((tag) => !TAG.test(tag));
  if (bad.length > 0) notes.push(`tags that are no plain words were left out: ${bad.map((tag) => JSON.stringify(tag)).join(', ')}`);
  return [...new Set(words.filter((tag) => TAG.test(tag)))];
}

/** `configuration-parameters` as `server` lines; a note for each the throwaway server refuses. */
function serverLines(parameters: Data | undefined, notes: string[]): WrittenLine[] {
  const lines: WrittenLine[] = [];
  for (const [name, value] of Object.entries(parameters ?? {})) {
    const words = commandWords(text(value) ?? '');
    const directive = name.toLowerCase();
    const refusal = /^[a-z][a-z0-9-]*$/.test(directive) ? serverDirectiveRefusal(directive) : 'it is not a redis.conf directive';
    if (refusal === undefined && words.length > 0) {
      lines.push(setting('server', directive, ...words));
      continue;
    }
    // The note becomes the scenario's comment (and the summary's count).
    notes.push(
      `configuration parameter ${name} ${text(value) ?? ''} not set: ${refusal === undefined ? 'it has no value' : 'the throwaway server takes tuning directives only'}`,
    );
  }
  return lines;
}

/** `init_commands` (one line each, quoted words) as a prefill phase that sends each once. */
function initLines(commands: unknown): WrittenLine[] {
  const lines = (Array.isArray(commands) ? commands : commands === undefined ? [] : [commands]).map((line) => {
    const words = commandWords(text(line) ?? '');
    if (words.length === 0) throw new NotImportable('dbconfig.init_commands: a command that is not one line of text');
    const [name, ...args] = words;
    return { kind: 'command', name, args } as WrittenLine;
  });
  if (lines.length === 0) return [];
  return [{ kind: 'phase', measured: false, name: 'init' }, setting('clients', '1'), setting('requests', '1'), ...lines];
}

/** The scenario of one test; `source` names the file in the scenario's first comment. */
export function specScenario(value: unknown, source: string, fallbackName: string): SpecScenario {
  const test = record(value);
  const name = text(field(test, 'name'))?.trim() || fallbackName;
  const notes: string[] = [];
  if (!test) return { name, notes, refused: 'the file holds no test (a YAML mapping with clientconfig)' };
  const client = record(field(test, 'clientconfig'));
  const tool = toolOf(client);
  try {
    if (!client) {
      const several = field(test, 'clientconfigs') !== undefined;
      throw new NotImportable(several ? 'several client configurations (clientconfigs) in one test' : 'no clientconfig');
    }
    const dbconfig = record(field(test, 'dbconfig'));
    const lines: WrittenLine[] = [comment(`Imported by rbench import from the benchmark spec's ${source}`)];
    lines.push({ kind: 'header', title: name });
    for (const line of (text(field(test, 'description')) ?? '').split('\n').slice(0, MAX_DESCRIPTION_LINES)) if (line.trim()) lines.push(comment(line.trim()));
    const tags = tagsOf(test, notes);
    if (tags.length > 0) lines.push(setting('tags', ...tags));
    const topologies = strings(field(test, 'redis-topologies'));
    if (topologies.length > 0 && !topologies.includes('oss-standalone')) notes.push(`written for ${topologies.join(', ')}, not a single server`);

    const main = toolLines(tool ?? '(none)', field(client, 'arguments'), 'clientconfig');
    const preloadConfig = record(field(dbconfig, 'preload_tool'));
    const preload = preloadConfig ? toolLines(toolOf(preloadConfig) ?? '(none)', field(preloadConfig, 'arguments'), 'dbconfig.preload_tool') : undefined;
    notes.push(...main.notes, ...(preload?.notes ?? []).map((note) => `preload: ${note}`));
    lines.push(...main.scenario, ...serverLines(record(field(dbconfig, 'configuration-parameters')), notes));

    const keyspace = field(record(field(dbconfig, 'check')), 'keyspacelen');
    const prefills = [...initLines(field(dbconfig, 'init_commands'))];
    if (preload) prefills.push({ kind: 'phase', measured: false, name: 'preload' }, ...preload.phase);
    // Without a preload the dataset comes from elsewhere (the spec's RDB: `rbench run --rdb FILE`): counted before the load.
    if (typeof keyspace === 'number' && Number.isSafeInteger(keyspace) && keyspace >= 0) lines.push({ kind: 'expect', condition: `keys = ${keyspace}` });
    for (const key of ['dataset', 'dataset_name']) {
      const dataset = text(field(dbconfig, key));
      if (dataset) notes.push(`the dataset ${dataset} (an RDB file) is not loaded by the scenario: give it with rbench run --rdb FILE`);
    }
    for (const note of notes) lines.push(comment(`not imported: ${note}`));
    lines.push(...prefills);
    lines.push({ kind: 'phase', measured: true, name: 'benchmark' }, ...main.phase);
    return { name, notes, tool, text: writeScenario(lines) };
  } catch (error) {
    if (error instanceof NotImportable || error instanceof ScenarioWriteError) return { name, notes, tool, refused: error.message };
    throw error;
  }
}
