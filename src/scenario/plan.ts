// The resolved plan: what the resolver produces from a `.rbench` file and what the engine runs.
// This module is the contract between the language (src/scenario) and the engine (src/engine):
// plain data, JSON-serialisable (it is stored in run files), no `vscode` import.

/** Zero-based line and UTF-16 character offset, as in VS Code and LSP. The CLI prints them one-based. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'info' | 'hint';

/** A replacement that fixes a diagnostic (offered as a quick fix in the editor). */
export interface TextFix {
  title: string;
  range: Range;
  newText: string;
}

export interface Diagnostic {
  range: Range;
  severity: Severity;
  message: string;
  /** Stable identifier, e.g. `unknown-setting`, for quick fixes and tests. */
  code: string;
  fixes?: TextFix[];
}

export interface ResolvedFile {
  scenarios: ScenarioPlan[];
  diagnostics: Diagnostic[];
}

export interface ScenarioPlan {
  name: string;
  /** Index of the scenario in its file, from 0. */
  index: number;
  /** The `###` header line; for a file without headers, the first line. */
  headerRange: Range;
  /** From the header to the line before the next header. */
  range: Range;
  target: TargetPlan;
  /** Configuration for a throwaway local redis-server (`server save 60 10000`); ignored for other targets. */
  server: ServerDirective[];
  /** Names of the swept settings, in the order written (`value`, `key-size`, `pipeline`, `clients`, `requests`, `keys`). */
  sweepAxes: string[];
  /** The cross product of the sweeps; exactly one point when there is no sweep. */
  points: PointPlan[];
  /** Each point is run this many times; results report the median and spread. */
  repeat: number;
  expects: Expectation[];
  /** `percentiles 50, 99, 99.9, 99.99` (or `--percentiles`): the latency percentiles shown and written; absent: p50, p99, p99.9. */
  percentiles?: number[];
  /** A key pattern (SCAN MATCH syntax) whose keys are deleted after the run, when the scenario asks. */
  cleanup?: string;
  /** `tags …`: lower-case labels `rbench run --tag` selects by; empty when none. */
  tags: string[];
  /** True when any command of any phase writes (from the command table's flags). */
  writes: boolean;
  /**
   * Environment variables whose values the connection or the traffic carries (`user ${env:X}`,
   * `tls-servername`, `value-fill`…), by setting, names only: the run's consent lists them.
   */
  wireEnv?: { setting: string; names: string[] }[];
  /**
   * Set by `rbench run --shard I/N`: this run is part `index` (1-based) of `count`; see src/runner/shard.ts.
   * `runId` (8 hex digits, from `--run-id` or `--start-at`) is shared by the parts of one run: they tell each other
   * from strangers by it on the server and agree by it which of them cleans up.
   */
  shard?: { index: number; count: number; runId?: string };
  /** `find rate where p99 < 2ms`: the runner searches for the highest rate (runner/rateSearch.ts) instead of running `points`' one point once. */
  rateSearch?: RateSearchPlan;
}

/** `find rate where METRIC < LIMIT [from RATE] [to RATE]`. */
export interface RateSearchPlan {
  metric: Extract<NamedMetric, 'mean' | 'p50' | 'p90' | 'p95' | 'p99' | 'p99.9' | 'max'>;
  /** The limit in microseconds: a probe passes when the metric is below it. */
  limitUs: number;
  /** Requests per second: the first probe, and the highest one tried. */
  fromRate: number;
  toRate: number;
  /** The line as written, for messages. */
  text: string;
  range: Range;
}

export interface ServerDirective {
  name: string;
  args: string[];
}

export type ClientPath = 'fast' | 'ioredis';

export interface TargetPlan {
  /** A redis://, rediss://, unix:// or redis-sentinel:// URL after interpolation. Never holds a literal password from the file. */
  url?: string;
  /** The name of a connection profile defined in editor settings. */
  profile?: string;
  /** ACL user name. */
  user?: string;
  /** Name of the environment variable holding the password. */
  passwordEnv?: string;
  /** Take the password from the editor's secret storage (the CLI reads RBENCH_PASSWORD instead). */
  passwordSecret?: boolean;
  db?: number;
  tls?: TlsPlan;
  cluster: boolean;
  /** Sentinel targets: how the sentinels themselves authenticate (`sentinel-user`, `sentinel-password`). */
  sentinelUser?: string;
  sentinelPasswordEnv?: string;
  sentinelPasswordSecret?: boolean;
  /** Cluster mode: read-only commands go to replicas (`replica-reads on`). */
  replicaReads?: boolean;
  /** RESP protocol version; 3 sends HELLO 3 on connect. */
  resp: 2 | 3;
  client: ClientPath;
  connectTimeoutMs: number;
}

