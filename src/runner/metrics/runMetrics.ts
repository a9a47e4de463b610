// What `--metrics` serves while runs go on: counters, latency histograms and gauges built from the runner's
// progress events (the same events the CLI's progress line and the editor's panel read), so that Prometheus
// sees what the run file will say. Requests and errors are the run file's own counts once a load ends
// (live counts before); the latency histogram adds up every timeline bucket's replies; the server's
// counters are its last INFO sample. Bounded: past MAX_SERIES test series new ones are dropped and counted.
import { LatencyRecorder } from '../../engine';
import type { LoadResult, LoadTick } from '../../engine';
import type { ServerSample } from '../../redis/types';
import type { LoadPosition, RunProgress } from '../runScenario';
import type { Family, Labels, Sample } from './openMetrics';
import { lookupsOf } from '../../results/missRate';

/** Bucket upper bounds of the latency histogram, in µs (50 µs … 10 s), then +Inf. */
const BUCKETS_US = [50, 100, 250, 500, 1000, 2500, 5000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000];
const BUCKET_LABELS = [...BUCKETS_US.map((us) => String(us / 1e6)), '+Inf'];

const HIT_MISS_HELP = {
  hits: 'Replies of a read that found something (an MGET: keys found), per command of a test, counted when the test ends.',
  misses: 'Replies of a read that found nothing: nil or an empty collection (an MGET: keys not found), per command of a test.',
};

/** Test series kept (scenario × point × phase × test); commands are capped by the same count. */
export const MAX_SERIES = 5000;

interface CommandCounts {
  requests: number;
  errors: number;
  /** A read's (results/hitsMisses.ts): replies (an MGET's keys) that found something, and that found nothing. */
  hits?: number;
  misses?: number;
}

interface TestSeries {
  labels: Labels;
  /** Counts of finished loads, and of the load under way. */
  requests: number;
  errors: number;
  liveRequests: number;
  liveErrors: number;
  /** Cumulative per bucket (not yet summed across buckets), the reply count, and the sum in µs. */
  buckets: Float64Array;
  count: number;
  sumUs: number;
  opsPerSecond?: number;
  lateShare?: number;
  commands: Map<string, CommandCounts>;
}

export interface RunMetricsOptions {
  /** Labels on every series: `shard` for a part of a sharded run. */
  constant?: Labels;
  /** The rbench process's CPU time (user, system) in µs: process.cpuUsage() unless a test says otherwise. */
  cpuUsage?: () => { user: number; system: number };
}

export class RunMetrics {
  private readonly tests = new Map<string, TestSeries>();
  private readonly servers = new Map<string, { labels: Labels; sample: ServerSample }>();
  private readonly scenarios = new Map<string, Labels>();
  private readonly scratch = new LatencyRecorder();
  private commandSeries = 0;
  private dropped = 0;
  private readonly constant: Labels;
  private readonly cpuUsage: () => { user: number; system: number };

  constructor(options: RunMetricsOptions = {}) {
    this.constant = { ...options.constant };
    this.cpuUsage = options.cpuUsage ?? (() => process.cpuUsage());
  }

  /** A scenario starts on a target: its info series. */
  scenarioStarted(scenario: string, target: string): void {
    if (this.scenarios.size < MAX_SERIES) this.scenarios.set(scenario, { ...this.constant, scenario, target });
  }

  observe(scenario: string, event: RunProgress): void {
    switch (event.kind) {
      case 'load-start':
        this.series(scenario, event.at);
        return;
      case 'tick':
        this.tick(this.series(scenario, event.at), event.tick);
        return;
      case 'load-end':
        this.loadEnded(this.series(scenario, event.at), event.result);
        return;
      case 'server-sample':
        this.servers.set(scenario, { labels: { ...this.constant, scenario }, sample: event.sample });
        return;
    }
  }

  private series(scenario: string, at: LoadPosition): TestSeries | undefined {
    const key = [scenario, at.point, at.phase, at.test].join('\u0000');
    let series = this.tests.get(key);
    if (series) return series;
    if (this.tests.size >= MAX_SERIES) {
      this.dropped++;
      return undefined;
    }
    series = {
      labels: { ...this.constant, scenario, point: at.point, phase: at.phase, test: at.test },
      requests: 0,
      errors: 0,
      liveRequests: 0,
      liveErrors: 0,
      buckets: new Float64Array(BUCKET_LABELS.length),
      count: 0,
      sumUs: 0,
      commands: new Map(),
    };
    this.tests.set(key, series);
    return series;
  }

