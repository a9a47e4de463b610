// A memtier_benchmark command line (the benchmark spec's `arguments`) read into the load it describes, with
// memtier's own defaults for what the line does not set (50 clients × 4 threads, 10,000 requests per client,
// SET:GET 1:10, 32-byte values, keys memtier-0 … memtier-10000000, random keys). Reads words only: what
// the load becomes in a scenario is memtierLines.ts. A flag this does not know is refused (it may take a
// value and shift everything after it); one it knows but cannot model becomes a note.

/** A memtier key pattern letter: Random, Sequential, Gaussian, Parallel (sequential slices per client), Zipf. */
export type KeyPattern = 'R' | 'S' | 'G' | 'P' | 'Z';

export interface MemtierCommand {
  /** The command's words as memtier sends them, `__key__` and `__data__` still in. */
  words: string[];
  ratio: number;
  keyPattern: KeyPattern;
}

export interface MemtierLoad {
  clients: number;
  threads: number;
  /** Requests per client (memtier's `-n` counts per connection), or every key of the range once (`allkeys`). */
  requests: number | 'allkeys';
  /** `--test-time` in seconds: replaces `requests`. */
  testTimeS?: number;
  ratio: { set: number; get: number };
  keyPattern: { set: KeyPattern; get: KeyPattern };
  keyMinimum: number;
  keyMaximum: number;
  keyPrefix: string;
  /** `--key-stddev` in keys, `--key-zipf-exp`. */
  keyStddev?: number;
  zipfExponent?: number;
  dataSize: number;
  dataSizeRange?: { min: number; max: number };
  pipeline: number;
  /** `--expiry-range` in seconds; absent when 0-0 (memtier's default: no expiry). */
  expiry?: { min: number; max: number };
  /** `--command` lines: replace the SET/GET mix when present. */
  commands: MemtierCommand[];
  /** `--rate-limiting`: requests per second per connection. */
  ratePerConnection?: number;
  db?: number;
  resp3?: boolean;
  runCount?: number;
  /** What the line asks that the scenario cannot show, one sentence each. */
  notes: string[];
}

export const MEMTIER_DEFAULTS = {
  clients: 50,
  threads: 4,
  requests: 10_000,
  dataSize: 32,
  keyMinimum: 0,
  keyMaximum: 10_000_000,
  keyPrefix: 'memtier-',
} as const;

/** Options that take no value and change nothing this models (output, seeds RBench draws its own way). */
const HARMLESS_SWITCHES = new Set([
  '--hide-histogram',
  '--distinct-client-seed',
  '--randomize',
  '--random-data',
  '--print-all-runs',
  '--show-config',
  '--ipv4',
  '--ipv6',
  '--debug',
  '-D',
  '--verify-only',
  '--data-verify',
  '--no-expiry',
]);
/** Options with a value that change nothing about the load: where it goes, how it is reported. */
const HARMLESS_WITH_VALUE = new Set([
  '-s',
  '--server',
  '-p',
  '--port',
  '-S',
  '--unix-socket',
  '-a',
  '--authenticate',
  '--uri',
  '-o',
  '--out-file',
  '--json-out-file',
  '--hdr-file-prefix',
  '--client-stats',
  '--print-percentiles',
  '--data-size-pattern',
  '--command-stats-breakdown',
  '--data-offset',
]);
/** Options with a value that change the load in a way a scenario does not show: a note each. */
const NOTED_WITH_VALUE: Record<string, string> = {
  '--reconnect-interval': 'memtier reconnects every N requests (--reconnect-interval); RBench keeps its connections',
  '--data-size-list': 'memtier picks value sizes from a weighted list (--data-size-list); the import keeps memtier’s --data-size instead',
  '--cert': 'TLS settings are the target’s: give them with the connection (tls-ca, tls-cert, tls-key)',
  '--key': 'TLS settings are the target’s: give them with the connection (tls-ca, tls-cert, tls-key)',
  '--cacert': 'TLS settings are the target’s: give them with the connection (tls-ca, tls-cert, tls-key)',
  '--sni': 'TLS settings are the target’s: give them with the connection (tls-servername)',
  '--wait-timeout': 'memtier waits for replicas (--wait-ratio); RBench sends no WAIT',
  '--key-median': 'memtier centres its gaussian keys on --key-median; RBench centres them in the key range',
};
const NOTED_SWITCHES: Record<string, string> = {
  '--tls': 'the test ran over TLS: run it against a rediss:// target',
  '--tls-skip-verify': 'the test ran over TLS: run it against a rediss:// target',
  '--cluster-mode': 'the test ran against a Redis Cluster (--cluster-mode): run it with --cluster on a cluster target',
};
/** Options that make the workload something else altogether. */
const REFUSED: Record<string, string> = {
  '--data-import': 'it replays a data file (--data-import)',
  '--monitor-input': 'it replays a MONITOR capture (--monitor-input)',
  '--monitor-pattern': 'it replays a MONITOR capture (--monitor-pattern)',
  '--multi-key-get': 'it turns GETs into MGETs (--multi-key-get)',
  '--wait-ratio': 'it mixes WAIT into the load (--wait-ratio)',
  '--num-slaves': 'it mixes WAIT into the load (--num-slaves)',
  '--generate-keys': 'it only generates keys (--generate-keys)',
};
const NAMES: Record<string, string> = { '-c': '--clients', '-t': '--threads', '-n': '--requests', '-x': '--run-count', '-P': '--protocol' };
const VALUED = new Set([
  '--clients',
  '--threads',
  '--requests',
  '--test-time',
  '--ratio',
  '--pipeline',
  '--select-db',
  '--data-size',
  '--data-size-range',
  '--expiry-range',
  '--key-prefix',
  '--key-minimum',
  '--key-maximum',
  '--key-pattern',
  '--key-stddev',
  '--key-zipf-exp',
  '--command',
  '--command-ratio',
  '--command-key-pattern',
  '--rate-limiting',
  '--run-count',
  '--protocol',
]);