export interface TlsPlan {
  enabled: boolean;
  /** File paths, resolved against the scenario file's folder. */
  ca?: string;
  cert?: string;
  key?: string;
  servername?: string;
  /** Skip certificate verification (self-signed test servers). */
  insecure?: boolean;
}

export interface PointPlan {
  /** e.g. `value=100 clients=4`; empty for a scenario without sweep. */
  label: string;
  /** Swept setting → value at this point (sizes in bytes, counts as numbers). */
  sweep: Record<string, number>;
  /** `sweep server`: this point's directives, over the scenario's `server` lines, for a throwaway server of its own. */
  server?: ServerDirective[];
  phases: PhasePlan[];
}

export interface PhasePlan {
  name: string;
  /** A prefill phase runs but is not recorded in results. */
  measured: boolean;
  load: LoadPlan;
  keys: KeyPlan;
  value: ValuePlan;
  /** What value bytes are made of; absent: random (older plans: see ValueFill). */
  valueFill?: ValueFill;
  /** `values from FILE`: `__value__` is drawn from a data file's values (`value` then holds their sizes). */
  values?: DataSourcePlan;
  /** `fields from FILE`: `__fields__` is a data file's row as field/value pairs. */
  fields?: DataSourcePlan;
  /** `ttl MIN..MAX`: the writes carry an expiry drawn uniformly from the range (see src/scenario/ttlPlan.ts). */
  ttl?: TtlPlan;
  /**
   * Commands written without weights run one after another as separate tests, as redis-benchmark's
   * `-t set,get` does; weighted commands (`80% GET …`) form a single test with a mix.
   */
  tests: TestPlan[];
  /**
   * `load NAME` lines: client groups that run at the same time, each with its own load, keys, values and one
   * test (`tests` then holds each group's test, in order, for what reads the phase's commands). Absent: one pool.
   */
  groups?: ClientGroupPlan[];
}

/**
 * What a client group does with its connections. `requests`: commands sent and timed like any test; `consumers`:
 * blocked calls (BRPOP, XREADGROUP … BLOCK) taking the jobs other groups push (src/scenario/consumerGroup.ts);
 * `subscribers`: a group whose one command subscribes (src/scenario/pubsubGroups.ts), listening until the others
 * end. Each kind is a file behind the runner's group table (src/runner/clientGroups.ts).
 */
export type ClientGroupKind = 'requests' | 'consumers' | 'subscribers';

/** One `load NAME [background]` group: a phase of its own (its settings over the scope's), run beside its siblings. */
export interface ClientGroupPlan {
  name: string;
  kind: ClientGroupKind;
  /** Measured and shown, but neither judged by `expect` (unless one names it) nor the verdict's subject. */
  background: boolean;
  /** The group's load, keys, values and its one test (`phase.tests[0]`), named after the group. */
  phase: PhasePlan;
  /** The `load` line. */
  source?: Range;
}

export interface LoadPlan {
  clients: number;
  /** Worker threads; 'auto' lets the engine decide from the machine and the load. */
  threads: number | 'auto';
  pipeline: number;
  /** Requests (commands) for the whole test across all clients. Exactly one of requests/durationMs is set. */
  requests?: number;
  durationMs?: number;
  /** Load before measuring starts; excluded from results. */
  warmupMs: number;
  /** No reply for this long while requests are outstanding ends the load as stalled (absent: the engine's default, 10 s). */
  stallTimeoutMs?: number;
  /** Open loop: target requests per second across all clients. Absent: closed loop. */
  rate?: number;
  /** `reconnect every N`: each client closes its connection after N requests and opens a new one. Absent: one connection per client. */
  reconnectEvery?: number;
  /** `idle-connections N`: connections opened before the load and held idle beside it until the test ends. */
  idleConnections?: number;
  /**
   * `connect-only on`: each request is a connection opened (TCP, TLS, the handshake), timed and closed, without a
   * command of the load's own: a connection storm. `clients` open one at a time each (closed loop) or at `rate`.
   */
  connectOnly?: boolean;
  /**
   * `ramp clients A..B step S every T`: A clients connected at the start, S more every T ms up to B (`clients` is B,
   * `durationMs` the steps × T). Closed loop only.
   */
  ramp?: { from: number; to: number; step: number; everyMs: number };
  /**
   * A shard runs the scenario's clients firstClient … firstClient+clients-1 of totalClients: they keep their
   * scenario-wide numbers (sequential key stride, `__client__`, seeds, open-loop stagger).
   */
  shard?: { firstClient: number; totalClients: number };
}

