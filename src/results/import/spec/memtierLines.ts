// A memtier load (memtierArgs.ts) as scenario lines: the phase's settings and commands, and the few
// settings that belong to the whole scenario. memtier counts requests per connection (`-n`), RBench per
// test across all clients: the total is written. memtier's keys are `PREFIX<min…max>`; RBench's `__key__`
// runs 0 … N-1 zero-padded to `key-size`, so the import keeps the prefix and the size of the range.
import type { WrittenLine } from '../../../scenario/writer';
import type { KeyPattern, MemtierCommand, MemtierLoad } from './memtierArgs';

export interface LoadLines {
  /** Settings only a whole scenario takes (`db`, `resp`, `repeat`). */
  scenario: WrittenLine[];
  /** The phase's settings, then its commands. */
  phase: WrittenLine[];
  notes: string[];
}

const setting = (name: string, ...args: string[]): WrittenLine => ({ kind: 'setting', name, args });

function keysLine(load: MemtierLoad, pattern: KeyPattern, space: number): WrittenLine {
  switch (pattern) {
    case 'R':
      return setting('keys', String(space), 'uniform');
    case 'S':
    case 'P':
      // P gives each connection its own slice in order: over the test every key once, as one shared sequence does.
      return setting('keys', String(space), 'sequential');
    case 'G':
      // memtier's --key-stddev is in keys; RBench's is a fraction of the space (its default, 1/6, is memtier's).
      return load.keyStddev === undefined
        ? setting('keys', String(space), 'gaussian')
        : setting('keys', String(space), 'gaussian', String(Number(Math.min(1, load.keyStddev / space).toPrecision(6))));
    case 'Z':
      return load.zipfExponent === undefined ? setting('keys', String(space), 'zipf') : setting('keys', String(space), 'zipf', String(load.zipfExponent));
  }
}

/** memtier's placeholders as RBench's: `__key__` is the whole key (prefix included), `__data__` the value. */
function commandLine(command: MemtierCommand, prefix: string, weight: number | undefined): WrittenLine {
  const [name, ...args] = command.words;
  const line: WrittenLine = {
    kind: 'command',
    name,
    args: args.map((arg) => arg.replaceAll('__data__', '__value__').split('__key__').join(`${prefix}__key__`)),
  };
  return weight === undefined ? line : { ...line, weight };
}

const share = (part: number, all: number) => Number(((part / all) * 100).toFixed(4));

/** The scenario lines of one memtier load. */
export function memtierLines(load: MemtierLoad): LoadLines {
  const notes = [...load.notes];
  const space = load.keyMaximum - load.keyMinimum + 1;
  const connections = load.clients * load.threads;
  const phase: WrittenLine[] = [setting('clients', String(connections)), setting('threads', String(load.threads))];
  if (load.testTimeS !== undefined) phase.push(setting('duration', `${load.testTimeS}s`));
  else phase.push(setting('requests', String(load.requests === 'allkeys' ? space : load.requests * connections)));
  if (load.pipeline > 1) phase.push(setting('pipeline', String(load.pipeline)));
  if (load.ratePerConnection !== undefined) phase.push(setting('rate', `${load.ratePerConnection * connections}/s`));

  let commands: WrittenLine[];
  let pattern: KeyPattern;
  if (load.commands.length > 0) {
    const sent = load.commands.filter((command) => command.ratio > 0);
    const total = sent.reduce((sum, command) => sum + command.ratio, 0);
    commands = sent.map((command) => commandLine(command, load.keyPrefix, sent.length > 1 ? share(command.ratio, total) : undefined));
    pattern = sent[0]?.keyPattern ?? 'R';
    if (sent.some((command) => command.keyPattern !== pattern))
      notes.push(
        `the commands use different key patterns (--command-key-pattern ${sent.map((c) => c.keyPattern).join(', ')}); RBench draws one way per phase: ${pattern}`,
      );
  } else {
    const { set, get } = load.ratio;
    const both = set > 0 && get > 0;
    const key = `${load.keyPrefix}__key__`;
    commands = [];
    if (set > 0) commands.push({ kind: 'command', name: 'SET', args: [key, '__value__'], ...(both ? { weight: share(set, set + get) } : {}) });
    if (get > 0) commands.push({ kind: 'command', name: 'GET', args: [key], ...(both ? { weight: share(get, set + get) } : {}) });
    pattern = get > 0 ? load.keyPattern.get : load.keyPattern.set;
    if (both && load.keyPattern.set !== load.keyPattern.get)
      notes.push(
        `SET and GET use different key patterns (--key-pattern ${load.keyPattern.set}:${load.keyPattern.get}); RBench draws one way per phase: ${pattern}`,
      );
  }
  phase.push(keysLine(load, pattern, space), setting('key-size', String(String(space - 1).length)));
  phase.push(setting('value', load.dataSizeRange ? `${load.dataSizeRange.min}..${load.dataSizeRange.max}` : String(load.dataSize)));
  if (load.expiry) phase.push(setting('ttl', load.expiry.min === load.expiry.max ? `${load.expiry.min}s` : `${load.expiry.min}s..${load.expiry.max}s`));
  phase.push(...commands);

  const scenario: WrittenLine[] = [];
  if (load.db !== undefined) scenario.push(setting('db', String(load.db)));
  if (load.resp3) scenario.push(setting('resp', '3'));
  if (load.runCount !== undefined && load.runCount > 1) scenario.push(setting('repeat', String(load.runCount)));
  return { scenario, phase, notes };
}