/** Splits a command line as a shell would for plain words and quotes (no expansions). */
export function commandWords(line: string): string[] {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3])));
}

class Refused extends Error {}

function whole(flag: string, text: string, min = 0): number {
  if (!/^\d{1,15}$/.test(text) || Number(text) < min) throw new Refused(`${flag} takes a whole number${min > 0 ? ` of at least ${min}` : ''}, not \`${text}\``);
  return Number(text);
}

function pair(flag: string, text: string, separator: string): [number, number] {
  const parts = text.split(separator);
  if (parts.length !== 2) throw new Refused(`${flag} takes two numbers as A${separator}B, not \`${text}\``);
  return [whole(flag, parts[0]), whole(flag, parts[1])];
}

function pattern(flag: string, text: string): KeyPattern {
  if (!/^[RSGPZ]$/.test(text)) throw new Refused(`${flag}: \`${text}\` is not a key pattern (R, S, G, P or Z)`);
  return text as KeyPattern;
}

/** The load of a memtier_benchmark argument list (the program name may lead), or why it cannot be read. */
export function memtierLoad(args: readonly string[]): MemtierLoad | { refused: string } {
  const words = [...args];
  if (words[0] && /(^|\/)memtier_benchmark$/.test(words[0])) words.shift();
  const load: MemtierLoad = {
    clients: MEMTIER_DEFAULTS.clients,
    threads: MEMTIER_DEFAULTS.threads,
    requests: MEMTIER_DEFAULTS.requests,
    ratio: { set: 1, get: 10 },
    keyPattern: { set: 'R', get: 'R' },
    keyMinimum: MEMTIER_DEFAULTS.keyMinimum,
    keyMaximum: MEMTIER_DEFAULTS.keyMaximum,
    keyPrefix: MEMTIER_DEFAULTS.keyPrefix,
    dataSize: MEMTIER_DEFAULTS.dataSize,
    pipeline: 1,
    commands: [],
    notes: [],
  };
  const note = (text: string) => load.notes.includes(text) || load.notes.push(text);
  try {
    for (let i = 0; i < words.length; i++) {
      let flag = words[i];
      let value: string | undefined;
      const eq = flag.startsWith('--') ? flag.indexOf('=') : -1;
      if (eq > 0) {
        value = flag.slice(eq + 1);
        flag = flag.slice(0, eq);
      }
      flag = NAMES[flag] ?? flag;
      const takeValue = (): string => {
        if (value !== undefined) return value;
        const next = words[++i];
        if (next === undefined) throw new Refused(`${flag} needs a value`);
        return next;
      };
      if (HARMLESS_SWITCHES.has(flag)) continue;
      if (flag in NOTED_SWITCHES) {
        note(NOTED_SWITCHES[flag]);
        continue;
      }
      if (HARMLESS_WITH_VALUE.has(flag)) {
        takeValue();
        continue;
      }
      if (flag in NOTED_WITH_VALUE) {
        takeValue();
        note(NOTED_WITH_VALUE[flag]);
        continue;
      }
      if (flag in REFUSED) throw new Refused(REFUSED[flag]);
      if (!VALUED.has(flag)) throw new Refused(`memtier_benchmark's \`${flag}\` is not known to the import`);
      const text = takeValue();
      readValued(load, flag, text, note);
    }
  } catch (error) {
    if (error instanceof Refused) return { refused: error.message };
    throw error;
  }
  if (load.keyMaximum < load.keyMinimum) return { refused: `--key-maximum ${load.keyMaximum} is below --key-minimum ${load.keyMinimum}` };
  return load;
}

