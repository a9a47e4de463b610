// A phase at one sweep point → its plan: the load (clients, threads, pipeline, requests or duration, rate),
// the keys, the values, from the swept value, the phase's settings or the defaults.
import { rangeOf, type DiagnosticSink } from './diagnostics';
import type { KeyPlan, LoadPlan, PhasePlan, TestPlan, ValueFill, ValuePlan } from './plan';
import type { PhaseSection } from './scopeLines';
import { DEFAULT_GAUSSIAN_STDDEV, DEFAULT_REQUESTS, DEFAULT_ZIPF_EXPONENT, MAX_SWEEP_POINTS } from './settings';
import type { Layer } from './settingLayer';
import { keyDigits } from './units';
import type { SweepAxis } from './sweep';
import { groupDigits } from './numberText';
import { checkReplyForms } from './replyFormChecks';
import { connectOnlyLoad } from './connectOnly';

export type Point = { axis: SweepAxis; value: SweepAxis['values'][number] }[];

/** The cross product of the sweeps, the first varying slowest; one empty point without sweeps. */
export function sweepPoints(sweeps: SweepAxis[], sink: DiagnosticSink): Point[] {
  const total = sweeps.reduce((product, sweep) => product * sweep.values.length, 1);
  if (total > MAX_SWEEP_POINTS) {
    sink.error(
      sweeps[0].range,
      'too-many-points',
      `these sweeps make ${groupDigits(total)} points, more than ${groupDigits(MAX_SWEEP_POINTS)} — sweep fewer values`,
    );
    return [[]];
  }
  let points: Point[] = [[]];
  for (const axis of sweeps) points = points.flatMap((point) => axis.values.map((value) => [...point, { axis, value }]));
  return points;
}

const NOT_SWEPT: ReadonlyMap<string, SweepAxis['values'][number]> = new Map();

