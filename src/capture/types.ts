// What a capture collects (plain data, bounded) and the options that bound it.
import type { KeyspaceLimits, KeyspaceSample } from './keyspace';
import type { MonitorLimits, MonitorOutcome } from './monitorReader';
import type { TrafficTally } from './traffic';
import type { RawSample } from './rawSample';

export type MonitorMode = 'auto' | 'on' | 'off';

export interface CaptureOptions {
  /** How long to watch the traffic. */
  durationMs: number;
  /** `auto`: MONITOR unless the server runs more than `monitorRateLimit` commands a second; `off`: `--no-monitor`; `on`: `--monitor` (whatever the rate). */
  monitor: MonitorMode;
  monitorRateLimit: number;
  /** Key names kept as written (only numbers and hex identifiers become `__key__`). */
  keepNames: boolean;
  monitorLimits: Omit<MonitorLimits, 'maxMs'>;
  keyspaceLimits: KeyspaceLimits;
  signal?: AbortSignal;
  /** Progress for people: `fraction` of the window done, and what happens now. */
  onProgress?: (fraction: number, message: string) => void;
  /** `--raw`: keep the MONITOR sample as printed; called with the capture's own client addresses (left out). */
  raw?: (own: ReadonlySet<string>) => RawSample;
}

export const DEFAULT_CAPTURE: Omit<CaptureOptions, 'durationMs'> = {
  monitor: 'auto',
  monitorRateLimit: 50_000,
  keepNames: false,
  monitorLimits: { maxLines: 2_000_000, maxBytes: 256 * 1024 * 1024 },
  keyspaceLimits: { maxKeys: 10_000, maxMs: 10_000 },
};

export interface SourceFacts {
  display: string;
  version: string;
  mode: string;
  role: string;
  /** INFO's instantaneous_ops_per_sec when the capture began. */
  opsPerSec?: number;
  connectedClients?: number;
  db: number;
}

export interface CommandCounts {
  /** Calls per command in the window (`GET`, `CONFIG GET`), the capture's own taken out. */
  calls: Map<string, number>;
  windowMs: number;
}

export interface CaptureResult {
  source: SourceFacts;
  startedAt: string;
  /** The window watched, ms. */
  windowMs: number;
  counters?: CommandCounts;
  /**
   * The counters over a short stretch before MONITOR started (UNPERTURBED_MS): the server's rate untouched by
   * MONITOR's cost (which halved a busy server's), the rate the file replays. Absent without MONITOR or INFO.
   */
  unperturbed?: CommandCounts;
  traffic?: TrafficTally;
  /** `--raw`: the MONITOR lines kept (absent when MONITOR did not run). */
  raw?: RawSample;
  monitor?: MonitorOutcome;
  keyspace?: KeyspaceSample;
  keepNames: boolean;
  /** What was not sampled, and why (ACL refusals, MONITOR off past the rate limit…). */
  notes: string[];
  /** Why the capture is partial (the server went away, cancelled); absent when complete. */
  partial?: string;
}