function readValued(load: MemtierLoad, flag: string, text: string, note: (text: string) => void): void {
  const last = load.commands[load.commands.length - 1];
  switch (flag) {
    case '--clients':
      load.clients = whole(flag, text, 1);
      return;
    case '--threads':
      load.threads = whole(flag, text, 1);
      return;
    case '--requests':
      load.requests = text === 'allkeys' ? 'allkeys' : whole(flag, text, 1);
      return;
    case '--test-time':
      load.testTimeS = whole(flag, text, 1);
      return;
    case '--ratio': {
      const [set, get] = pair(flag, text, ':');
      if (set + get === 0) throw new Refused('--ratio 0:0 sends nothing');
      load.ratio = { set, get };
      return;
    }
    case '--pipeline':
      load.pipeline = whole(flag, text, 1);
      return;
    case '--select-db':
      load.db = whole(flag, text);
      return;
    case '--data-size':
      load.dataSize = whole(flag, text, 1);
      return;
    case '--data-size-range': {
      const [min, max] = pair(flag, text, '-');
      if (min < 1 || max < min) throw new Refused(`--data-size-range \`${text}\` is not a range of sizes`);
      load.dataSizeRange = { min, max };
      return;
    }
    case '--expiry-range': {
      const [min, max] = pair(flag, text, '-');
      if (max < min) throw new Refused(`--expiry-range \`${text}\` runs backwards`);
      if (max === 0) return;
      if (min === 0) note('memtier’s --expiry-range starts at 0 s (no expiry for some keys); RBench’s shortest expiry is 1 s');
      load.expiry = { min: Math.max(1, min), max };
      return;
    }
    case '--key-prefix':
      load.keyPrefix = text;
      return;
    case '--key-minimum':
      load.keyMinimum = whole(flag, text);
      return;
    case '--key-maximum':
      load.keyMaximum = whole(flag, text);
      return;
    case '--key-pattern': {
      const [set, get] = text.split(':');
      if (get === undefined) throw new Refused(`--key-pattern takes SET:GET patterns such as R:R, not \`${text}\``);
      load.keyPattern = { set: pattern(flag, set), get: pattern(flag, get) };
      return;
    }
    case '--key-stddev':
      load.keyStddev = Number(text);
      if (!(load.keyStddev > 0)) throw new Refused(`--key-stddev takes a positive number, not \`${text}\``);
      return;
    case '--key-zipf-exp':
      load.zipfExponent = Number(text);
      if (!(load.zipfExponent > 0 && load.zipfExponent <= 5)) throw new Refused(`--key-zipf-exp takes a number above 0, not \`${text}\``);
      return;
    case '--command': {
      const words = commandWords(text);
      if (words.length === 0) throw new Refused('--command is empty');
      load.commands.push({ words, ratio: 1, keyPattern: 'R' });
      return;
    }
    case '--command-ratio':
      if (!last) throw new Refused('--command-ratio comes before any --command');
      last.ratio = whole(flag, text);
      return;
    case '--command-key-pattern':
      if (!last) throw new Refused('--command-key-pattern comes before any --command');
      last.keyPattern = pattern(flag, text);
      return;
    case '--rate-limiting':
      load.ratePerConnection = whole(flag, text, 1);
      return;
    case '--run-count':
      load.runCount = whole(flag, text, 1);
      return;
    case '--protocol':
      if (/^resp3$/i.test(text)) load.resp3 = true;
      else if (!/^(redis|resp2)$/i.test(text)) throw new Refused(`--protocol ${text}: RBench speaks the Redis protocol only`);
      return;
  }
}
