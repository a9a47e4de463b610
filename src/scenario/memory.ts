// How much memory a plan asks for, before it runs: on the server, the data its largest test writes
// (keys × value size, plus Redis's own cost per key); on the client, the payloads in flight (clients ×
// pipeline × value size). Past a limit the checker reports an error at the scenario's `value` (or
// `keys`) line, so `rbench check`, the editor and a run all refuse `value 256MB` × 40 keys alike.
import { isWriteCommand } from './commands';
import type { DiagnosticSink } from './diagnostics';
import type { DocLine } from './syntax';
import type { ArgTemplate, ClientGroupPlan, DataSourcePlan, PhasePlan, Range, ScenarioPlan, TestPlan, ValuePlan } from './plan';
import { formatBytes, groupDigits } from './numberText';

export interface MemoryLimits {
  /** Bytes the plan may store on the server. */
  server: number;
  /** Bytes of payloads the client may hold in flight. */
  client: number;
  /** Set when the user chose the limits (the message then names the setting that did). */
  raised?: boolean;
}

const GiB = 1024 ** 3;

/** The defaults, raised by `rbench run --max-memory SIZE` or the user setting `rbench.maxMemory`. */
export const MEMORY_LIMITS: MemoryLimits = { server: 4 * GiB, client: 1 * GiB };

/** Redis's own bytes per key beyond the value (dict entry, key object and string headers), rounded up. */
export const PER_KEY_OVERHEAD = 96;

/** Commands that only set an expiry (`ttl` adds them): they store nothing. */
const EXPIRING = new Set(['EXPIRE', 'PEXPIRE']);

/** Commands that add to one key on every request (a list, set, stream or string grows). */
const APPENDING = new Set(['LPUSH', 'RPUSH', 'LPUSHX', 'RPUSHX', 'SADD', 'XADD', 'APPEND']);

export interface MemoryEstimate {
  bytes: number;
  /** What the estimate is made of, for the message: `40 keys × 256 MiB`. */
  detail: string;
  /** The test it comes from, and the sweep point (empty without sweeps). */
  test: string;
  point: string;
}

export { formatBytes } from './numberText';

/** The largest value the plan may send. */
export function largestValue(value: ValuePlan): number {
  if (value.kind === 'fixed') return value.size;
  if (value.kind === 'range') return value.max;
  return value.choices.reduce((largest, choice) => Math.max(largest, choice.size), 0);
}

function countPlaceholders(args: readonly ArgTemplate[], names: readonly string[]): number {
  let count = 0;
  for (const arg of args) for (const part of arg) if (typeof part !== 'string' && names.includes(part.placeholder)) count++;
  return count;
}

/**
 * The entries a command's arguments can name: the phase's key space when they use it, times the numbers of each
 * whole-number draw (`ZADD lb:__rand(1..1000)__ 1 m:__rand(1..10M)__` can fill 1,000 × 10M members). Decimals are
 * scores, not entries.
 */
function entrySpace(args: readonly ArgTemplate[], keySpace: number): number {
  let space = countPlaceholders(args, ['key', 'rand_int']) > 0 ? keySpace : 1;
  for (const arg of args) {
    for (const part of arg) {
      if (typeof part === 'string' || !part.draw || part.draw.decimals > 0 || part.side === 'max') continue;
      space *= part.draw.max - part.draw.min + 1 - (part.draw.width ?? 0);
    }
  }
  return Math.min(space, Number.MAX_SAFE_INTEGER);
}

/** The bytes a stored entry of a data file takes on average (each key gets one entry: the mean is what is stored). */
function meanEntry(source: DataSourcePlan | undefined): number {
  return source ? source.bytes / source.count : 0;
}

