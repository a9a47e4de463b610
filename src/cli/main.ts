// The `rbench` command: check, run and compare `.rbench` scenario files from a terminal or CI.
import { parseArgs } from 'node:util';
import { TOOL_VERSION } from '../version';
import { checkCommand } from './check';
import { compareCommand, percentOption } from './compare';
import { importCommand } from './import';
import { ExitCode, consoleOutput, printErrorLine, printLine } from './output';
import { commandArgs } from './commandArgs';
import { whileInterruptible } from './interrupt';
import { runCommand } from './run';
import { parseRunId, parseShard, parseStartAt, startAtGroup } from '../runner/shard';
import { parseDuration, parseSize } from '../scenario/units';
import { parsePercentileList } from '../scenario/expect';
import { listenAddress, ListenRefused, type ListenAddress } from '../gates/listen';

const USAGE = `rbench ${TOOL_VERSION}: Redis benchmarks from .rbench scenario files

Usage:
  rbench check <files...>                 validate files; prints file:line:col: error: message
  rbench run <files...> [options]         run scenarios and print the result table
  rbench compare <run files...> [options] what differs between runs, then their numbers side by side
  rbench capture --url URL [--duration 30s] [--out FILE] [--verify]
                                          turn a server's live traffic into a scenario
                                          (rbench capture --help for its options)
  rbench replay <file> [--url URL] [--order recorded|shuffled] [--rate N/s] [--clients N] [--prefix NS]
                                          send a MONITOR output or a file of commands as recorded
                                          (rbench replay --help for its options)
  rbench merge <run files...> [--out DIR|FILE.json]
                                          join the runs of several load machines (--shard) into one run:
                                          histograms added, counts added, a row per machine kept
  rbench import <file> [--command "redis-benchmark …"] [--out DIR]
                                          another tool's results as a run file: redis-benchmark --csv
                                          output (with its command line) or memtier_benchmark
                                          --json-out-file output; what the tool did not record is
                                          marked absent, never filled in
  rbench import <spec.yml|folder> [--out DIR]
                                          redis-benchmarks-specification tests (memtier_benchmark
                                          or redis-benchmark) as .rbench scenarios, one file per
                                          test (default folder ./benchmark-spec); prints
                                          "N imported, M with notes, K not importable: …"

Run options:
  --scenario NAME     run only this scenario (by name or 1-based number); repeatable
  --tag TAG           run only the scenarios whose \`tags\` line holds TAG; repeatable (any of them).
                      Files with no such scenario are skipped
  --url URL           target redis://[user@]host:port[/db], rediss://…, unix:///path/redis.sock
                      or redis-sentinel://host:26379[,host:port…]/primary-name;
                      overrides the files' target. A database it writes out (/0, ?db=0)
                      wins over a file's \`db\`; without one, a file's \`db N\` asks first.
                      Repeated (--url A --url B): every
                      scenario runs on each target in turn (with \`repeat\`, each repeat
                      on every target: A B A B…), then their runs are compared; the
                      comparison is printed and saved beside the run files (….comparison.md).
                      The same server twice is refused.
                      Without --url and without a target in the file, a throwaway local
                      redis-server is started on a free port and stopped after.
  --var NAME=VALUE    set a file variable (@NAME); repeatable
  --out DIR           folder for run files (default .rbench/runs)
  --json FILE         also write the run files' content as a JSON array to FILE
  --csv FILE          write redis-benchmark --csv compatible rows to FILE (- for stdout)
  -q, --brief         one line per test (ops/s, p50/p99, errors, the verdict's short label, time),
                      as redis-benchmark -q, and the run's few summary lines
  --memtier-json FILE write each measured test as memtier_benchmark --json-out-file JSON (one test:
                      FILE; several: FILE-N-TEST.json), for tools that read memtier's JSON
  --hdr-prefix PREFIX write HdrHistogram files: PREFIX-N-TEST.hgrm percentile distributions (and
                      PREFIX-N-TEST-COMMAND.hgrm for a mix's commands) and the interval log PREFIX.hlog
  --percentiles LIST  the latency percentiles shown and written, e.g. 50,99,99.9,99.99 (overrides the
                      file's \`percentiles\` line)
  --quiet             print only errors and failed thresholds
  --baseline FILE|pinned
                      compare each scenario's run with a baseline: a run file (or a --json file of
                      several, matched by scenario name), or \`pinned\`: the run pinned for the scenario
                      in .rbench/baselines.json (none pinned: a warning)
  --max-regression 10%
                      with --baseline: exit 1 when a test's throughput drops or its p99 rises by more
                      than this, or when the plans differ (the runs are not comparable)
  --pin               pin each complete run as its scenario's baseline in .rbench/baselines.json
  --shard I/N         run the I-th of N equal parts of every test (clients, requests and rate
                      divided), one part per load machine; join the run files with rbench merge
  --start-at TIME     wait until TIME (ISO with zone, or epoch ms) before starting, so that the
                      parts start together; the parts of one --start-at know each other
  --run-id ID         with --shard: the parts given the same ID are one run (default: --start-at's
                      time); they are not each other's foreign load, and the last to end cleans up
  --full              the table with more columns: each test's per-second throughput percentiles
                      (ops/s p5/p50/p95 over the full seconds) and MB/s sent and received (the
                      server's byte counters over the test)
  --per-client        also print each test's throughput per client
  --per-node          cluster targets: a row per node under each test (ops/s, latency,
                      errors, MOVED/ASK, role, slots), in the table and in --csv
  --yes               consent to what each run does on a server other than the throwaway one
                      (loopback included): without it, such a run is refused with the list of
                      its hosts, credentials, environment variables, TLS changes and commands;
                      only reads on your own --url with nothing from the file run without it
  --allow-env NAME    let the environment variable NAME into the files' commands and settings: any other
                      \${env:NAME} is refused, as it could reach the server, a run file or the target's
                      name (\`password env:NAME\` needs no flag); repeatable
  --allow-admin       let scenarios send admin commands (CONFIG, MODULE, DEBUG, SHUTDOWN, ACL,
                      REPLICAOF…); a file alone never can
  --cluster           the target is a Redis Cluster (as \`cluster on\` says): its nodes on the
                      target's host are reached; without it, a server that says it is a cluster
                      node and announces other nodes is not run
  --allow-host HOST   a cluster's nodes (or the primary the sentinels name) may also be on HOST;
                      repeatable. RBench connects to no other host a server announces
  --allow-destructive let scenarios send commands that can destroy or rewrite keys beyond their
                      own (FLUSHALL, SWAPDB, MIGRATE, scripts, DEL of keys they do not create,
                      a cleanup pattern wider than their keys); a file alone never can
  --max-memory SIZE   the memory a scenario may ask for, on the server and in rbench (default 4gb
                      on the server, 1gb in rbench); also for check
  --metrics [HOST:]PORT
                      serve OpenMetrics at http://HOST:PORT/metrics while the runs go on (requests,
                      errors and latency histograms by test and command, ops/s, client CPU, late
                      sends, the server's INFO counters; a shard's series carry shard="I/N").
                      HOST defaults to 127.0.0.1; another address only as written (0.0.0.0: every
                      interface)
  --metrics-linger DURATION
                      after the last run, wait this long for a final scrape (default 15s; 0s: none)
  --module PATH       load the Redis module PATH (a .so file) into the throwaway redis-server;
                      repeatable. A scenario file never can (\`server loadmodule\` is refused)
  --server-binary PATH
                      start the throwaway server from PATH (a redis-server or valkey-server
                      build; a bare name is looked up in PATH); repeatable: each scenario runs on
                      a fresh server of each binary and their runs are compared, as with --url A
                      --url B (each run records the server's version and build id).
                      NAME=PATH names a binary instead: a file's \`server binary NAME\` starts its
                      throwaway server from it (a file names binaries, never paths; the editor's
                      machine setting rbench.serverBinaries does the same). Also for check
  --rdb PATH          load the RDB file PATH into the throwaway redis-server when it starts (copied
                      into its temp folder as dump.rdb; sanitize-dump-payload yes). A scenario file
                      never names one: an RDB is bytes the server's loader parses

Check options:
  --url URL           also check the files' commands against this server's own command table
                      (arity, module commands); reads COMMAND only

Compare options:
  --markdown          print Markdown (for a pull-request comment) instead of the text table
  --json              print the comparison as JSON
  --csv FILE          write one CSV line per test × metric × run to FILE (- for stdout)
  --noise 5%          changes smaller than this are noise (default 5%); so is, with 4 repeats or
                      more a side, a change whose 95% interval (permutation test) includes 0
  --baseline FILE|pinned
                      compare each given run with its baseline instead of all runs with the first

Passwords never come from files: use \`password env:NAME\` in the scenario, or RBENCH_PASSWORD
for \`password secret\`.

Exit codes: 0 ok, 1 a threshold failed or a regression, 2 a scenario error, a refused scenario or an
unreadable run file, 3 a connection or server error, 4 results measured and printed but a run file
(or --json/--csv) could not be written, 130 cancelled (Ctrl-C; partial results are saved).`;

