// `rbench capture --url URL --duration 30s --out workload.rbench [--verify]`: watches a server's traffic
// (src/capture), writes a scenario that reproduces it through the file gate, and with --verify runs it on a
// throwaway server and prints captured against reproduced.
import { FileGateError, writeFileSafely } from '../gates/files';
import { CaptureError, captureWorkload } from '../capture/capture';
import { captureTarget } from '../capture/captureTarget';
import { counterMismatchText, counterText, fidelityText } from '../capture/fidelity';
import { scenarioText } from '../capture/scenarioText';
import { DEFAULT_CAPTURE, type MonitorMode } from '../capture/types';
import { RawSample } from '../capture/rawSample';
import { verifyCapture } from '../capture/verify';
import { buildWorkload } from '../capture/workload';
import { parseCount, parseDuration, parseSize } from '../scenario/units';
import { consentRefusal } from './run';
import { ExitCode, consoleOutput, printErrorLine, type Output } from './output';
import { commandArgs } from './commandArgs';
import { whileInterruptible } from './interrupt';

export const CAPTURE_USAGE = `Usage: rbench capture --url URL [options]

Watches a server's traffic for a while and writes a .rbench scenario that reproduces it: the command mix
and rate (INFO commandstats), argument shapes, key frequencies and write sizes (a MONITOR sample), and the
keyspace's types, sizes and TTLs (a SCAN sample). It only reads. No key name, value or argument of the
server is copied unless you pass --keep-names.

Options:
  --url URL           the server to capture: redis://[user@]host:port[/db], rediss://…, unix:///path
                      (the password from RBENCH_PASSWORD)
  --duration 30s      how long to watch (default 30s)
  --out FILE          where to write the scenario (default workload.rbench)
  --no-monitor        no MONITOR: the mix from the counters, keys and sizes from the SCAN sample
  --monitor           MONITOR even above the rate limit (MONITOR costs a busy server throughput)
  --monitor-rate-limit N
                      above this many commands/s MONITOR stays off unless --monitor (default 50k)
  --monitor-lines N   stop the MONITOR sample after N commands (default 2M)
  --monitor-bytes SIZE
                      stop the MONITOR sample after SIZE of stream (default 256mb)
  --scan-keys N       keys in the keyspace sample (default 10k)
  --scan-time 10s     time the keyspace sample may take (default 10s)
  --keep-names        keep key and field names as written (numbers still become __key__)
  --raw FILE          also keep the MONITOR sample as MONITOR prints it, for rbench replay FILE (key
                      names and values verbatim: your choice, as it is your server; at most 100,000
                      lines and 64 MB, printable lines only)
  --allow-host HOST   hosts a Sentinel's primary may be on besides the target's; repeatable
  --verify            run the written scenario on a throwaway server and compare it with the capture and
                      with the source's counters (rate per command, distinct keys per key pattern)
  --out-runs DIR      with --verify: folder for its run file (default .rbench/runs)
  --yes               consent to the reads listed, where rbench asks (a profile from elsewhere)

Exit codes: 0 written, 1 --verify: the replay is more than 5% off the source's counters, 2 bad options,
3 connection or server error (nothing written), 4 the scenario could not be written, 130 cancelled (what was sampled is written, marked partial).`;

function fail(message: string): number {
  printErrorLine(`rbench capture: ${message}`);
  return ExitCode.ScenarioError;
}

export async function captureMain(argv: string[]): Promise<number> {
  const parsed = commandArgs(
    'capture',
    argv,
    {
      url: { type: 'string' },
      duration: { type: 'string' },
      out: { type: 'string' },
      'no-monitor': { type: 'boolean' },
      monitor: { type: 'boolean' },
      'monitor-rate-limit': { type: 'string' },
      'monitor-lines': { type: 'string' },
      'monitor-bytes': { type: 'string' },
      'scan-keys': { type: 'string' },
      'scan-time': { type: 'string' },
      'keep-names': { type: 'boolean' },
      raw: { type: 'string' },
      'allow-host': { type: 'string', multiple: true },
      verify: { type: 'boolean' },
      'out-runs': { type: 'string' },
      yes: { type: 'boolean', short: 'y' },
      quiet: { type: 'boolean', short: 'q' },
    },
    CAPTURE_USAGE,
    false,
  );
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  const url = values.url;
  if (!url) return fail('name the server to capture with --url redis://host:port');
  if (values.monitor && values['no-monitor']) return fail('--monitor and --no-monitor contradict each other: pick one');
  if (values.raw !== undefined && values['no-monitor']) return fail('--raw keeps the MONITOR sample: it cannot be combined with --no-monitor');
  const numbers: Record<string, number> = {};
  const read = (
    flag: string,
    parse: (text: string) => { ok: true; value: number } | { ok: false; message: string },
    fallback: number,
    min = 0,
  ): string | undefined => {
    const text = values[flag as keyof typeof values];
    if (typeof text !== 'string') {
      numbers[flag] = fallback;
      return undefined;
    }
    const result = parse(text);
    if (!result.ok) return `--${flag} ${text}: ${result.message}`;
    if (result.value < min) return `--${flag} ${text}: must be at least ${min}`;
    numbers[flag] = result.value;
    return undefined;
  };
  const problem =
    read('duration', parseDuration, 30_000, 1000) ??
    read('monitor-rate-limit', parseCount, DEFAULT_CAPTURE.monitorRateLimit) ??
    read('monitor-lines', parseCount, DEFAULT_CAPTURE.monitorLimits.maxLines, 1) ??
    read('monitor-bytes', parseSize, DEFAULT_CAPTURE.monitorLimits.maxBytes, 1024) ??
    read('scan-keys', parseCount, DEFAULT_CAPTURE.keyspaceLimits.maxKeys) ??
    read('scan-time', parseDuration, DEFAULT_CAPTURE.keyspaceLimits.maxMs);
  if (problem) return fail(problem);
  const output = consoleOutput({ quiet: Boolean(values.quiet), stdoutReserved: false });
  return whileInterruptible(output, 'Cancelling… what was sampled is written, marked partial (Ctrl-C again to quit)', (signal) =>
    captureCommand(
      {
        url,
        out: values.out ?? 'workload.rbench',
        monitor: values['no-monitor'] ? 'off' : values.monitor ? 'on' : 'auto',
        keepNames: Boolean(values['keep-names']),
        ...(values.raw !== undefined ? { raw: values.raw } : {}),
        allowHosts: values['allow-host'] ?? [],
        verify: Boolean(values.verify),
        runsFolder: values['out-runs'] ?? '.rbench/runs',
        runsFolderNamed: values['out-runs'] !== undefined,
        yes: Boolean(values.yes),
        numbers,
        signal,
      },
      output,
    ),
  );
}