/** Bytes one test leaves on the server: each write command's entries × (values per entry + overhead). */
function testServerBytes(test: TestPlan, phase: PhasePlan, valueSize: number): { bytes: number; entries: number } {
  let bytes = 0;
  let entries = 0;
  for (const { command } of test.commands) {
    if (!isWriteCommand(command.name) || EXPIRING.has(command.name)) continue;
    const values = countPlaceholders(command.args, ['value']);
    const rows = countPlaceholders(command.args, ['fields']);
    const keyed = countPlaceholders(command.args, ['key', 'rand_int', 'draw']);
    const requests = phase.load.requests;
    const space = entrySpace(command.args, phase.keys.space);
    let written: number;
    if (keyed > 0) written = requests === undefined ? space : Math.min(space, requests * keyed);
    // One key, grown on every request (when the request count is known); or overwritten.
    else written = APPENDING.has(command.name) && requests !== undefined ? requests : 1;
    const perEntry =
      (values > 0 ? (values / Math.max(keyed, 1)) * (phase.values ? meanEntry(phase.values) : valueSize) : 0) +
      (rows > 0 ? (rows / Math.max(keyed, 1)) * meanEntry(phase.fields) : 0);
    bytes += written * (perEntry + PER_KEY_OVERHEAD);
    entries += written;
  }
  return { bytes, entries };
}

/** Bytes of payloads one test keeps in flight: every client's pipeline of requests (or their replies). */
function testClientBytes(test: TestPlan, phase: PhasePlan, valueSize: number, scenarioWritesValues: boolean): number {
  let perRequest = 0;
  let rowBytes = 0;
  for (const { command } of test.commands) {
    const values = countPlaceholders(command.args, ['value']);
    // A read may answer with a value the scenario wrote.
    perRequest = Math.max(perRequest, values > 0 ? values : scenarioWritesValues && !isWriteCommand(command.name) ? 1 : 0);
    rowBytes = Math.max(rowBytes, countPlaceholders(command.args, ['fields']) * (phase.fields?.maxLength ?? 0));
  }
  return phase.load.clients * phase.load.pipeline * (perRequest * valueSize + rowBytes) + dataTableBytes(phase);
}

/** Worker threads a load runs on: as written, else the engine's `auto` rule at its largest (src/engine/threads.ts). */
function threadsAtMost(phase: PhasePlan): number {
  const { threads, clients } = phase.load;
  return threads === 'auto' ? Math.max(1, Math.min(4, Math.floor(clients / 16))) : Math.max(1, Math.min(threads, clients));
}

/** The data files' tables rbench holds: the entries and their offsets, once in the main thread and once in each worker thread. */
function dataTableBytes(phase: PhasePlan): number {
  return tableBytes(phase) * (1 + threadsAtMost(phase));
}

function tableBytes(phase: PhasePlan): number {
  let bytes = 0;
  for (const source of [phase.values, phase.fields])
    if (source) bytes += source.bytes + 4 * (source.count + 1) + (source.take === 'fields' ? 16 * source.count * (source.names?.length ?? 1) : 0);
  return bytes;
}

function writesValues(plan: ScenarioPlan): boolean {
  return plan.points.some((point) =>
    point.phases.some((phase) =>
      phase.tests.some((test) => test.commands.some(({ command }) => isWriteCommand(command.name) && countPlaceholders(command.args, ['value', 'fields']) > 0)),
    ),
  );
}

/** The largest server and client estimates over the plan's points, phases and tests. */
export function estimateMemory(plan: ScenarioPlan): { server: MemoryEstimate; client: MemoryEstimate } {
  const server: MemoryEstimate = { bytes: 0, detail: '', test: '', point: '' };
  const client: MemoryEstimate = { bytes: 0, detail: '', test: '', point: '' };
  const valuesWritten = writesValues(plan);
  for (const point of plan.points) {
    for (const phase of point.phases) {
      if (phase.groups) {
        groupsEstimate(phase.groups, point.label, valuesWritten, server, client);
        continue;
      }
      const valueSize = largestValue(phase.value);
      for (const test of phase.tests) {
        const stored = testServerBytes(test, phase, valueSize);
        if (stored.bytes > server.bytes) {
          Object.assign(server, {
            bytes: stored.bytes,
            detail: `${groupDigits(stored.entries)} keys × ${formatBytes(valueSize)} values`,
            test: test.name,
            point: point.label,
          });
        }
        const inFlight = testClientBytes(test, phase, valueSize, valuesWritten);
        if (inFlight > client.bytes) {
          const tables = dataTableBytes(phase);
          Object.assign(client, {
            bytes: inFlight,
            detail: `${phase.load.clients} clients × pipeline ${phase.load.pipeline} × ${formatBytes(valueSize)}${tables > 0 ? ` + ${formatBytes(tables)} of data-file values` : ''}`,
            test: test.name,
            point: point.label,
          });
        }
      }
    }
  }
  return { server, client };
}

