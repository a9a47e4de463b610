// The one table of `.rbench` keywords: every setting and line keyword with its value syntax, default,
// documentation and allowed values. The parser recognises lines from it, the resolver validates
// values by its `kind`, and editor features (completion, hover) read the same entries.

export type SettingScope = 'file' | 'scenario' | 'phase';

export type SettingGroup = 'connection' | 'load' | 'keys' | 'values' | 'structure' | 'checks' | 'server';

/** How a keyword's value is read; the resolver has one reader per kind. */
export type SettingKind =
  | 'target' // URL or profile name
  | 'name' // one word of free text (user name, TLS server name)
  | 'password' // env:NAME | secret
  | 'integer' // plain digits
  | 'switch' // on | off
  | 'choice' // one of `values`
  | 'path' // a file path, relative to the scenario file
  | 'duration'
  | 'count'
  | 'threads' // count | auto
  | 'rate'
  | 'keys' // N [distribution [parameter]]
  | 'value' // size | min..max | weighted list
  | 'data' // from FILE [column C | field F] [in order]
  | 'ttl' // DURATION | MIN..MAX
  | 'reconnect' // every N | off
  | 'ramp' // clients A..B step S every T
  | 'sweep'
  | 'find' // find rate where METRIC < DURATION [from RATE] [to RATE]
  | 'suite'
  | 'server'
  | 'pattern' // a SCAN MATCH pattern
  | 'tags' // words, separated by spaces and/or commas
  | 'expect'
  | 'percentiles' // 50, 99, 99.9, 99.99
  | 'phase'
  | 'prefill'
  | 'group' // group [NAME]: starts a command group
  | 'end' // ends it
  | 'load'; // load NAME [background]: starts a client group running at the same time as the scope's others

export interface SettingInfo {
  name: string;
  /** How to write it, e.g. `clients N`. */
  syntax: string;
  /** The default as a user would write it; absent when there is none. */
  default?: string;
  /** One paragraph for hover and the docs. */
  doc: string;
  /** Allowed value words (for completion and did-you-mean), when the value is a word from a list. */
  values?: readonly string[];
  kind: SettingKind;
  /** Where the keyword may be written. */
  scopes: readonly SettingScope[];
  group: SettingGroup;
  /** Inclusive bounds for numeric values (counts, integers, durations in ms). */
  min?: number;
  max?: number;
  /** A correct example line. */
  example: string;
}

const ANYWHERE: readonly SettingScope[] = ['file', 'scenario', 'phase'];
const WHOLE_SCENARIO: readonly SettingScope[] = ['file', 'scenario'];
const SWITCH = ['on', 'off'] as const;

export const KEY_DISTRIBUTIONS = ['sequential', 'uniform', 'gaussian', 'zipf'] as const;
export const DEFAULT_ZIPF_EXPONENT = 0.99;
export const DEFAULT_GAUSSIAN_STDDEV = 1 / 6;
export const DEFAULT_REQUESTS = 100_000;
export const MAX_VALUE_SIZE = 512 * 1024 * 1024;
/** The most clients a ramp reaches (`ramp clients A..B`); so also the most steps it has (from 1, one more at each). */
export const MAX_RAMP_CLIENTS = 100_000;

