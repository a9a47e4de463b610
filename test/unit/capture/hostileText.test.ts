// Issue 42 (seen): a server, or a file being imported, chooses lines of a scenario RBench writes. An INFO
// `redis_version` with lone carriage returns made capture's file hold real `target`, `password` and `cleanup`
// lines (CR became its line ending), and ESC/OSC sequences and U+202E from the version and from error replies
// were copied into its comments; memtier's `key_prefix` went into the imported scenario the same way. Through
// the real paths: a fake RESP server for what a real one cannot say, and memtier JSON on disk.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureWorkload } from '../../../src/capture/capture';
import { scenarioText } from '../../../src/capture/scenarioText';
import { DEFAULT_CAPTURE } from '../../../src/capture/types';
import { buildWorkload, type Workload } from '../../../src/capture/workload';
import type { CaptureResult } from '../../../src/capture/types';
import fc from 'fast-check';
import { importRun, ImportError } from '../../../src/results/import';
import { benchmarkCommand } from '../../../src/results/import/redisBenchmarkCommand';
import { codeActions } from '../../../src/scenario/features';
import { checkText, parseDocument } from '../../../src/scenario';
import { repoRoot } from '../../helpers/cli';
import { startFakeRedis } from '../../helpers/fakeRedis';

/** What the server or file says: lines of its choosing after lone CRs, then an OSC 52 (clipboard) and a bidi override. */
const HOSTILE = '7.2.4\rtarget redis://127.0.0.1:1\rpassword env:HOME\rcleanup *\r# x\x1b]52;c;aGk=\x07\u202e';
/** Every character a file must not carry: controls but the line feed, line/paragraph separators, bidi controls. */
// eslint-disable-next-line no-control-regex -- the point is to find them
const UNSAFE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

/** The file as `rbench check` reads it: no setting the writer did not intend, no unsafe byte, no error. */
function assertSafeScenario(text: string): void {
  assert.doesNotMatch(text, UNSAFE, JSON.stringify(text));
  const doc = parseDocument(text);
  const named = doc.lines.filter((line) => line.kind === 'setting' && ['target', 'password', 'cleanup', 'user', 'db'].includes(line.setting.name));
  assert.deepEqual(
    named.map((line) => line.text),
    [],
  );
  const errors = checkText(text).diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(errors, []);
}

describe('issue 42: a server cannot choose lines of the file capture writes', function () {
  this.timeout(30_000);

  it('a redis_version with lone CRs, ESC/OSC and U+202E, and an error reply with them, stay text in comments', async () => {
    const monitorLines = [
      '+1700000000.100000 [0 127.0.0.1:5000] "SET" "user:1" "abc"',
      '+1700000000.200000 [0 127.0.0.1:5000] "GET" "user:2"',
      '+1700000000.300000 [0 127.0.0.1:5001] "GET" "user:3"',
    ];
    const fake = await startFakeRedis('127.0.0.1', {
      info: `# Server\r\nredis_version:${HOSTILE}\r\nredis_mode:standalone\r\n# Replication\r\nrole:master\r\n`,
      answer: (args) => {
        const name = args[0].toUpperCase();
        if (name === 'MONITOR') return { raw: ['+OK', ...monitorLines].map((line) => line + '\r\n').join('') };
        if (name === 'DBSIZE') return { error: `ERR \x1b]52;c;aGk=\x07 refused \u202eevil\x1b[2J` };
        return undefined;
      },
    });
    try {
      const capture = await captureWorkload({ host: '127.0.0.1', port: fake.port, resp: 2, connectTimeoutMs: 5000 }, 'the fake', {
        ...DEFAULT_CAPTURE,
        durationMs: 1200,
        monitor: 'on',
      });
      assert.equal(capture.source.version, HOSTILE, 'the hostile version reached the writer');
      const text = scenarioText(capture, buildWorkload(capture));
      assertSafeScenario(text);
      const doc = parseDocument(text);
      // The intended scenarios are still there, with their traffic.
      assert.deepEqual(
        doc.scenarios.map((s) => s.name),
        ['captured workload (open loop at the observed rate)', 'captured workload (closed loop, as fast as it goes)'],
      );
      assert.ok(doc.lines.some((line) => line.kind === 'command' && line.name === 'GET'));
      // The version is shown, its controls as visible escapes, on one comment line.
      const header = doc.lines[0];
      assert.equal(header.kind, 'comment');
      assert.match(header.text, /Redis 7\.2\.4\\u000dtarget redis:\/\/127\.0\.0\.1:1\\u000dpassword env:HOME/);
      assert.match(text, /DBSIZE refused \(ERR \\u001b\]52;c;aGk=\\u0007 refused \\u202eevil\\u001b\[2J\)/);
    } finally {
      await fake.close();
    }
  });
});