/**
 * Client groups run at once: what they store and keep in flight adds up. The message names the group that
 * weighs most, and the sum.
 */
function groupsEstimate(groups: readonly ClientGroupPlan[], point: string, valuesWritten: boolean, server: MemoryEstimate, client: MemoryEstimate): void {
  const each = groups.map((group) => {
    const valueSize = largestValue(group.phase.value);
    const test = group.phase.tests[0];
    return { group, stored: testServerBytes(test, group.phase, valueSize).bytes, inFlight: testClientBytes(test, group.phase, valueSize, valuesWritten) };
  });
  const heaviest = (key: 'stored' | 'inFlight') => each.reduce((most, one) => (one[key] > most[key] ? one : most));
  const detail = (key: 'stored' | 'inFlight') =>
    `${groups.length} client groups at once: ${each.map((one) => `${one.group.name} ${formatBytes(one[key])}`).join(' + ')}`;
  const stored = each.reduce((sum, one) => sum + one.stored, 0);
  if (stored > server.bytes) Object.assign(server, { bytes: stored, detail: detail('stored'), test: `group ${heaviest('stored').group.name}`, point });
  const inFlight = each.reduce((sum, one) => sum + one.inFlight, 0);
  if (inFlight > client.bytes) Object.assign(client, { bytes: inFlight, detail: detail('inFlight'), test: `group ${heaviest('inFlight').group.name}`, point });
}

/** A limit to suggest: the estimate rounded up to whole GiB. */
function suggestedLimit(bytes: number): string {
  return `${Math.ceil(bytes / GiB)}gb`;
}

/** The refusals of a plan's estimates past `limits`, as messages (empty when it fits). */
export function memoryRefusals(plan: ScenarioPlan, limits: MemoryLimits = MEMORY_LIMITS): string[] {
  const { server, client } = estimateMemory(plan);
  const messages: string[] = [];
  const raise = (bytes: number) => `raise the limit with \`rbench run --max-memory ${suggestedLimit(bytes)}\` or the user setting \`rbench.maxMemory\``;
  const where = (estimate: MemoryEstimate) =>
    `${estimate.test.startsWith('group ') ? '' : 'test '}${estimate.test}${estimate.point ? ` at ${estimate.point}` : ''}`;
  if (server.bytes > limits.server) {
    messages.push(
      `this scenario stores about ${formatBytes(server.bytes)} on the server (${server.detail}, ${where(server)}), more than the ${formatBytes(limits.server)} limit${limits.raised ? ' you set' : ''} — use smaller values or fewer keys, or ${raise(server.bytes)}`,
    );
  }
  if (client.bytes > limits.client) {
    messages.push(
      `this scenario keeps about ${formatBytes(client.bytes)} of payloads in flight in rbench (${client.detail}, ${where(client)}), more than the ${formatBytes(limits.client)} limit${limits.raised ? ' you set' : ''} — use smaller values, fewer clients or a shorter pipeline, or ${raise(client.bytes)}`,
    );
  }
  return messages;
}

/** The line a memory problem is reported at: the scenario's `value` line, else its `keys` line (its own, then the file's), else its header. */
function memoryLine(scenarioLines: readonly DocLine[], fileLines: readonly DocLine[], header: Range): Range {
  for (const name of ['value', 'keys']) {
    for (const lines of [scenarioLines, fileLines]) {
      for (let index = lines.length - 1; index >= 0; index--) {
        const line = lines[index];
        if (line.kind === 'setting' && line.setting.name === name) return line.range;
      }
    }
  }
  return header;
}

/** Reports the plan's memory refusals as errors at its `value`/`keys` line. */
export function reportMemory(
  plan: ScenarioPlan,
  scenarioLines: readonly DocLine[],
  fileLines: readonly DocLine[],
  limits: MemoryLimits | undefined,
  sink: DiagnosticSink,
): void {
  const messages = memoryRefusals(plan, limits);
  if (messages.length === 0) return;
  const range = memoryLine(scenarioLines, fileLines, plan.headerRange);
  for (const message of messages) sink.error(range, 'memory-budget', message);
}