export const SETTINGS: readonly SettingInfo[] = [
  // Connection
  {
    name: 'target',
    syntax: 'target URL|PROFILE',
    doc: 'The server to benchmark: a `redis://` or `rediss://` URL (`redis://user@host:6379/0`), `redis-sentinel://host:26379,host2:26379/mymaster` for the primary a set of sentinels names, or the name of a connection profile from the editor settings. Never write a password in the URL: use `password env:NAME` or `password secret`. Without a target, the runner decides (`--url`, the selected connection, else a throwaway local redis-server).',
    kind: 'target',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    example: 'target ${env:REDIS_URL:-redis://127.0.0.1:6379}',
  },
  {
    name: 'user',
    syntax: 'user NAME',
    doc: 'The ACL user name to authenticate as (`AUTH user password`).',
    kind: 'name',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    example: 'user bench',
  },
  {
    name: 'password',
    syntax: 'password env:NAME | password secret',
    doc: "Where the password comes from: an environment variable (`env:REDIS_PASSWORD`) or the editor's secret storage (`secret`; the CLI reads `RBENCH_PASSWORD`). A literal password is refused so that it never lands in git.",
    values: ['secret'],
    kind: 'password',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    example: 'password env:REDIS_PASSWORD',
  },
  {
    name: 'sentinel-user',
    syntax: 'sentinel-user NAME',
    doc: 'For a `redis-sentinel://` target: the ACL user the sentinels themselves ask for (their `requirepass`/ACL). `user` and `password` are for the primary.',
    kind: 'name',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    example: 'sentinel-user watcher',
  },
  {
    name: 'sentinel-password',
    syntax: 'sentinel-password env:NAME | sentinel-password secret',
    doc: "For a `redis-sentinel://` target: where the sentinels' own password comes from, an environment variable or the editor's secret storage (`secret`; the CLI reads `RBENCH_PASSWORD`). Without it the sentinels are asked without AUTH.",
    values: ['secret'],
    kind: 'password',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    example: 'sentinel-password env:SENTINEL_PASSWORD',
  },
  {
    name: 'db',
    syntax: 'db N',
    default: '0',
    doc: "The database number selected on connect (`SELECT N`); overrides a `/db` in the file's own target URL. On your target (`--url`, the selected target or profile) a database its URL names (`/0`, `?db=0`) wins; where it names none, `db N` is the file's change of your target, and the run asks first.",
    kind: 'integer',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    min: 0,
    example: 'db 2',
  },
  {
    name: 'tls',
    syntax: 'tls on|off',
    default: 'on for rediss://, else off',
    doc: 'Connect over TLS. On by default for `rediss://` URLs and when a `tls-ca`, `tls-cert` or `tls-key` file is given.',
    values: SWITCH,
    kind: 'switch',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    example: 'tls on',
  },
  {
    name: 'tls-ca',
    syntax: 'tls-ca FILE',
    doc: "A PEM file of certificate authorities to verify the server with, relative to the `.rbench` file's folder.",
    kind: 'path',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    example: 'tls-ca certs/ca.pem',
  },
  {
    name: 'tls-cert',
    syntax: 'tls-cert FILE',
    doc: "A PEM client certificate for mutual TLS, relative to the `.rbench` file's folder.",
    kind: 'path',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    example: 'tls-cert certs/client.crt',
  },
  {
    name: 'tls-key',
    syntax: 'tls-key FILE',
    doc: "The PEM private key of the client certificate, relative to the `.rbench` file's folder.",
    kind: 'path',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    example: 'tls-key certs/client.key',
  },
  {
    name: 'tls-servername',
    syntax: 'tls-servername NAME',
    default: "the URL's host",
    doc: 'The server name sent for SNI and checked against the certificate.',
    kind: 'name',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    example: 'tls-servername cache.example.com',
  },
  {
    name: 'tls-insecure',
    syntax: 'tls-insecure on|off',
    default: 'off',
    doc: 'Skip certificate verification, for test servers with self-signed certificates. Never use it against production.',
    values: SWITCH,
    kind: 'switch',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    example: 'tls-insecure on',
  },
  {
    name: 'cluster',
    syntax: 'cluster on|off',
    default: 'off',
    doc: 'Cluster mode: the target is a seed node, slots are discovered on connect and each command goes to the node owning its key.',
    values: SWITCH,
    kind: 'switch',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    example: 'cluster on',
  },
  {
    name: 'replica-reads',
    syntax: 'replica-reads on|off',
    default: 'off',
    doc: "Cluster mode: read-only commands (GET, LRANGE…) go to the replicas of the slot's master, on connections that sent `READONLY`; writes still go to masters.",
    values: SWITCH,
    kind: 'switch',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    example: 'replica-reads on',
  },
  {
    name: 'resp',
    syntax: 'resp 2|3',
    default: '2',
    doc: 'The protocol version: `3` sends `HELLO 3` on connect.',
    values: ['2', '3'],
    kind: 'choice',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    example: 'resp 3',
  },
  {
    name: 'client',
    syntax: 'client fast|ioredis',
    default: 'fast',
    doc: 'The client path: `fast` pre-encodes commands and rewrites placeholders in place, like redis-benchmark; `ioredis` sends through the ioredis library, to measure what an application sees.',
    values: ['fast', 'ioredis'],
    kind: 'choice',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    example: 'client ioredis',
  },
  {
    name: 'connect-timeout',
    syntax: 'connect-timeout DURATION',
    default: '5s',
    doc: 'How long to wait for each connection before the run fails.',
    kind: 'duration',
    scopes: WHOLE_SCENARIO,
    group: 'connection',
    min: 1,
    example: 'connect-timeout 10s',
  },
  {
    name: 'reconnect',
    syntax: 'reconnect every N | reconnect off',
    default: 'off',
    doc: "Close each client's connection after N requests and open a new one (TCP, TLS and AUTH/HELLO/SELECT again, through the same checks as the first connection), as an application that connects per request or per job does. `reconnect every 1` is a new connection per request, like valkey-benchmark's `-k 0`. The time each connection took to set up is in the results (`connect p50/p99`). A batch never spans two connections: with `pipeline P` a connection sends batches of at most N requests. On a cluster target a client's connection is a link to every master: each cycle reopens them all (with `client ioredis`, a new Cluster client, whose slot-map read, one CLUSTER SLOTS on a connection of its own, is part of the set-up).",
    values: ['every', 'off'],
    kind: 'reconnect',
    scopes: ANYWHERE,
    group: 'connection',
    min: 1,
    max: 1_000_000_000,
    example: 'reconnect every 100',
  },
  {
    name: 'ramp',
    syntax: 'ramp clients A..B step S every DURATION',
    doc: "A staircase of connected clients inside one test (memtier's ramp-up): A clients at the start, S more connecting every DURATION (whole seconds) until B. The test lasts its steps (`clients` is B and `duration` the steps × DURATION; `requests` and `duration` lines do not apply) and runs in the closed loop. The results have a row per step: its clients, throughput and latency.",
    values: ['clients', 'step', 'every'],
    kind: 'ramp',
    scopes: ANYWHERE,
    group: 'load',
    example: 'ramp clients 10..200 step 10 every 5s',
  },
  {
    name: 'idle-connections',
    syntax: 'idle-connections N',
    default: '0',
    doc: "Open N more connections before the load and hold them idle beside it until the test ends (redis-benchmark's `-I`, memtier's idle clients): the server's cost of many connected clients. They send only their handshake and count towards the connections the run opens.",
    kind: 'integer',
    scopes: ANYWHERE,
    group: 'connection',
    min: 0,
    max: 100_000,
    example: 'idle-connections 1000',
  },
  {
    name: 'connect-only',
    syntax: 'connect-only on|off',
    default: 'off',
    doc: 'A connection storm (max-connection and TLS-handshake tests): each request of the test opens a connection (TCP, TLS and AUTH/HELLO/SELECT and PING, through the same checks as any connection), times it and closes it, with no command of its own: the test has no command lines. `requests N` is the number of connections, `clients` how many open at the same time, `rate` connections per second. The row `connect` is its connections/s and set-up time. On a cluster target each connection goes to one master, the masters in turn. In a client group (`load storm` with `connect-only on` and no command) the storm runs beside the other groups.',
    values: SWITCH,
    kind: 'switch',
    scopes: ANYWHERE,
    group: 'connection',
    example: 'connect-only on',
  },
  // Load
  {
    name: 'clients',
    syntax: 'clients N',
    default: '50',
    doc: "The number of connections sending commands in parallel (redis-benchmark's `-c`).",
    kind: 'count',
    scopes: ANYWHERE,
    group: 'load',
    min: 1,
    max: 100_000,
    example: 'clients 50',
  },
  {
    name: 'threads',
    syntax: 'threads N|auto',
    default: 'auto',
    doc: "Worker threads driving the connections; `auto` lets the engine choose from the machine and the load (redis-benchmark's `--threads`).",
    values: ['auto'],
    kind: 'threads',
    scopes: ANYWHERE,
    group: 'load',
    min: 1,
    max: 1024,
    example: 'threads 4',
  },
  {
    name: 'pipeline',
    syntax: 'pipeline N',
    default: '1',
    doc: "Commands each connection keeps in flight before waiting for replies (redis-benchmark's `-P`).",
    kind: 'count',
    scopes: ANYWHERE,
    group: 'load',
    min: 1,
    max: 100_000,
    example: 'pipeline 10',
  },
  {
    name: 'requests',
    syntax: 'requests N',
    default: '100k',
    doc: "Requests per test across all clients (redis-benchmark's `-n`). Replaces an inherited `duration`; the default 100k applies when neither is given.",
    kind: 'count',
    scopes: ANYWHERE,
    group: 'load',
    min: 1,
    example: 'requests 1M',
  },
  {
    name: 'duration',
    syntax: 'duration DURATION',
    doc: 'Run each test for this long instead of a number of requests. Replaces an inherited `requests`.',
    kind: 'duration',
    scopes: ANYWHERE,
    group: 'load',
    min: 0.001,
    example: 'duration 30s',
  },
  {
    name: 'warmup',
    syntax: 'warmup DURATION',
    default: '0s',
    doc: 'Send load for this long before measuring starts; the warm-up is not recorded.',
    kind: 'duration',
    scopes: ANYWHERE,
    group: 'load',
    min: 0,
    example: 'warmup 5s',
  },
  {
    name: 'stall-timeout',
    syntax: 'stall-timeout DURATION',
    default: '10s',
    doc: 'End a test when the server sends no reply for this long while requests are outstanding: they become TIMEOUT errors (their wait is their latency), the test ends as complete-with-errors with the reason, and the run goes on. Stops a `requests` test from waiting forever on a frozen server.',
    kind: 'duration',
    scopes: ANYWHERE,
    group: 'load',
    min: 0.001,
    example: 'stall-timeout 30s',
  },
  {
    name: 'rate',
    syntax: 'rate N/s',
    doc: 'Open loop: send this many requests per second across all clients, whatever the latency, so that queueing shows in the percentiles. Without it the load is closed loop (as fast as replies come).',
    kind: 'rate',
    scopes: ANYWHERE,
    group: 'load',
    min: 1,
    example: 'rate 20k/s',
  },
  {
    name: 'repeat',
    syntax: 'repeat N',
    default: '1',
    doc: 'Run every sweep point this many times; results report the median and the spread.',
    kind: 'count',
    scopes: WHOLE_SCENARIO,
    group: 'load',
    min: 1,
    max: 1000,
    example: 'repeat 3',
  },
  // Keys
  {
    name: 'keys',
    syntax: 'keys N [sequential|uniform|gaussian [stddev]|zipf [exponent]]',
    default: '1 uniform',
    doc: 'The key space and how `__key__` is drawn from it: numbers 0 … N-1, `sequential` (in order, wrapping), `uniform`, `gaussian` (centred, standard deviation as a fraction of the space, default 1/6) or `zipf` (exponent, default 0.99). The default single key matches redis-benchmark without `-r`; `__rand_int__` is uniform over the same space.',
    values: KEY_DISTRIBUTIONS,
    kind: 'keys',
    scopes: ANYWHERE,
    group: 'keys',
    min: 1,
    example: 'keys 1M zipf 0.99',
  },
  {
    name: 'key-size',
    syntax: 'key-size N',
    default: '12',
    doc: "The width of `__key__`: the key number left-padded with zeros to N characters (12 like redis-benchmark's `__rand_int__`). It must fit the largest key number.",
    kind: 'count',
    scopes: ANYWHERE,
    group: 'keys',
    min: 1,
    max: 1_000_000,
    example: 'key-size 16',
  },
  {
    name: 'seed',
    syntax: 'seed N',
    doc: 'Seed for the key and value generators, for reproducible sequences. Without it a random seed is used and recorded in the run file.',
    kind: 'integer',
    scopes: ANYWHERE,
    group: 'keys',
    min: 0,
    example: 'seed 42',
  },
  // Values
  {
    name: 'value',
    syntax: 'value SIZE | value MIN..MAX | value SIZE W%, SIZE W%, …',
    default: '3',
    doc: "The size of `__value__` in bytes: fixed (`748`), uniform in a range (`100..1000`), or a weighted choice (`64 80%, 1KB 20%`; without percentages the choices are equally likely). The default 3 bytes is redis-benchmark's `-d`.",
    kind: 'value',
    scopes: ANYWHERE,
    group: 'values',
    min: 0,
    max: MAX_VALUE_SIZE,
    example: 'value 100..1000',
  },
  {
    name: 'value-fill',
    syntax: 'value-fill random | redis-benchmark | TEXT',
    default: 'random',
    doc: "What the bytes of `__value__` are. `random` (the default): seeded random bytes, incompressible like real payloads, so snapshot and AOF sizes, replication traffic and memory figures are realistic. `redis-benchmark`: the characters redis-benchmark 7 sends (its generator: `0`…`o`, 6 bits per byte, the same for every request). Any other word: that text repeated to the value's size; `x` is what redis-benchmark 6.0 and older sent (perfectly compressible). Values are generated once and sliced, so the choice costs nothing per request.",
    values: ['random', 'redis-benchmark', 'x'],
    kind: 'name',
    scopes: ANYWHERE,
    group: 'values',
    example: 'value-fill redis-benchmark',
  },
  {
    name: 'values',
    syntax: 'values from FILE [column NAME|N | field NAME] [in order]',
    doc: "Draw `__value__` from a data file instead of generated bytes: a CSV column (`column name`, or its number from 1; the first row is the header), a JSON Lines field (`field body`; a string is sent as its text, anything else as JSON), or one value per line (any other file). By default the request's key picks the value (key number mod the count, so `GET` reads back what `SET` wrote for that key); `in order` takes them one after another. The file must lie inside the scenario's folder (no `..`, no absolute path, no hidden part such as `.env`, no symbolic link), is read once before the run, at most 64 MiB; the run file records its name, size, SHA-256 and count, never the values.",
    values: ['from'],
    kind: 'data',
    scopes: ANYWHERE,
    group: 'values',
    example: 'values from data/users.csv column name',
  },
  {
    name: 'fields',
    syntax: 'fields from FILE [in order]',
    doc: "A data file's rows as hash fields: `__fields__` becomes the row's field/value pairs (`HSET user:__key__ __fields__`). A CSV's header names the fields; a JSON Lines file has one object per line, each with the same number of keys. The row is picked like `values from` (by key, or `in order`), under the same file rules.",
    values: ['from'],
    kind: 'data',
    scopes: ANYWHERE,
    group: 'values',
    example: 'fields from data/users.csv',
  },
  {
    name: 'ttl',
    syntax: 'ttl DURATION | ttl MIN..MAX',
    doc: "Give every key the load writes an expiry, uniform in the range (memtier's `--expiry-range`): `SET` and `GETEX` get their own `EX` option, other writes are followed by an `EXPIRE` of their key in the same request unit. Whole seconds are sent as seconds (`EX`, `EXPIRE`), anything finer as milliseconds (`PX`, `PEXPIRE`).",
    kind: 'ttl',
    scopes: ANYWHERE,
    group: 'values',
    example: 'ttl 60s..1h',
  },
  // Structure
  {
    name: 'sweep',
    syntax: 'sweep SETTING V1, V2, … | sweep SETTING A..B [step S|step xF] | sweep server "DIRECTIVE ARGS" …, …',
    doc: 'Run the scenario once per value of a setting (`value`, `key-size`, `pipeline`, `clients`, `requests`, `keys`, `threads`, `rate`). Several sweep lines form the cross product, the first varying slowest; each point is labelled like `value=100 clients=4`. `sweep rate 10k/s, 20k/s, 40k/s` runs the load open loop at each rate: latency against offered load. `sweep server "appendonly no", "appendonly yes" "appendfsync always"` starts a throwaway redis-server per point with those directives (the ones a `server` line takes), to compare server setups in one run; not with a `target`.',
    values: ['value', 'key-size', 'pipeline', 'clients', 'requests', 'keys', 'threads', 'rate', 'server'],
    kind: 'sweep',
    scopes: ['scenario'],
    group: 'structure',
    example: 'sweep value 5, 10, 20, 50, 100',
  },
  {
    name: 'find',
    syntax: 'find rate where METRIC < DURATION [from RATE] [to RATE]',
    doc: "Search for the highest open-loop rate whose latency stays under a limit: each probe runs the scenario at one rate (`rate=…` points), doubling from `from` (default 1k/s) until the limit breaks or `to` (default 1M/s) is reached, then halving the gap until the two nearest rates are within 10% (at most 16 probes). Needs `duration`. A probe passes when every measured test's METRIC (`mean`, `p50`, `p90`, `p95`, `p99`, `p99.9`, `max`) is under the limit with no errors. Not with `sweep`.",
    values: ['rate'],
    kind: 'find',
    scopes: ['scenario'],
    group: 'structure',
    example: 'find rate where p99 < 2ms',
  },
  {
    name: 'suite',
    syntax: 'suite default | suite TEST,TEST,…',
    doc: "Run redis-benchmark's built-in tests with its key names and payloads, in its order: `default` for all of them, or the names `-t` takes (`set,get,lrange_100`). Each test is reported separately, under redis-benchmark's name.",
    kind: 'suite',
    scopes: ['scenario', 'phase'],
    group: 'structure',
    example: 'suite set,get',
  },
  {
    name: 'phase',
    syntax: 'phase NAME',
    doc: "Start a measured phase: the commands and settings below it, up to the next phase line, form one step of the scenario. Settings in a phase override the scenario's for that phase only.",
    kind: 'phase',
    scopes: ['scenario'],
    group: 'structure',
    example: 'phase read',
  },
  {
    name: 'prefill',
    syntax: 'prefill [NAME]',
    default: 'prefill',
    doc: 'Start an unmeasured phase, to load data before the measured phases. It runs like any phase but is not recorded.',
    kind: 'prefill',
    scopes: ['scenario'],
    group: 'structure',
    example: 'prefill load',
  },
  {
    name: 'group',
    syntax: 'group [NAME]',
    doc: "Start a command group: the command lines up to `end` form one request unit, sent back to back with the same `__key__` (and value size), and counted once — latency from the unit's send to its last reply, an error unit when any reply is an error. Put `MULTI` first and `EXEC` (or `DISCARD`) last to make the group a transaction. Each command keeps its own row. The name labels the unit (default: its commands joined by `+`).",
    kind: 'group',
    scopes: ['scenario', 'phase'],
    group: 'structure',
    example: 'group set-get',
  },
  {
    name: 'end',
    syntax: 'end',
    doc: 'End the command group started by the last `group` line.',
    kind: 'end',
    scopes: ['scenario', 'phase'],
    group: 'structure',
    example: 'end',
  },
  {
    name: 'load',
    syntax: 'load NAME [background]',
    doc: "Start a client group: the settings and commands below it, up to the next `load` or phase line, form one group of clients that runs at the same time as the scope's other groups, with its own `clients`, `threads`, `rate`, `pipeline`, `duration` or `requests`, `keys`, values and commands. Settings above the first `load` line are shared. A `background` group is measured and shown but is not judged by `expect` (unless one names it) nor the subject of the verdict.",
    values: ['background'],
    kind: 'load',
    scopes: ['scenario', 'phase'],
    group: 'structure',
    example: 'load writers background',
  },
  {
    name: 'cleanup',
    syntax: 'cleanup PATTERN',
    doc: 'Delete the keys matching this pattern (SCAN MATCH syntax) after the scenario has run.',
    kind: 'pattern',
    scopes: WHOLE_SCENARIO,
    group: 'structure',
    example: 'cleanup bench:*',
  },
  {
    name: 'tags',
    syntax: 'tags TAG[,TAG…]',
    doc: "Labels for choosing scenarios: `rbench run --tag get` runs only the scenarios tagged `get`. Words of letters, digits and `_.:-`, separated by spaces and/or commas; compared case-insensitively. A scenario's own `tags` line replaces a file-level one.",
    kind: 'tags',
    scopes: WHOLE_SCENARIO,
    group: 'structure',
    example: 'tags string, get, priority:1',
  },
  // Checks
  {
    name: 'expect',
    syntax: 'expect [COMMAND] METRIC OP VALUE',
    doc: "A threshold that fails the run when it does not hold: `throughput` (a rate), `mean`, `p50`, `p90`, `p95`, `p99`, `p99.9`, `max` (durations), `errors` (a count) or `error-rate` (a percentage). With a command label, it checks that command's result only. `expect keys = N` checks the keys in the database (DBSIZE) after the prefill phases.",
    kind: 'expect',
    scopes: WHOLE_SCENARIO,
    group: 'checks',
    example: 'expect p99 < 2ms',
  },
  {
    name: 'percentiles',
    syntax: 'percentiles P, P, …',
    default: '50, 99, 99.9',
    doc: "The latency percentiles shown in the table's `pN` columns, the CSV, the run file and `--memtier-json` (`percentiles 50, 99, 99.9, 99.99`), each from 0 to 100, read from the test's HDR histogram. `--percentiles` on the command line chooses them for every scenario. Any `pN` works in `expect` whatever is chosen here.",
    kind: 'percentiles',
    scopes: WHOLE_SCENARIO,
    group: 'checks',
    example: 'percentiles 50, 99, 99.9, 99.99',
  },
  // Server
  {
    name: 'server',
    syntax: 'server DIRECTIVE ARGS…',
    doc: 'A redis.conf directive for the throwaway local redis-server (`server save 60 10000`, `server appendonly yes`, `server maxmemory 100mb`). `server unixsocket on` gives it a unix socket in its temp dir, and every connection goes through it. Ignored when benchmarking another target.',
    kind: 'server',
    scopes: WHOLE_SCENARIO,
    group: 'server',
    example: 'server save 60 10000',
  },
];