describe('issue 42: a memtier file cannot choose lines of the imported scenario', () => {
  let folder: string;
  before(() => (folder = mkdtempSync(join(tmpdir(), 'rbench-hostile-import-'))));
  after(() => rmSync(folder, { recursive: true, force: true }));

  const memtierWith = (prefix: string): string => {
    const json = JSON.parse(readFileSync(join(repoRoot, 'test/fixtures/import/memtier-default.json'), 'utf8')) as { configuration: Record<string, unknown> };
    json.configuration.key_prefix = prefix;
    const file = join(folder, `mt-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(json));
    return file;
  };

  it('a key_prefix with CRs and ESC is one quoted argument: the plan sends it as the key prefix, and nothing else', () => {
    const prefix = 'p\rtarget redis://127.0.0.1:1\rpassword env:HOME\rcleanup *\r# \x1b[2J"\\{{x}}${env:HOME}';
    const run = importRun(memtierWith(prefix));
    const source = run.scenario.source;
    assertSafeScenario(source);
    const commands = parseDocument(source).lines.flatMap((line) => (line.kind === 'command' ? [[line.name, line.args[0].value]] : []));
    assert.deepEqual(commands, [
      ['SET', `${prefix}__key__`],
      ['GET', `${prefix}__key__`],
    ]);
    assert.deepEqual(
      run.plan.points[0].phases[0].tests[0].commands.map((c) => c.command.label),
      ['SET', 'GET'],
    );
  });

  it('a key_prefix no scenario can hold safely (a bidi override) is refused with a plain message', () => {
    const file = memtierWith('user\u202e:');
    assert.throws(
      () => importRun(file),
      (error: Error) =>
        error instanceof ImportError && /configuration\.key_prefix/.test(error.message) && /U\+202E/.test(error.message) && !/\n\s+at /.test(error.message),
    );
  });
});

describe('issue 42 (variant): a redis-benchmark --command line cannot add lines to the imported scenario', () => {
  it('values and the title with line breaks stay one setting value and one header', () => {
    const command = benchmarkCommand('redis-benchmark -c "5\ntarget redis://127.0.0.1:1" -t "set\rcleanup *" -n 10');
    assert.ok(typeof command !== 'string', String(command));
    assert.doesNotMatch(command.scenario, UNSAFE);
    const doc = parseDocument(command.scenario);
    assert.deepEqual(
      doc.lines.flatMap((line) => (line.kind === 'setting' ? [[line.setting.name, ...line.args.map((a) => a.value)]] : [])),
      [
        ['value-fill', 'redis-benchmark'],
        ['suite', 'set\rcleanup *'],
        ['clients', '5\ntarget redis://127.0.0.1:1'],
        ['requests', '10'],
      ],
    );
    assert.equal(doc.scenarios.length, 1);
  });
});

describe('noticed on the way: redis-benchmark -a', () => {
  it("keeps -a's password out of the imported scenario's title and the command line the run file keeps", () => {
    const command = benchmarkCommand('redis-benchmark -a hunter2 -t set -n 10');
    assert.ok(typeof command !== 'string', String(command));
    assert.doesNotMatch(command.scenario + command.display, /hunter2/);
    assert.match(command.scenario, /^### redis-benchmark -a \*\*\* -t set -n 10$/m);
  });
});

describe('issue 42 (variant): a quick fix cannot add lines', () => {
  it('"Remove the password from the URL" on a quoted URL with an escaped line break writes the escape, not the break', () => {
    const text = 'target "redis://:hunter2@host:6379\\n"\n### s\nGET k\n';
    const at = { line: 0, character: 12 };
    const fixes = codeActions(text, { start: at, end: at }, { env: {} }).filter((action) => action.title === 'Remove the password from the URL');
    assert.deepEqual(
      fixes.flatMap((fix) => fix.edits.map((edit) => edit.newText)),
      ['"redis://@host:6379\\n"'],
    );
  });
});

describe('issue 42 (property): whatever a server says, capture writes only the lines it means', () => {
  const pieces = [
    '\r',
    '\n',
    '\u2028',
    '\u0085',
    '\x1b[2J',
    '\x1b]52;c;aGk=\x07',
    '\u202e',
    '\u2066',
    '"',
    "'",
    '\\',
    '#',
    '###',
    ' ',
    'target redis://x',
    'password env:HOME',
    'cleanup *',
    '{{x}}',
    '${env:HOME}',
    '*5',
    '(',
    ')',
    'a',
    '1',
    ':',
  ];
  const text = fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 3 })), { maxLength: 6 }).map((parts) => parts.join(''));
  const SETTINGS = new Set(['key-size', 'keys', 'requests', 'pipeline', 'clients', 'value', 'duration', 'rate']);

  it('version, role, notes, key patterns, command names and the reasons left out: comments or arguments, never settings', () => {
    fc.assert(
      fc.property(
        fc.record({ version: text, role: text, display: text, note: text, pattern: text, field: text, command: text, left: text, type: text }),
        (p) => {
          const capture: CaptureResult = {
            source: { display: p.display, version: p.version, mode: 'standalone', role: p.role, db: 0 },
            startedAt: '2026-12-06T07:00:00.000Z',
            windowMs: 3000,
            keepNames: true,
            notes: [p.note],
            partial: p.note,
          };
          const lines = [
            { share: 0.5, command: 'HSET', args: [p.pattern, p.field, '__value__'] },
            { share: 0.3, command: p.command || 'X', args: [p.pattern] },
            { share: 0.2, command: 'CONFIG GET', args: [p.field] },
          ];
          const workload: Workload = {
            lines,
            groups: [{ pattern: p.pattern, keys: 100, fit: { kind: 'uniform', reason: p.note }, share: 1, lines }],
            queues: [],
            left: [{ kind: 'unknown', share: 0.1, commands: [{ name: p.left, share: 0.1 }] }],
            keySpace: 100,
            keyFit: { kind: 'uniform', reason: p.note },
            keySize: 4,
            ratePerSec: 10,
            clients: 2,
            pipeline: 1,
            prefill: [{ pattern: p.pattern, type: p.type, keys: 10, length: 3, sampledLength: 3, ttlShare: 0.5, ttlSeconds: 60 }],
            notes: [p.note],
          };
          const written = scenarioText(capture, workload);
          assert.doesNotMatch(written, UNSAFE);
          const doc = parseDocument(written);
          for (const line of doc.lines) {
            assert.ok(['blank', 'comment', 'header', 'phase', 'setting', 'command'].includes(line.kind), `${line.kind}: ${line.text}`);
            if (line.kind === 'setting') assert.ok(SETTINGS.has(line.setting.name), line.text);
            assert.equal(line.interpolations.length, 0, line.text);
          }
          // Each key pattern that is written is the pattern itself, as one argument.
          const hset = doc.lines.find((line) => line.kind === 'command' && line.name === 'HSET' && line.args.length === 3);
          if (hset?.kind === 'command')
            assert.deepEqual(
              hset.args.map((a) => a.value),
              [p.pattern, p.field, '__value__'],
            );
          assert.deepEqual(
            checkText(written).diagnostics.filter((d) => d.severity === 'error'),
            [],
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});