  private tick(series: TestSeries | undefined, tick: LoadTick): void {
    if (!series) return;
    series.liveRequests = tick.requests;
    series.liveErrors = tick.errors;
    if (tick.lastSecond) series.opsPerSecond = tick.lastSecond.ops;
    if (!tick.lastSecondLatency || tick.lastSecondLatency.indexes.length === 0) return;
    // One recorder, reset for each tick: it is a 150 KB array.
    const recorder = this.scratch;
    recorder.reset();
    recorder.addSparse(tick.lastSecondLatency);
    recorder.forEachSlot((us, count) => {
      let bucket = BUCKETS_US.findIndex((bound) => us <= bound);
      if (bucket < 0) bucket = BUCKETS_US.length;
      series.buckets[bucket] += count;
      series.count += count;
      series.sumUs += us * count;
    });
  }

  private loadEnded(series: TestSeries | undefined, result: LoadResult): void {
    if (!series) return;
    series.requests += result.total.requests;
    series.errors += result.total.errors;
    series.liveRequests = 0;
    series.liveErrors = 0;
    // A finished test has no current rate: its gauge goes (Prometheus marks it stale).
    series.opsPerSecond = undefined;
    if (result.health.lateShare !== undefined) series.lateShare = result.health.lateShare;
    for (const command of result.commands) {
      let counts = series.commands.get(command.command);
      if (!counts) {
        if (this.commandSeries >= MAX_SERIES) {
          this.dropped++;
          continue;
        }
        this.commandSeries++;
        series.commands.set(command.command, (counts = { requests: 0, errors: 0 }));
      }
      counts.requests += command.requests;
      counts.errors += command.errors;
      if (command.misses !== undefined) {
        counts.misses = (counts.misses ?? 0) + command.misses;
        counts.hits = (counts.hits ?? 0) + Math.max(0, lookupsOf(command) - command.misses);
      }
    }
  }

