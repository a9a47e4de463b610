// Property-based: every parser of untrusted data (INFO text and its fields, run files and any JSON, baselines,
// connection profiles, the engine's error counters, CLUSTER SHARDS/SLOTS) fed names a stranger chose —
// every Object.prototype member, __proto__, constructor, prototype, in other cases and with spaces — leaves
// the shared prototypes unchanged, and lookups of those names give undefined or the data, never an
// inherited function.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { topologyFromShards, topologyFromSlots } from '../../../src/redis/clusterTopology';
import { resolveConnection } from '../../../src/redis/target';
import { checkText } from '../../../src/scenario';
import { commandResult } from '../../../src/engine/resultAssembly';
import { errorKind } from '../../../src/protocol/respScanner';
import { LabelStats } from '../../../src/engine/measure/stats';
import { connectionFor, readProfiles } from '../../../src/runner/targets';
import { isPrototypeName, parseJson, recordFromMap } from '../../../src/gates/plainData';
import { commandCountersFromInfo, latencyStatsFromInfo, parseInfo, parseInfoFields, sampleFromInfo } from '../../../src/redis/info';
import { latencyEvents } from '../../../src/redis/serverCounters';
import { baselineFor, readBaselines } from '../../../src/results/baselines';
import { mergeRuns } from '../../../src/results/merge';
import { parseRunFileText } from '../../../src/results/runFile';
import { runWarnings } from '../../../src/results/warnings';
import { buildViewModel } from '../../../src/views/model';
import { loadResult, makeRun } from '../compare/fixtures';
import { GlobalsWatch } from './globals';

const PROTOTYPE_NAMES = [
  ...new Set([
    '__proto__',
    'constructor',
    'prototype',
    ...Object.getOwnPropertyNames(Object.prototype),
    ...Object.getOwnPropertyNames(Function.prototype),
    ...Object.getOwnPropertyNames(Array.prototype),
  ]),
].filter((name) => !/^\d+$/.test(name));

/** A prototype name as written, in another case, or with spaces around it. */
const hostileName: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...PROTOTYPE_NAMES), fc.constantFrom('as-is', 'upper', 'lower', 'capital', 'spaces', 'leading', 'trailing'))
  .map(([name, variant]) => {
    switch (variant) {
      case 'upper':
        return name.toUpperCase();
      case 'lower':
        return name.toLowerCase();
      case 'capital':
        return name.charAt(0).toUpperCase() + name.slice(1);
      case 'spaces':
        return ` ${name} `;
      case 'leading':
        return ` ${name}`;
      case 'trailing':
        return `${name} `;
      default:
        return name;
    }
  });

/** Mostly hostile names, some ordinary ones. */
const anyName = fc.oneof(
  { weight: 4, arbitrary: hostileName },
  { weight: 1, arbitrary: fc.constantFrom('used_memory', 'keys', 'db0', 'ERR', 'save', 'passwordEnv', 'url') },
);
/** A value without the characters INFO uses as separators. */
const infoValue = fc.string({ maxLength: 12 }).map((text) => text.replace(/[\r\n,=:]/g, '_'));

const RUNS = { numRuns: 150 };

/** Every lookup of a hostile name gives undefined or data of an allowed type, never something inherited. */
function assertDataOnly(record: unknown, names: readonly string[], allowed: (value: unknown) => boolean, where: string): void {
  for (const name of [...names, ...PROTOTYPE_NAMES]) {
    const value = (record as Record<string, unknown>)[name];
    if (value === undefined) continue;
    assert.ok(Object.hasOwn(record as object, name), `${where}: "${name}" answered from a prototype (${typeof value})`);
    assert.ok(allowed(value), `${where}: "${name}" holds ${typeof value}`);
    assert.notEqual(typeof value, 'function', `${where}: "${name}" is a function`);
  }
}