const BY_NAME = new Map(SETTINGS.map((setting) => [setting.name, setting]));

/** The table entry for a keyword, which must be written in lower case. */
export function settingInfo(name: string): SettingInfo | undefined {
  return BY_NAME.get(name);
}

export const SETTING_NAMES: readonly string[] = SETTINGS.map((setting) => setting.name);

/** Settings a `sweep` line may vary; the kind of their values. */
export const SWEEP_AXES: Readonly<Record<string, 'size' | 'count' | 'rate'>> = {
  value: 'size',
  'key-size': 'count',
  pipeline: 'count',
  clients: 'count',
  requests: 'count',
  keys: 'count',
  threads: 'count',
  rate: 'rate',
};

export const MAX_SWEEP_POINTS = 10_000;

export type ExpectValueKind = 'rate' | 'duration' | 'count' | 'fraction';

export interface ExpectMetricInfo {
  /** As written in the file. */
  name: string;
  /** As stored in the plan. */
  metric: import('./plan').ExpectMetric;
  value: ExpectValueKind;
  doc: string;
}

export const EXPECT_METRICS: readonly ExpectMetricInfo[] = [
  { name: 'throughput', metric: 'ops', value: 'rate', doc: 'Requests per second (`100k/s`).' },
  { name: 'ops', metric: 'ops', value: 'rate', doc: 'Requests per second, same as `throughput`.' },
  { name: 'mean', metric: 'mean', value: 'duration', doc: 'Mean latency.' },
  { name: 'p50', metric: 'p50', value: 'duration', doc: 'Median latency.' },
  { name: 'p90', metric: 'p90', value: 'duration', doc: '90th percentile latency.' },
  { name: 'p95', metric: 'p95', value: 'duration', doc: '95th percentile latency.' },
  { name: 'p99', metric: 'p99', value: 'duration', doc: '99th percentile latency.' },
  { name: 'p99.9', metric: 'p99.9', value: 'duration', doc: '99.9th percentile latency.' },
  { name: 'max', metric: 'max', value: 'duration', doc: 'Highest latency.' },
  { name: 'errors', metric: 'errors', value: 'count', doc: 'Number of error replies.' },
  { name: 'error-rate', metric: 'error-rate', value: 'fraction', doc: 'Error replies as a share of requests (`0.1%`).' },
  {
    name: 'miss-rate',
    metric: 'miss-rate',
    value: 'fraction',
    doc: "A read's replies that found nothing (nil, or an empty HGETALL/LRANGE/SMEMBERS…) as a share of its replies that were not errors (`5%`).",
  },
  {
    name: 'keys',
    metric: 'keys',
    value: 'count',
    doc: 'Keys in the database (DBSIZE) once the prefill phases have run, before the first measured phase: the dataset check (`expect keys = 1M`). Needs a `prefill` phase.',
  },
];