/** `--server-binary` values: `NAME=PATH` names a binary a file's `server binary NAME` may pick; anything else is a path to run on. */
function splitServerBinaries(values: readonly string[] | undefined): { paths: string[]; named: Record<string, string> } {
  const paths: string[] = [];
  const named: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const value of values ?? []) {
    const match = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)=(.+)$/.exec(value);
    if (match && !match[1].includes('/')) named[match[1]] = match[2];
    else paths.push(value);
  }
  return { paths, named };
}

function parseVars(values: string[] | undefined): Record<string, string> | string {
  const vars: Record<string, string> = {};
  for (const entry of values ?? []) {
    const eq = entry.indexOf('=');
    if (eq <= 0) return `--var takes NAME=VALUE, got "${entry}"`;
    vars[entry.slice(0, eq).replace(/^@/, '')] = entry.slice(eq + 1);
  }
  return vars;
}

/** `--metrics ADDR [--metrics-linger 15s]`: the address through the listening gate (the user's own flag). */
function metricsOptions(spec: string | undefined, linger: string | undefined): { address?: ListenAddress; lingerMs?: number } | string {
  if (spec === undefined) return linger === undefined ? {} : '--metrics-linger needs --metrics';
  let address: ListenAddress;
  try {
    address = listenAddress(spec, 'user', '--metrics');
  } catch (error) {
    if (error instanceof ListenRefused) return error.message;
    throw error;
  }
  if (linger === undefined) return { address };
  const parsed = parseDuration(linger);
  if (!parsed.ok) return `--metrics-linger ${linger}: ${parsed.message}`;
  return { address, lingerMs: parsed.value };
}