export function phasePlan(phase: PhaseSection, layer: Layer, point: Point, tests: TestPlan[], sink: DiagnosticSink): PhasePlan {
  const swept = point.length === 0 ? NOT_SWEPT : new Map(point.map(({ axis, value }) => [axis.name, value]));
  const number = <K extends 'clients' | 'pipeline' | 'key-size'>(name: K, fallback: number): number =>
    swept.get(name)?.value ?? layer.get(name)?.value ?? fallback;

  const load: LoadPlan = {
    clients: number('clients', 50),
    threads: swept.get('threads')?.value ?? layer.get('threads')?.value ?? 'auto',
    pipeline: number('pipeline', 1),
    warmupMs: layer.get('warmup')?.value ?? 0,
  };
  const duration = layer.get('duration');
  const sweptRequests = swept.get('requests');
  if (duration && !sweptRequests) load.durationMs = duration.value;
  else load.requests = sweptRequests?.value ?? layer.get('requests')?.value ?? DEFAULT_REQUESTS;
  const rate = swept.get('rate') ?? layer.get('rate');
  if (rate) load.rate = rate.value;
  const stallTimeout = layer.get('stall-timeout');
  if (stallTimeout) load.stallTimeoutMs = stallTimeout.value;
  const reconnect = layer.get('reconnect');
  if (reconnect && reconnect.value > 0) load.reconnectEvery = reconnect.value;
  const idle = layer.get('idle-connections')?.value;
  if (idle) load.idleConnections = idle;
  const ramp = layer.get('ramp');
  if (ramp) {
    // The staircase sets the clients and the duration: its last step's, and its steps' length.
    const steps = Math.ceil((ramp.value.to - ramp.value.from) / ramp.value.step) + 1;
    load.ramp = { ...ramp.value };
    load.clients = ramp.value.to;
    load.durationMs = steps * ramp.value.everyMs;
    delete load.requests;
    if (load.rate !== undefined) sink.error(ramp.range, 'ramp-with-rate', 'a ramp runs in the closed loop — remove `rate`, or the `ramp` line');
  }

  connectOnlyLoad(layer, load, sink);

  const client = layer.get('client');
  const cluster = layer.get('cluster');
  checkReplyForms(
    tests,
    load,
    {
      pipeline: swept.get('pipeline')?.range ?? layer.get('pipeline')?.range,
      client: client && { value: client.value, range: client.range },
      cluster: cluster && { value: cluster.value, range: cluster.range },
      rate: rate?.range,
      reconnect: reconnect?.range,
    },
    sink,
    rangeOf(0, 0, 0),
  );

  const keysEntry = layer.get('keys');
  const keysValue = keysEntry?.value;
  const distribution = keysValue?.distribution ?? 'uniform';
  const keys: KeyPlan = {
    space: swept.get('keys')?.value ?? keysValue?.space ?? 1,
    distribution,
    zipfExponent: distribution === 'zipf' ? (keysValue?.parameter ?? DEFAULT_ZIPF_EXPONENT) : DEFAULT_ZIPF_EXPONENT,
    gaussianStddev: distribution === 'gaussian' ? (keysValue?.parameter ?? DEFAULT_GAUSSIAN_STDDEV) : DEFAULT_GAUSSIAN_STDDEV,
    size: number('key-size', 12),
  };
  const seed = layer.get('seed');
  if (seed) keys.seed = seed.value;
  if (keyDigits(keys.space) > keys.size) {
    const at = swept.get('key-size')?.range ?? layer.get('key-size')?.range ?? swept.get('keys')?.range ?? keysEntry?.range ?? rangeOf(0, 0, 0);
    const digits = keyDigits(keys.space);
    sink.error(
      at,
      'key-size-too-small',
      `\`key-size ${keys.size}\` is too small for \`keys ${keys.space}\`: key numbers go up to ${keys.space - 1} (${digits} digits) — use \`key-size ${digits}\` or more`,
    );
  }

  const sweptValue = swept.get('value');
  const written = layer.get('value')?.value;
  const values = layer.get('values')?.value;
  const fields = layer.get('fields')?.value;
  const ttl = layer.get('ttl')?.value;
  // Values from a file have the file's sizes (what the memory estimate and the results show): a `value` beside
  // it would be silently unused, so it is named.
  // Only a `value` as close as the `values from` or closer: one of the file's may serve the scenarios without it.
  const writtenDepth = layer.depthOf('value');
  const unused = values
    ? (point.find(({ axis }) => axis.name === 'value')?.axis.range ??
      (writtenDepth !== undefined && writtenDepth <= layer.depthOf('values')! ? layer.get('value')?.range : undefined))
    : undefined;
  if (unused)
    sink.warning(
      unused,
      'value-with-values-from',
      `\`value\` has no effect here: \`values from ${values!.file}\` sends the file's values, at their own sizes (${values!.minLength === values!.maxLength ? `${values!.maxLength} bytes` : `${values!.minLength}–${values!.maxLength} bytes`}) — remove this \`value\`, or the \`values from\` line`,
    );
  const value: ValuePlan = values
    ? values.minLength === values.maxLength
      ? { kind: 'fixed', size: values.maxLength }
      : { kind: 'range', min: values.minLength, max: values.maxLength }
    : sweptValue
      ? { kind: 'fixed', size: sweptValue.value }
      : written
        ? copyValuePlan(written)
        : { kind: 'fixed', size: 3 };
  const fill = layer.get('value-fill')?.value;
  const valueFill: ValueFill | undefined =
    fill === undefined
      ? undefined
      : fill === 'random'
        ? { kind: 'random' }
        : fill === 'redis-benchmark'
          ? { kind: 'redis-benchmark' }
          : { kind: 'literal', text: fill };
  return {
    name: phase.name,
    measured: phase.measured,
    load,
    keys,
    value,
    ...(valueFill ? { valueFill } : {}),
    ...(values ? { values: { ...values } } : {}),
    ...(fields ? { fields: { ...fields } } : {}),
    ...(ttl ? { ttl: { ...ttl } } : {}),
    tests,
  };
}

/** A value plan of the phase's own: `value` lines are read once per file for each text. */
function copyValuePlan(value: ValuePlan): ValuePlan {
  return value.kind === 'weighted' ? { kind: 'weighted', choices: value.choices.map((choice) => ({ ...choice })) } : { ...value };
}