  families(): Family[] {
    const tests = [...this.tests.values()];
    const perTest = (pick: (series: TestSeries) => number | undefined, suffix = ''): Sample[] =>
      tests.flatMap((series) => {
        const value = pick(series);
        return value === undefined ? [] : [{ suffix, labels: series.labels, value }];
      });
    const perCommand = (pick: (counts: CommandCounts) => number | undefined): Sample[] =>
      tests.flatMap((series) =>
        [...series.commands].flatMap(([command, counts]) => {
          const value = pick(counts);
          return value === undefined ? [] : [{ suffix: '_total', labels: { ...series.labels, command }, value }];
        }),
      );
    const servers = [...this.servers.values()];
    const perServer = (pick: (sample: ServerSample) => number | undefined, suffix = ''): Sample[] =>
      servers.flatMap(({ labels, sample }) => {
        const value = pick(sample);
        return value === undefined ? [] : [{ suffix, labels, value }];
      });
    const cpu = this.cpuUsage();
    return [
      {
        name: 'rbench_scenario',
        type: 'info',
        help: 'A scenario run by this rbench process, and its target (no password).',
        samples: [...this.scenarios.values()].map((labels) => ({ suffix: '_info', labels, value: 1 })),
      },
      {
        name: 'rbench_test_requests',
        type: 'counter',
        help: "Replies measured per test (the run file's count once the test ends).",
        samples: perTest((s) => s.requests + s.liveRequests, '_total'),
      },
      { name: 'rbench_test_errors', type: 'counter', help: 'Error replies and timeouts per test.', samples: perTest((s) => s.errors + s.liveErrors, '_total') },
      {
        name: 'rbench_command_requests',
        type: 'counter',
        help: 'Replies per command of a test, counted when the test ends.',
        samples: perCommand((c) => c.requests),
      },
      {
        name: 'rbench_command_errors',
        type: 'counter',
        help: 'Error replies per command of a test, counted when the test ends.',
        samples: perCommand((c) => c.errors),
      },
      ...(['hits', 'misses'] as const).map((which): Family => ({
        name: `rbench_command_${which}`,
        type: 'counter',
        help: HIT_MISS_HELP[which],
        samples: perCommand((c) => c[which]),
      })),
      {
        name: 'rbench_latency_seconds',
        type: 'histogram',
        unit: 'seconds',
        help: 'Latency of the replies in the timeline of each test (HDR-recorded).',
        samples: tests.flatMap((s) => this.histogramSamples(s)),
      },
      {
        name: 'rbench_ops_per_second',
        type: 'gauge',
        help: 'Replies per second in the last second of the test under way.',
        samples: perTest((s) => s.opsPerSecond),
      },
      {
        name: 'rbench_late_send_ratio',
        type: 'gauge',
        help: 'Open loop: share of scheduled sends that went out late, per finished test.',
        samples: perTest((s) => s.lateShare),
      },
      {
        name: 'rbench_client_cpu_seconds',
        type: 'counter',
        unit: 'seconds',
        help: 'CPU time of the rbench process (the load generator and its worker threads).',
        samples: [
          { suffix: '_total', labels: { ...this.constant, mode: 'user' }, value: cpu.user / 1e6 },
          { suffix: '_total', labels: { ...this.constant, mode: 'system' }, value: cpu.system / 1e6 },
        ],
      },
      {
        name: 'rbench_server_used_memory_bytes',
        type: 'gauge',
        unit: 'bytes',
        help: 'INFO used_memory of the target.',
        samples: perServer((s) => s.usedMemory),
      },
      { name: 'rbench_server_connected_clients', type: 'gauge', help: 'INFO connected_clients of the target.', samples: perServer((s) => s.connectedClients) },
      { name: 'rbench_server_keys', type: 'gauge', help: "Keys in the target's databases (INFO keyspace).", samples: perServer((s) => s.keys) },
      {
        name: 'rbench_server_commands_processed',
        type: 'counter',
        help: 'INFO total_commands_processed of the target.',
        samples: perServer((s) => s.totalCommandsProcessed, '_total'),
      },
      { name: 'rbench_server_evicted_keys', type: 'counter', help: 'INFO evicted_keys of the target.', samples: perServer((s) => s.evictedKeys, '_total') },
      { name: 'rbench_server_expired_keys', type: 'counter', help: 'INFO expired_keys of the target.', samples: perServer((s) => s.expiredKeys, '_total') },
      {
        name: 'rbench_server_forks',
        type: 'counter',
        help: 'INFO total_forks of the target (snapshots, AOF rewrites).',
        samples: perServer((s) => s.totalForks, '_total'),
      },
      {
        name: 'rbench_server_cpu_seconds',
        type: 'counter',
        unit: 'seconds',
        help: 'INFO used_cpu_user / used_cpu_sys of the target.',
        samples: [
          ...perServer((s) => s.cpuUser, '_total').map((x) => ({ ...x, labels: { ...x.labels, mode: 'user' } })),
          ...perServer((s) => s.cpuSys, '_total').map((x) => ({ ...x, labels: { ...x.labels, mode: 'system' } })),
        ],
      },
      {
        name: 'rbench_server_persistence_in_progress',
        type: 'gauge',
        help: 'A background save or AOF rewrite is under way (1) or not (0).',
        samples: perServer((s) => (s.rdbBgsaveInProgress || s.aofRewriteInProgress ? 1 : 0)),
      },
      {
        name: 'rbench_metrics_series_dropped',
        type: 'counter',
        help: `Series not kept: more than ${MAX_SERIES} tests or commands.`,
        samples: [{ suffix: '_total', labels: { ...this.constant }, value: this.dropped }],
      },
    ];
  }

  private histogramSamples(series: TestSeries): Sample[] {
    let cumulative = 0;
    const buckets = BUCKET_LABELS.map((le, index) => {
      cumulative += series.buckets[index];
      return { suffix: '_bucket', labels: { ...series.labels, le }, value: cumulative };
    });
    return [...buckets, { suffix: '_count', labels: series.labels, value: series.count }, { suffix: '_sum', labels: series.labels, value: series.sumUs / 1e6 }];
  }
}