export type KeyDistribution = 'sequential' | 'uniform' | 'gaussian' | 'zipf';

export interface KeyPlan {
  /** Number of distinct keys; `__key__` takes values 0 … space-1. */
  space: number;
  distribution: KeyDistribution;
  /** zipf exponent (default 0.99). */
  zipfExponent: number;
  /** gaussian standard deviation as a fraction of the key space (default 1/6). */
  gaussianStddev: number;
  /** Characters `__key__` expands to: the key number left-padded with zeros to this width. */
  size: number;
  /** Seed for reproducible key and value sequences. Absent: a random seed, recorded in the run file. */
  seed?: number;
}

/**
 * The bytes of `__value__`: seeded random bytes (the default), redis-benchmark 7's generated characters,
 * or a literal text repeated to the size (`x` is redis-benchmark 6.0's fill).
 */
export type ValueFill = { kind: 'random' } | { kind: 'redis-benchmark' } | { kind: 'literal'; text: string };

/**
 * Where `values from` / `fields from` take their data: the file and what was read from it. The data
 * itself never enters the plan (nor the run file); the engine finds it by `sha256` and the selection
 * (src/scenario/valueTable.ts).
 */
export interface DataSourcePlan {
  /** The file as written, relative to the scenario's folder. */
  file: string;
  format: 'csv' | 'jsonl' | 'lines';
  /** `values`: one value per entry; `fields`: one row of field/value pairs per entry. */
  take: 'values' | 'fields';
  /** The CSV column (its header name, or its number from 1). */
  column?: string;
  /** The JSON Lines field. */
  field?: string;
  /** `key`: the request's key number picks the entry (key mod count); `sequence`: the entries in order, wrapping. */
  order: 'key' | 'sequence';
  /** The file's size in bytes and its SHA-256 (hex). */
  size: number;
  sha256: string;
  /** Entries read. */
  count: number;
  /** The shortest and the longest entry, and all entries together, in bytes (a row: its values). */
  minLength: number;
  maxLength: number;
  bytes: number;
  /** `fields`: the field names (a CSV's header, a JSON line's keys). */
  names?: string[];
}

/** `ttl 60s..1h`: each write's expiry, uniform in min … max, in `unit` (EX/EXPIRE seconds, PX/PEXPIRE milliseconds). */
export interface TtlPlan {
  min: number;
  max: number;
  unit: 's' | 'ms';
}

export type ValuePlan =
  { kind: 'fixed'; size: number } | { kind: 'range'; min: number; max: number } | { kind: 'weighted'; choices: { size: number; weight: number }[] };

export interface TestPlan {
  /** Display name: the command label for a single command (`SET`, `LRANGE_100`), `mix` or the phase name for a mix, a group's name. */
  name: string;
  commands: WeightedCommand[];
  /** A command group (`group … end`): each request is one unit of all `commands`, in order, back to back. */
  group?: GroupPlan;
  /**
   * `rbench replay`: the commands in the order listed instead of drawn by weight: request j of the load sends
   * command j (mod their count), by the sequential key rule (src/engine/requests/random.ts), so N requests send each once.
   */
  sequence?: boolean;
  /**
   * `rbench replay --timing recorded` (a sequence test on one connection, pipeline 1, open loop): command j is
   * followed gapsMs[j] ms later by the next, as captured; absent: the rate's even spacing.
   */
  gapsMs?: number[];
}

/**
 * A command group: every request sends all the test's commands in order with the unit's key (and value size),
 * and counts once: its latency runs from the unit's send to its last reply; any error reply (EXECABORT, a nil
 * EXEC) makes it an error unit. The commands keep their own rows (replies, errors, latency from the unit's send).
 */
