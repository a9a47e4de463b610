// Builds the plans the engine consumes, by hand (the scenario language is not needed to test the engine).
import type { ArgTemplate, CommandTemplate, KeyPlan, LoadPlan, PhasePlan, TestPlan, ValuePlan } from '../../../src/scenario/plan';
import type { ConnectionOptions } from '../../../src/redis/types';
import type { LoadRequest } from '../../../src/engine/types';
import type { ClientPath } from '../../../src/scenario/plan';

/** `key:__key__` → [['key:', {placeholder:'key'}]]: literal text and placeholders, as the resolver produces. */
export function arg(text: string): ArgTemplate {
  const parts: ArgTemplate = [];
  const re = /__(key|rand_int|value|client)__/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    parts.push({ placeholder: m[1] as 'key' | 'rand_int' | 'value' | 'client' });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** `command('SET key:__key__ __value__')` */
export function command(line: string, extra: Partial<CommandTemplate> = {}): CommandTemplate {
  const [name, ...args] = line.split(' ');
  return { name: name.toUpperCase(), label: extra.label ?? name.toUpperCase(), args: args.map(arg), ...extra };
}

export function singleTest(line: string, extra: Partial<CommandTemplate> = {}): TestPlan {
  const template = command(line, extra);
  return { name: template.label, commands: [{ weight: 1, command: template }] };
}

export function mixTest(entries: [number, string][]): TestPlan {
  return { name: 'mix', commands: entries.map(([weight, line]) => ({ weight, command: command(line) })) };
}

/** A command group (`group … end`) of these lines; a transaction when one is MULTI. */
export function groupTest(name: string, lines: string[]): TestPlan {
  return {
    name,
    commands: lines.map((line) => ({ weight: 1, command: command(line) })),
    group: { transaction: lines.some((line) => line.startsWith('MULTI')) },
  };
}

export interface PhaseOptions {
  load?: Partial<LoadPlan>;
  keys?: Partial<KeyPlan>;
  value?: ValuePlan;
  test: TestPlan;
}

export function phase(options: PhaseOptions): PhasePlan {
  const load: LoadPlan = { clients: 4, threads: 1, pipeline: 1, warmupMs: 0, ...options.load };
  if (load.requests === undefined && load.durationMs === undefined) load.requests = 1000;
  return {
    name: 'main',
    measured: true,
    load,
    keys: { space: 1000, distribution: 'uniform', zipfExponent: 0.99, gaussianStddev: 1 / 6, size: 12, seed: 42, ...options.keys },
    value: options.value ?? { kind: 'fixed', size: 3 },
    tests: [options.test],
  };
}

export function connectionTo(server: { host: string; port: number }, extra: Partial<ConnectionOptions> = {}): ConnectionOptions {
  return { host: server.host, port: server.port, resp: 2, connectTimeoutMs: 2000, ...extra };
}

export function loadRequest(
  server: { host: string; port: number },
  options: PhaseOptions & { client?: ClientPath; connection?: Partial<ConnectionOptions>; seed?: number },
): LoadRequest {
  const phasePlan = phase(options);
  return {
    phase: phasePlan,
    test: phasePlan.tests[0],
    connection: connectionTo(server, options.connection),
    client: options.client ?? 'fast',
    seed: options.seed,
  };
}