/** `rbench compare …`: its own options (`--json` is a flag here, a file name for `run`). */
function compareMain(argv: string[]): number {
  const parsed = commandArgs(
    'compare',
    argv,
    {
      markdown: { type: 'boolean' },
      json: { type: 'boolean' },
      csv: { type: 'string' },
      noise: { type: 'string' },
      baseline: { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
    },
    USAGE,
  );
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const noise = values.noise === undefined ? undefined : percentOption(values.noise, '--noise');
  if (typeof noise === 'string') {
    printErrorLine(`rbench compare: ${noise}`);
    return ExitCode.ScenarioError;
  }
  if (positionals.length === 0) {
    printErrorLine('rbench compare: name the run files to compare');
    return ExitCode.ScenarioError;
  }
  const output = consoleOutput({ quiet: Boolean(values.quiet), stdoutReserved: Boolean(values.json || values.markdown || values.csv === '-') });
  return compareCommand(
    {
      files: positionals,
      markdown: Boolean(values.markdown),
      json: Boolean(values.json),
      csv: values.csv,
      noisePercent: noise,
      baseline: values.baseline,
      root: process.cwd(),
    },
    output,
  );
}

/** `rbench merge …`: `--out` is a folder or a .json file. */
async function mergeMain(argv: string[]): Promise<number> {
  const parsed = commandArgs('merge', argv, { out: { type: 'string' }, quiet: { type: 'boolean', short: 'q' } }, USAGE);
  if (typeof parsed === 'number') return parsed;
  const output = consoleOutput({ quiet: Boolean(parsed.values.quiet), stdoutReserved: false });
  // Loaded here: merging decodes histograms with hdr-histogram-js, which no other command needs at start-up.
  const { mergeCommand } = await import('./merge');
  return mergeCommand({ files: parsed.positionals, out: parsed.values.out ?? '.rbench/runs', outNamed: parsed.values.out !== undefined }, output);
}

/** `rbench import …`: its own options. */
function importMain(argv: string[]): number {
  const parsed = commandArgs('import', argv, { command: { type: 'string' }, out: { type: 'string' }, quiet: { type: 'boolean', short: 'q' } }, USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const output = consoleOutput({ quiet: Boolean(values.quiet), stdoutReserved: false });
  return importCommand(
    { files: positionals, command: values.command, out: values.out ?? '.rbench/runs', outNamed: values.out !== undefined, root: process.cwd() },
    output,
  );
}

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'compare') return compareMain(argv.slice(1));
  if (argv[0] === 'import') return importMain(argv.slice(1));
  if (argv[0] === 'merge') return mergeMain(argv.slice(1));
  // A file of its own in dist (esbuild.mjs): capture's modules (MONITOR reader, fits, the runner for --verify) are of
  // no use to the other commands' start-up.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (argv[0] === 'capture') return (require('./capture') as typeof import('./capture')).captureMain(argv.slice(1));
  // A file of its own in dist (esbuild.mjs): replay's reader and planner serve no other command.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (argv[0] === 'replay') return (require('./replay') as typeof import('./replay')).replayMain(argv.slice(1));
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        scenario: { type: 'string', multiple: true },
        tag: { type: 'string', multiple: true },
        url: { type: 'string', multiple: true },
        var: { type: 'string', multiple: true },
        out: { type: 'string' },
        json: { type: 'string' },
        csv: { type: 'string' },
        quiet: { type: 'boolean' },
        brief: { type: 'boolean', short: 'q' },
        'memtier-json': { type: 'string' },
        'hdr-prefix': { type: 'string' },
        percentiles: { type: 'string' },
        baseline: { type: 'string' },
        'max-regression': { type: 'string' },
        pin: { type: 'boolean' },
        shard: { type: 'string' },
        'start-at': { type: 'string' },
        'run-id': { type: 'string' },
        yes: { type: 'boolean', short: 'y' },
        'per-client': { type: 'boolean' },
        full: { type: 'boolean' },
        'per-node': { type: 'boolean' },
        'allow-env': { type: 'string', multiple: true },
        'allow-admin': { type: 'boolean' },
        cluster: { type: 'boolean' },
        'allow-host': { type: 'string', multiple: true },
        'allow-destructive': { type: 'boolean' },
        'max-memory': { type: 'string' },
        metrics: { type: 'string' },
        'metrics-linger': { type: 'string' },
        module: { type: 'string', multiple: true },
        'server-binary': { type: 'string', multiple: true },
        rdb: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    printErrorLine(`rbench: ${(error as Error).message}\n\n${USAGE}`);
    return ExitCode.ScenarioError;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    printLine(TOOL_VERSION);
    return ExitCode.Ok;
  }
  const [command, ...files] = positionals;
  if (values.help || !command) {
    printLine(USAGE);
    return values.help ? ExitCode.Ok : ExitCode.ScenarioError;
  }
  const vars = parseVars(values.var);
  if (typeof vars === 'string') {
    printErrorLine(`rbench: ${vars}`);
    return ExitCode.ScenarioError;
  }
  const maxRegression = values['max-regression'] === undefined ? undefined : percentOption(values['max-regression'], '--max-regression');
  if (typeof maxRegression === 'string') {
    printErrorLine(`rbench: ${maxRegression}`);
    return ExitCode.ScenarioError;
  }
  if (maxRegression !== undefined && !values.baseline) {
    printErrorLine('rbench: --max-regression needs --baseline (a run file, or pinned)');
    return ExitCode.ScenarioError;
  }
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  const startAt = values['start-at'] === undefined ? undefined : parseStartAt(values['start-at']);
  const runIdGiven = values['run-id'] === undefined ? undefined : parseRunId(values['run-id']);
  for (const problem of [shard, startAt, typeof runIdGiven === 'object' ? runIdGiven.error : undefined]) {
    if (typeof problem === 'string') {
      printErrorLine(`rbench: ${problem}`);
      return ExitCode.ScenarioError;
    }
  }
  if (runIdGiven !== undefined && shard === undefined) {
    printErrorLine('rbench: --run-id names the parts of one sharded run: give it with --shard I/N');
    return ExitCode.ScenarioError;
  }
  if (typeof shard === 'object') {
    const group = typeof runIdGiven === 'string' ? runIdGiven : typeof startAt === 'number' ? startAtGroup(startAt) : undefined;
    if (group !== undefined) shard.group = group;
  }
  const maxMemory = values['max-memory'] === undefined ? undefined : parseSize(values['max-memory']);
  if (maxMemory && !maxMemory.ok) {
    printErrorLine(`rbench: --max-memory ${values['max-memory']}: ${maxMemory.message}`);
    return ExitCode.ScenarioError;
  }
  const maxMemoryBytes = maxMemory?.ok ? maxMemory.value : undefined;
  const percentiles = values.percentiles === undefined ? undefined : parsePercentileList(values.percentiles);
  if (typeof percentiles === 'string') {
    printErrorLine(`rbench: --percentiles ${values.percentiles}: ${percentiles}`);
    return ExitCode.ScenarioError;
  }
  const metrics = metricsOptions(values.metrics, values['metrics-linger']);
  if (typeof metrics === 'string') {
    printErrorLine(`rbench: ${metrics}`);
    return ExitCode.ScenarioError;
  }
  if (files.length === 0) {
    printErrorLine(`rbench ${command}: name at least one .rbench file`);
    return ExitCode.ScenarioError;
  }
  const binaries = splitServerBinaries(values['server-binary']);
  // `-q` is `--brief` for run; check has nothing brief to say, so there it stays what it was: quiet.
  const output = consoleOutput({ quiet: Boolean(values.quiet) || (command === 'check' && Boolean(values.brief)), stdoutReserved: values.csv === '-' });
  switch (command) {
    case 'check':
      if ((values.url?.length ?? 0) > 1) {
        printErrorLine('rbench check: give one --url (the server whose command table the files are checked against)');
        return ExitCode.ScenarioError;
      }
      return await checkCommand(
        {
          files,
          vars,
          env: process.env,
          allowEnv: values['allow-env'] ?? [],
          maxMemory: maxMemoryBytes,
          url: values.url?.[0],
          serverBinaries: Object.keys(binaries.named),
        },
        output,
      );
    case 'run':
      // First Ctrl-C: stop the workers and save what was measured. Second: leave now.
      return whileInterruptible(output, 'Cancelling… (Ctrl-C again to quit without saving)', (signal) =>
        runCommand(
          {
            files,
            scenarios: values.scenario ?? [],
            tags: values.tag ?? [],
            url: values.url?.[0],
            targets: values.url,
            out: values.out ?? '.rbench/runs',
            outNamed: values.out !== undefined,
            json: values.json,
            csv: values.csv,
            memtierJson: values['memtier-json'],
            hdrPrefix: values['hdr-prefix'],
            percentiles,
            quiet: Boolean(values.quiet),
            brief: Boolean(values.brief),
            baseline: values.baseline,
            maxRegressionPercent: maxRegression,
            pin: Boolean(values.pin),
            shard: typeof shard === 'object' ? shard : undefined,
            startAt: typeof startAt === 'number' ? startAt : undefined,
            vars,
            env: process.env,
            allowEnv: values['allow-env'] ?? [],
            allowAdmin: Boolean(values['allow-admin']),
            cluster: Boolean(values.cluster),
            allowHosts: values['allow-host'] ?? [],
            allowDestructive: Boolean(values['allow-destructive']),
            maxMemory: maxMemoryBytes,
            modules: values.module ?? [],
            serverBinaries: binaries.paths,
            namedBinaries: binaries.named,
            ...(values.rdb ? { rdb: values.rdb } : {}),
            yes: Boolean(values.yes),
            perClient: Boolean(values['per-client']),
            full: Boolean(values.full),
            perNode: Boolean(values['per-node']),
            metrics: metrics.address,
            metricsLingerMs: metrics.lingerMs,
            signal,
          },
          output,
        ),
      );
    default:
      printErrorLine(`rbench: unknown command "${command}"\n\n${USAGE}`);
      return ExitCode.ScenarioError;
  }
}