export const COMPARE_OPS = ['<=', '>=', '!=', '==', '<', '>', '='] as const;

export interface PlaceholderInfo {
  name: string;
  placeholder: import('./plan').Placeholder;
  doc: string;
}

export const PLACEHOLDERS: readonly PlaceholderInfo[] = [
  { name: '__key__', placeholder: 'key', doc: 'A key number from the `keys` distribution, zero-padded to `key-size` characters.' },
  { name: '__rand_int__', placeholder: 'rand_int', doc: "redis-benchmark's placeholder: a uniform random number in the key space, 12 digits." },
  { name: '__value__', placeholder: 'value', doc: 'A value of the `value` size; every occurrence is drawn separately.' },
  { name: '__client__', placeholder: 'client', doc: 'The connection index, 0 … clients-1, so each client can use its own key.' },
  {
    name: '__now__',
    placeholder: 'now',
    doc: "The send stamp: the sender's monotonic clock in microseconds, 16 digits, taken as the request is written. A subscriber or a consumer reads it back from the start of what it receives (`PUBLISH chat:1 __now__:__value__`) to measure send→receive latency; clocks of one machine only.",
  },
  { name: '__fields__', placeholder: 'fields', doc: 'A row of the `fields from` data file as field/value arguments (`HSET user:__key__ __fields__`).' },
  {
    name: '__cursor__',
    placeholder: 'cursor',
    doc: "The cursor the connection's previous reply of this SCAN, HSCAN, SSCAN or ZSCAN returned (0 to start): each connection follows full passes (`SCAN __cursor__ MATCH k:* COUNT 100`). Needs `pipeline 1`.",
  },
  {
    name: '__ids__',
    placeholder: 'ids',
    doc: "The entry IDs the connection's previous XREADGROUP returned, as arguments of XACK (`XACK s g __ids__` after `XREADGROUP GROUP g c COUNT 10 STREAMS s >` in one `group … end`); an empty read skips the XACK. Needs `pipeline 1`.",
  },
];

/** `__sha(SCRIPT)__`: not a fixed name (it holds the script), so completion and hover know it apart from PLACEHOLDERS. */
export const SHA_PLACEHOLDER: PlaceholderInfo = {
  name: '__sha("SCRIPT")__',
  placeholder: 'sha',
  doc: "EVALSHA's first argument: the SHA1 of SCRIPT, which the run loads (SCRIPT LOAD) once before the load and loads again, once, when a NOSCRIPT reply says it was flushed: `EVALSHA __sha(\"return redis.call('GET', KEYS[1])\")__ 1 k:__key__`. Needs `pipeline 1`.",
};

export { MANAGED_SERVER_DIRECTIVES } from './serverDirectives';