describe('gate: hostile keys in every parser (property-based)', function () {
  this.timeout(120_000);
  let watch: GlobalsWatch;
  beforeEach(() => (watch = new GlobalsWatch()));
  afterEach(() => watch.restore());
  const unchanged = () => assert.deepEqual(watch.changes(), []);

  it('INFO: sections and fields named by a stranger stay data; prototype names are dropped', () => {
    const line = fc.oneof(
      fc.tuple(fc.constant('#'), anyName).map(([, name]) => `# ${name}`),
      fc.tuple(anyName, infoValue).map(([name, value]) => `${name}:${value}`),
      fc
        .tuple(fc.constantFrom('errorstat_', 'db'), anyName, fc.nat(99))
        .map(([prefix, name, n]) => (prefix === 'db' ? `db${n}:keys=${n},${name}=1` : `errorstat_${name}:count=${n}`)),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const names = lines.map((text) => text.replace(/^# /, '').split(':')[0]);
        const info = parseInfo(lines.join('\r\n'));
        unchanged();
        assert.equal(Object.getPrototypeOf(info), null);
        for (const name of Object.keys(info)) assert.equal(isPrototypeName(name), false, `section "${name}" kept`);
        assertDataOnly(info, names, (value) => typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === null, 'sections');
        for (const section of Object.values(info)) {
          assert.equal(Object.getPrototypeOf(section), null);
          for (const name of Object.keys(section)) assert.equal(isPrototypeName(name), false, `field "${name}" kept`);
          assertDataOnly(section, names, (value) => typeof value === 'string', 'fields');
          for (const value of Object.values(section)) assertDataOnly(parseInfoFields(value), names, (v) => typeof v === 'string', 'sub-fields');
        }
        const sample = sampleFromInfo(info, 0);
        unchanged();
        assertDataOnly(sample.errorstats, names, (value) => typeof value === 'number', 'errorstats');
        for (const count of Object.values(sample.errorstats)) assert.equal(typeof count, 'number');
        assert.equal(typeof sample.keys, 'number');
        assert.equal(Object.hasOwn(sample, 'passwordEnv'), false);
      }),
      RUNS,
    );
  });

  it('INFO commandstats, latencystats and LATENCY LATEST: command and event names a stranger chose stay data, __proto__ dropped', () => {
    const line = fc.oneof(
      fc.tuple(anyName, fc.nat(99), fc.nat(999)).map(([name, calls, usec]) => `cmdstat_${name}:calls=${calls},usec=${usec},${name}=1`),
      fc.tuple(anyName, fc.nat(99)).map(([name, p]) => `latency_percentiles_usec_${name}:p50=${p},p99=${p},p99.9=${p},${name}=2`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), fc.array(anyName, { maxLength: 5 }), (lines, events) => {
        const info = parseInfo(
          ['# Commandstats', ...lines.filter((l) => l.startsWith('cmdstat_')), '# Latencystats', ...lines.filter((l) => !l.startsWith('cmdstat_'))].join(
            '\r\n',
          ),
        );
        const names = lines.map((text) =>
          text
            .split(':')[0]
            .replace(/^(cmdstat_|latency_percentiles_usec_)/, '')
            .toLowerCase(),
        );
        const commands = recordFromMap(commandCountersFromInfo(info)!);
        const latency = recordFromMap(latencyStatsFromInfo(info)!);
        const spikes = latencyEvents(events.map((event, i) => [event, i, i, i]));
        unchanged();
        for (const record of [commands, latency, spikes]) {
          assert.equal(Object.getPrototypeOf(record), null);
          assert.equal(Object.hasOwn(record, '__proto__'), false, '__proto__ kept');
          assertDataOnly(record, [...names, ...events], (value) => typeof value === 'object' && value !== null, 'counters');
        }
        for (const counters of Object.values(commands)) assert.deepEqual(Object.keys(counters).sort(), ['calls', 'usec']);
        const sample = sampleFromInfo(info, 0);
        unchanged();
        assert.equal(typeof sample.commandCalls, 'number');
        assert.equal(Object.hasOwn(sample, 'passwordEnv'), false);
      }),
      RUNS,
    );
  });

  /** JSON text of objects keyed by hostile names (text, so `__proto__` is a key and not a prototype). */
  const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.constant(null), fc.boolean()).map((value) => JSON.stringify(value)),
      fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
      fc
        .array(fc.tuple(anyName, tie('value')), { maxLength: 5 })
        .map((entries) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`),
    ),
  })).value;

  /** The reference: JSON.parse's result without `__proto__` keys, as text. */
  function withoutProtoKeys(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(withoutProtoKeys);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== '__proto__')
        .map(([key, child]) => [key, withoutProtoKeys(child)]),
    );
  }

  it('JSON (run files, baselines): objects without prototypes, `__proto__` dropped, everything else kept as it was', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const parsed = parseJson(text);
        unchanged();
        assert.equal(JSON.stringify(parsed), JSON.stringify(withoutProtoKeys(JSON.parse(text))));
        const pending: unknown[] = [parsed];
        while (pending.length > 0) {
          const item = pending.pop();
          if (item === null || typeof item !== 'object') continue;
          if (Array.isArray(item)) {
            pending.push(...item);
            continue;
          }
          assert.equal(Object.getPrototypeOf(item), null);
          assert.equal(Object.hasOwn(item, '__proto__'), false);
          assertDataOnly(item, [], (value) => typeof value !== 'function', 'json');
          pending.push(...Object.values(item));
        }
      }),
      RUNS,
    );
  });

  it('run files: hostile error kinds, sweep names and config keys load, show, merge and warn as data', () => {
    const counts = fc.uniqueArray(fc.tuple(anyName, fc.integer({ min: 1, max: 50 })), { selector: ([name]) => name, minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(counts, anyName, (kinds, extra) => {
        const run = makeRun({ id: 'r', text: '### s\nrequests 10000\nGET k\n', results: { '': [[loadResult('main', 'GET k', { ops: 100, p99: 100 })]] } });
        const total = run.points[0].repeats[0][0].total;
        total.errors = kinds.reduce((sum, [, n]) => sum + n, 0);
        const counted = JSON.stringify(Object.fromEntries(kinds));
        const examples = JSON.stringify(Object.fromEntries(kinds.slice(1).map(([name]) => [name, `${name} oops`])));
        const text = JSON.stringify({ ...run, extra: 'EXTRA' })
          .replace('"errorsByKind":{}', `"errorsByKind":${counted}`)
          .replace('"errorExamples":{}', `"errorExamples":${examples}`)
          .replace('"sweep":{}', `"sweep":{${JSON.stringify(extra)}:1}`)
          .replace('"extra":"EXTRA"', `${JSON.stringify(extra)}:{"passwordEnv":"SOME_SECRET"},"__proto__":{"passwordEnv":"SOME_SECRET"}`);
        const read = parseRunFileText(text, 'hostile.rbench-run.json');
        const readTotal = read.points[0].repeats[0][0].total;
        for (const [name, n] of kinds) assert.equal(readTotal.errorsByKind[name], name === '__proto__' ? undefined : n, name);
        assertDataOnly(
          readTotal.errorsByKind,
          kinds.map(([name]) => name),
          (value) => typeof value === 'number',
          'errorsByKind',
        );
        assertDataOnly(
          readTotal.errorExamples,
          kinds.map(([name]) => name),
          (value) => typeof value === 'string',
          'errorExamples',
        );
        if (extra !== 'passwordEnv') assert.equal((read as unknown as Record<string, unknown>).passwordEnv, undefined);
        const warnings = runWarnings(read).join('\n');
        assert.doesNotMatch(warnings, /native code|\[object Object\]/);
        buildViewModel(read);
        const merged = mergeRuns([read, parseRunFileText(text.replace('"id":"r"', '"id":"r2"'), 'second')]).run;
        const mergedKinds = merged.points[0].repeats[0][0].total.errorsByKind;
        for (const [name, n] of kinds) if (name !== '__proto__') assert.equal(Object.getOwnPropertyDescriptor(mergedKinds, name)?.value, 2 * n, name);
        unchanged();
      }),
      { numRuns: 60 },
    );
  });

  describe('baselines.json', () => {
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'rbench-gate-baselines-'));
      mkdirSync(join(root, '.rbench'));
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('entries named by a stranger are strings or nothing, and pinned lookups never inherit', () => {
      fc.assert(
        fc.property(fc.uniqueArray(anyName, { maxLength: 6 }), (names) => {
          const entries = names.map((name) => `${JSON.stringify(name)}:"runs/${name.trim() || 'x'}.json"`).join(',');
          writeFileSync(join(root, '.rbench', 'baselines.json'), `{${entries},"__proto__":"runs/p.json"}`.replace('{,', '{'));
          const baselines = readBaselines(root);
          unchanged();
          assert.equal(Object.getPrototypeOf(baselines), null);
          assert.equal(Object.hasOwn(baselines, '__proto__'), false);
          assertDataOnly(baselines, names, (value) => typeof value === 'string', 'baselines');
          for (const name of names) if (name !== '__proto__') assert.equal(baselines[name], `runs/${name.trim() || 'x'}.json`);
          for (const name of PROTOTYPE_NAMES) assert.equal(baselineFor(root, name, name), undefined);
        }),
        { numRuns: 60 },
      );
    });
  });

  it('connection profiles: prototype names refused, fields own only, no passwordEnv from anywhere but the profile', () => {
    fc.assert(
      fc.property(fc.uniqueArray(anyName, { minLength: 1, maxLength: 5 }), anyName, (names, field) => {
        // As the editor hands them over: own keys from settings.json (a `__proto__` one included) and a prototype that holds a passwordEnv.
        const settings = JSON.parse(
          `{${names.map((name) => `${JSON.stringify(name)}:{"url":"redis://127.0.0.1:6379",${JSON.stringify(field)}:"x","__proto__":{"passwordEnv":"SOME_SECRET"}}`).join(',')}}`,
        ) as Record<string, unknown>;
        const inherited = Object.create({ passwordEnv: 'SOME_SECRET', url: 'redis://127.0.0.1:1' }) as Record<string, unknown>;
        inherited.url = 'redis://127.0.0.1:6380';
        settings.inherited = inherited;
        const { profiles, problems } = readProfiles(settings);
        unchanged();
        assert.equal(Object.getPrototypeOf(profiles), null);
        for (const name of Object.keys(profiles)) assert.equal(isPrototypeName(name), false, name);
        assert.equal(profiles.inherited?.url, 'redis://127.0.0.1:6380', 'the own url, not the inherited one');
        for (const name of names) {
          if (isPrototypeName(name))
            assert.ok(
              problems.some((problem) => problem.includes(`"${name}"`) && /reserved/.test(problem)),
              name,
            );
        }
        for (const [name, profile] of Object.entries(profiles)) {
          assert.equal(Object.getPrototypeOf(profile), null);
          assert.equal(profile.passwordEnv, field === 'passwordEnv' && name !== 'inherited' ? 'x' : undefined, name);
          assertDataOnly(profile, [field], (value) => typeof value === 'string', `profile ${name}`);
        }
        for (const name of [...names, ...PROTOTYPE_NAMES]) {
          const choice = {
            source: 'selected',
            target: { cluster: false, resp: 2, client: 'fast', connectTimeoutMs: 2000, profile: name },
            local: false,
          } as Parameters<typeof connectionFor>[0];
          const resolved = connectionFor(choice, { profiles, env: { SOME_SECRET: 'hunter2' } });
          assert.doesNotMatch(JSON.stringify(resolved), /hunter2/, `profile "${name}"`);
        }
      }),
      { numRuns: 80 },
    );
  });

  it('engine error counters: every kind a server names is counted as itself', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(hostileName, fc.integer({ min: 1, max: 9 })), { minLength: 1, maxLength: 8 }), (errors) => {
        const workers = [new LabelStats(), new LabelStats()];
        const expected = new Map<string, number>();
        errors.forEach(([name, n], i) => {
          const kind = errorKind(`${name.trim() || 'ERR'} oops`);
          workers[i % 2].addError(kind, `${kind} oops`, n);
          expected.set(kind, (expected.get(kind) ?? 0) + n);
        });
        const total = commandResult(
          'total',
          workers.map((worker) => worker.report()),
          1000,
        );
        unchanged();
        assert.deepEqual(Object.keys(total.errorsByKind).sort(), [...expected.keys()].sort());
        for (const [kind, n] of expected) {
          assert.equal(Object.getOwnPropertyDescriptor(total.errorsByKind, kind)?.value, n, kind);
          assert.equal(Object.getOwnPropertyDescriptor(total.errorExamples, kind)?.value, `${kind} oops`, kind);
        }
        assert.doesNotMatch(JSON.stringify(total), /native code|\[object Object\]/);
      }),
      RUNS,
    );
  });

  it('names a scenario looks up (`${env:NAME}`, `password env:NAME`, `--var`) answer from own properties only', () => {
    const exact = fc.constantFrom(...PROTOTYPE_NAMES.filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)));
    fc.assert(
      fc.property(exact, (name) => {
        // process.env itself inherits from Object.prototype: `process.env.constructor` is Object.
        const env = { ...process.env, SOME_SECRET: 'hunter2' };
        const resolved = checkText(`### s\nrequests 1\nSET k \${env:${name}}\n`, { env, vars: { other: 'x' } });
        const args = JSON.stringify(resolved.scenarios[0]?.points[0].phases[0].tests[0].commands[0]?.command.args ?? []);
        assert.doesNotMatch(args, /native code|function|\[object/, name);
        assert.ok(
          resolved.diagnostics.some((d) => d.message.includes('is not set')),
          `${name}: reported as unset`,
        );
        const variable = checkText(`### s\nrequests 1\nSET k {{${name}}}\n`, { env, vars: { other: 'x' } });
        assert.doesNotMatch(
          JSON.stringify(variable.scenarios[0]?.points[0].phases[0].tests[0].commands[0]?.command.args ?? []),
          /native code|function|\[object/,
          name,
        );
        assert.ok(
          variable.diagnostics.some((d) => d.message.includes('unknown variable')),
          `${name}: an unknown variable`,
        );
        // Words a scenario writes are looked up in the language's own tables (aliases, did-you-mean).
        for (const text of [
          `### s\nsweep ${name} 1 2\nPING\n`,
          `### s\nrequests 1\nPING\nexpect ${name} < 1\n`,
          `### s\nclient ${name}\nPING\n`,
          `### s\nrequests 1\n${name} x\n`,
        ]) {
          const messages = JSON.stringify(checkText(text, { env }).diagnostics.map((d) => [d.message, d.fixes]));
          assert.doesNotMatch(messages, /native code|function |\[object/, text);
        }
        const target = { cluster: false, resp: 2, client: 'fast', connectTimeoutMs: 2000, url: 'redis://127.0.0.1:6379', passwordEnv: name } as Parameters<
          typeof resolveConnection
        >[0];
        const connection = resolveConnection(target, { env: process.env });
        assert.match(connection.error ?? '', /is not set/, name);
        assert.equal(connection.options?.password, undefined, name);
        unchanged();
      }),
      { numRuns: 60 },
    );
  });

  it('CLUSTER SHARDS / SLOTS replies with hostile field names and values change no global object', () => {
    const seed = { host: '127.0.0.1', port: 7000, resp: 2 as const, connectTimeoutMs: 2000 };
    const word = fc.oneof(anyName, fc.constantFrom('master', 'replica', 'online', 'ip', 'port', 'role', 'health', 'endpoint', 'id'));
    fc.assert(
      fc.property(fc.array(fc.tuple(word, word), { maxLength: 8 }), fc.array(fc.tuple(word, fc.nat(3)), { maxLength: 4 }), (fields, extra) => {
        const node = ['id', 'n1', 'port', 7000, 'ip', '127.0.0.1', 'endpoint', '127.0.0.1', 'role', 'master', 'health', 'online', ...fields.flat()];
        const shard = ['slots', [0, 16383], 'nodes', [node], ...extra.flat()];
        try {
          topologyFromShards([shard], seed, 'n1');
        } catch {
          // A reply it cannot read may be refused; it may not change anything shared.
        }
        try {
          topologyFromSlots([[0, 16383, ['127.0.0.1', 7000, 'n1', ...fields.flat()], ...fields.map(([a, b]) => [a, b])]], seed);
        } catch {
          // as above
        }
        unchanged();
      }),
      RUNS,
    );
  });
});