export interface GroupPlan {
  /** The group is a `MULTI … EXEC` (or `… DISCARD`) transaction. */
  transaction: boolean;
  /** The `group` line. */
  source?: Range;
}

export interface WeightedCommand {
  /** Relative weight; 1 for an unweighted command. */
  weight: number;
  command: CommandTemplate;
}

export interface CommandTemplate {
  /** Upper-case command name, e.g. `SET`. */
  name: string;
  /** How results name it: the command name, or a suite test name such as `LRANGE_100` or `PING_INLINE`. */
  label: string;
  /** Arguments after the command name; each is a concatenation of literal text and placeholders. */
  args: ArgTemplate[];
  /** Send as an inline command (`PING\r\n`) instead of a RESP array, as redis-benchmark's PING_INLINE does. */
  inline?: boolean;
  /** Where the command was written (for per-command thresholds and error messages). */
  source?: Range;
  /** Positions (0-based, among `args`) of its keys, from the target's own command table: set by the runner once it has read it. */
  keys?: number[];
}

export type ArgTemplate = ArgPart[];

/**
 * `fields`: a data file's row as field/value arguments; `ttl`: the expiry RBench adds for `ttl` (never written in a file);
 * `draw`: a number with its own range and distribution (`__rand(1..1000)__`, `__float(0..1)__`, one side of `__range(…)__`);
 * `now`: the send stamp, the sender's monotonic clock in microseconds as 16 digits (src/engine/sendStamp.ts).
 */
export type Placeholder = 'key' | 'rand_int' | 'value' | 'client' | 'fields' | 'ttl' | 'draw' | 'now' | ReplyPlaceholder;

/**
 * Reply-driven placeholders (src/scenario/replyForms.ts): `__cursor__` the cursor the previous SCAN-family reply of the
 * connection returned, `__ids__` the IDs its previous XREADGROUP reply returned, `__sha(SCRIPT)__` the SHA1 of a
 * script the run loads (`script` holds its text).
 */
export type ReplyPlaceholder = 'cursor' | 'ids' | 'sha';

export type DrawDistribution = 'uniform' | 'zipf' | 'sequential';

/**
 * A placeholder with its own number space (src/scenario/draws.ts): `__rand(MIN..MAX[,DIST])__` whole numbers,
 * `__float(MIN..MAX)__` decimals, `__range(MIN..MAX,WIDTH[,DIST])__` a pair of arguments `a a+WIDTH` drawn together.
 */
export interface DrawSpec {
  form: 'rand' | 'float' | 'range';
  min: number;
  max: number;
  distribution: DrawDistribution;
  /** Digits after the point: 0 for whole numbers. */
  decimals: number;
  /** `range`: the pair's second number is the first plus this. */
  width?: number;
  /** The placeholder as written (without the underscores' surroundings): what the writer and messages show. */
  text: string;
}

/** Literal text, or a placeholder expanded per request; `draw` (with `side` for a range's two arguments) for the `draw` placeholder; `script` for `sha`. */
export type ArgPart = string | { placeholder: Placeholder; draw?: DrawSpec; side?: 'min' | 'max'; script?: string };

/** The metrics with a name of their own (the table's columns). */
export type NamedMetric = 'ops' | 'mean' | 'p50' | 'p90' | 'p95' | 'p99' | 'p99.9' | 'max' | 'errors' | 'error-rate' | 'miss-rate';

/** `keys` is the dataset check: DBSIZE after the prefill phases, not a figure of a test. */
export type ExpectMetric = NamedMetric | ChosenPercentileMetric | 'keys';

/** Any other latency percentile (`p99.99`, `p75`), read from the test's histogram. */
export type ChosenPercentileMetric = `p${number}`;

export type CompareOp = '<' | '<=' | '>' | '>=' | '=' | '!=';

export interface Expectation {
  metric: ExpectMetric;
  op: CompareOp;
  /** ops: requests/s; latency metrics: microseconds; errors and keys: a count; error-rate: a fraction 0…1. */
  value: number;
  /** Restrict to one command label (`expect GET p99 < 2ms`); absent: the scenario's total. */
  command?: string;
  /** The expectation as written, for messages. */
  text: string;
  range: Range;
}