interface CaptureCommandOptions {
  url: string;
  out: string;
  monitor: MonitorMode;
  keepNames: boolean;
  /** `--raw FILE`: where the MONITOR sample goes. */
  raw?: string;
  allowHosts: string[];
  verify: boolean;
  runsFolder: string;
  runsFolderNamed: boolean;
  yes: boolean;
  numbers: Record<string, number>;
  signal: AbortSignal;
}

/** `--raw FILE`: the MONITOR lines kept, through the file gate; none (MONITOR off or refused) is said, not written. */
function writeRawSample(path: string, raw: RawSample | undefined, output: Output): number {
  if (!raw) {
    output.error(`error: --raw: MONITOR did not run (see above), so ${path} was not written — rerun with --monitor, or on a server that allows MONITOR`);
    return ExitCode.ScenarioError;
  }
  try {
    writeFileSafely(path, raw.text(), { userNamed: true });
  } catch (error) {
    if (!(error instanceof FileGateError)) throw error;
    output.error(`error: could not write ${path}: ${error.message}`);
    return ExitCode.SaveError;
  }
  output.info(`Wrote ${path}: ${raw.count} MONITOR lines (rbench replay ${path})`);
  for (const note of raw.notes()) output.info(`! ${note}`);
  return ExitCode.Ok;
}

async function captureCommand(options: CaptureCommandOptions, output: Output): Promise<number> {
  const env = process.env;
  const target = captureTarget({
    target: options.url,
    supplier: 'user',
    via: 'you chose it (--url)',
    storedPassword: env.RBENCH_PASSWORD,
    secretEnv: 'RBENCH_PASSWORD',
    env,
    allowHosts: options.allowHosts,
  });
  if (typeof target === 'string') return fail(`--url: ${target}`);
  if (target.consent && !options.yes) {
    output.error(consentRefusal(target.consent));
    return ExitCode.ScenarioError;
  }
  const { numbers } = options;
  let capture;
  try {
    capture = await captureWorkload(target.connection, target.display, {
      durationMs: numbers.duration,
      monitor: options.monitor,
      monitorRateLimit: numbers['monitor-rate-limit'],
      keepNames: options.keepNames,
      monitorLimits: { maxLines: numbers['monitor-lines'], maxBytes: numbers['monitor-bytes'] },
      keyspaceLimits: { maxKeys: numbers['scan-keys'], maxMs: numbers['scan-time'] },
      signal: options.signal,
      onProgress: (_fraction, message) => output.progress(message),
      ...(options.raw !== undefined ? { raw: (own: ReadonlySet<string>) => new RawSample(own) } : {}),
    });
  } catch (error) {
    if (!(error instanceof CaptureError)) throw error;
    output.error(`error: ${error.message}`);
    return ExitCode.ConnectionError;
  }
  output.clearProgress();
  const workload = buildWorkload(capture);
  const text = scenarioText(capture, workload);
  try {
    const written = writeFileSafely(options.out, text, { userNamed: true });
    output.info(
      `Wrote ${options.out}${capture.partial ? ` (PARTIAL: ${capture.partial})` : ''}: ${workload.lines.length} command lines, ${workload.prefill.length} keyspace prefills`,
    );
    output.info(`  ${written}`);
  } catch (error) {
    if (!(error instanceof FileGateError)) throw error;
    output.error(`error: could not write ${options.out}: ${error.message}`);
    return ExitCode.SaveError;
  }
  for (const note of capture.notes) output.info(`! ${note}`);
  if (options.raw !== undefined) {
    const saved = writeRawSample(options.raw, capture.raw, output);
    if (saved !== ExitCode.Ok) return saved;
  }
  if (options.signal.aborted) return ExitCode.Cancelled;
  if (!options.verify) return ExitCode.Ok;
  output.info('Verifying: running the scenario on a throwaway server and capturing it…');
  const verified = await verifyCapture(
    { capture, workload },
    {
      text,
      display: options.out,
      runsFolder: options.runsFolder,
      runsFolderRoot: options.runsFolderNamed ? undefined : process.cwd(),
      env,
      log: (line) => output.info(line),
      signal: options.signal,
    },
  );
  if (!verified.fidelity) {
    output.error(`error: --verify: ${verified.error}`);
    return ExitCode.ConnectionError;
  }
  output.result(fidelityText(verified.fidelity));
  if (!verified.counters) return ExitCode.Ok;
  output.result(`\nAgainst the source's counters (outside MONITOR):\n${counterText(verified.counters)}`);
  const mismatches = counterMismatchText(verified.counters);
  for (const line of mismatches) output.error(`mismatch: ${line}`);
  return mismatches.length > 0 ? ExitCode.ThresholdFailed : ExitCode.Ok;
}
