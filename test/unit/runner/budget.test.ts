// Issue 18, seen case 9: `value 256MB` × 40 keys in 8 lines checked clean and asked the throwaway server
// for 10 GB (the client reached 2.9 GB RSS). The plan's memory is estimated and refused before any
// contact, by `rbench check`, by a run and by the editor's check alike; a run checks through a port
// (the editor's worker thread), and a file over 1 MiB is refused before parsing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkText, type ResolvedFile, type ResolveOptions } from '../../../src/scenario';
import { estimateMemory, formatBytes, largestValue, MEMORY_LIMITS, memoryRefusals, PER_KEY_OVERHEAD } from '../../../src/scenario/memory';
import { memoryLimits, SCENARIO_FILE_LIMIT, scenarioFileRefusal } from '../../../src/runner/budget';
import { RunSession, type SessionPorts } from '../../../src/runner/session';
import { BackgroundChecker } from '../../../src/editor/backgroundCheck';
import { defaultMaxMemory } from '../../../src/redis/localServer';
import { runCli, Scratch } from '../../helpers/cli';

/** The seen file: 8 lines, 40 keys of 256 MB each. */
const SEEN = `### bomb
keys 40 sequential
value 256MB
requests 40
clients 1
prefill
SET bomb:__key__ __value__
GET bomb:__key__
`;

function ports(overrides: Partial<SessionPorts> = {}): SessionPorts & { lines: string[] } {
  const lines: string[] = [];
  return { confirm: async () => false, secret: async () => undefined, log: (line) => lines.push(line), lines, ...overrides };
}

function session(runsFolder: string, port: Partial<SessionPorts> = {}, maxMemory?: number): { session: RunSession; ports: ReturnType<typeof ports> } {
  const p = ports(port);
  return { session: new RunSession({ env: {}, runsFolder, trusted: true, maxMemory }, p), ports: p };
}

describe('run budgets (issue 18)', () => {
  let runs: string;
  beforeEach(() => (runs = mkdtempSync(join(tmpdir(), 'rbench-budget-'))));
  afterEach(() => rmSync(runs, { recursive: true, force: true }));

  describe('memory estimate', () => {
    it('the seen file needs 10 GiB on the server and fails check at its value line', () => {
      const resolved = checkText(SEEN, { env: {} });
      const { server, client } = estimateMemory(resolved.scenarios[0]);
      assert.equal(server.bytes, 40 * (256 * 1024 ** 2 + PER_KEY_OVERHEAD));
      assert.equal(server.detail, '40 keys × 256 MiB values');
      assert.equal(server.test, 'SET');
      assert.equal(client.bytes, 256 * 1024 ** 2);
      assert.deepEqual(
        resolved.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity, diagnostic.range.start.line]),
        [['memory-budget', 'error', 2]],
      );
      assert.equal(
        resolved.diagnostics[0].message,
        'this scenario stores about 10.0 GiB on the server (40 keys × 256 MiB values, test SET), more than the 4 GiB limit — use smaller values or fewer keys, or raise the limit with `rbench run --max-memory 11gb` or the user setting `rbench.maxMemory`',
      );
    });

    it('a raised limit lets it through; the client estimate has its own limit', () => {
      assert.deepEqual(checkText(SEEN, { env: {}, memory: memoryLimits(11 * 1024 ** 3) }).diagnostics, []);
      assert.deepEqual(memoryLimits(), MEMORY_LIMITS);
      assert.deepEqual(MEMORY_LIMITS, { server: 4 * 1024 ** 3, client: 1024 ** 3 });
      assert.deepEqual(memoryLimits(5), { server: 5, client: 5, raised: true });
      const wide = checkText('### w\nclients 50\npipeline 100\nvalue 1MB\nkeys 10\nSET k:__key__ __value__\n', { env: {} });
      assert.deepEqual(
        wide.diagnostics.map((diagnostic) => diagnostic.code),
        ['memory-budget'],
      );
      assert.match(
        wide.diagnostics[0].message,
        /^this scenario keeps about 4\.9 GiB of payloads in flight in rbench \(50 clients × pipeline 100 × 1 MiB, test SET\), more than the 1 GiB limit — use smaller values, fewer clients or a shorter pipeline, or raise the limit with `rbench run --max-memory 5gb`/,
      );
      assert.match(memoryRefusals(wide.scenarios[0], memoryLimits(2 * 1024 ** 3))[0], /more than the 2 GiB limit you set/);
    });

    it('counts sweeps at their largest point, appends by their request count, and reads as replies', () => {
      const swept = checkText('### s\nkeys 1000\nsweep value 1KB,8MB\nSET k:__key__ __value__\n', { env: {} }).scenarios[0];
      const estimate = estimateMemory(swept).server;
      assert.equal(estimate.bytes, 1000 * (8 * 1024 ** 2 + PER_KEY_OVERHEAD));
      assert.equal(estimate.point, 'value=8388608');
      const appended = checkText('### a\nrequests 1000\nvalue 1MB\nLPUSH list __value__\n', { env: {} }).scenarios[0];
      assert.equal(estimateMemory(appended).server.bytes, 1000 * (1024 ** 2 + PER_KEY_OVERHEAD));
      const overwritten = checkText('### o\nrequests 1000\nvalue 1MB\nSET one __value__\n', { env: {} }).scenarios[0];
      assert.equal(estimateMemory(overwritten).server.bytes, 1024 ** 2 + PER_KEY_OVERHEAD);
      const fewRequests = checkText('### f\nrequests 10\nkeys 1M\nvalue 1KB\nSET k:__key__ __value__\n', { env: {} }).scenarios[0];
      assert.equal(estimateMemory(fewRequests).server.bytes, 10 * (1024 + PER_KEY_OVERHEAD));
      const reads = checkText('### r\nclients 10\npipeline 10\nvalue 1MB\nprefill\nSET k __value__\nphase read\nGET k\n', { env: {} }).scenarios[0];
      assert.equal(estimateMemory(reads).client.bytes, 100 * 1024 ** 2);
      const noValues = checkText('### p\nclients 500\npipeline 100\nvalue 100MB\nPING\n', { env: {} }).scenarios[0];
      assert.deepEqual([estimateMemory(noValues).server.bytes, estimateMemory(noValues).client.bytes], [0, 0]);
      assert.equal(largestValue({ kind: 'range', min: 1, max: 9 }), 9);
      assert.equal(
        largestValue({
          kind: 'weighted',
          choices: [
            { size: 3, weight: 1 },
            { size: 7, weight: 1 },
          ],
        }),
        7,
      );
      assert.deepEqual([formatBytes(512), formatBytes(1024), formatBytes(1536), formatBytes(10 * 1024 ** 3)], ['512 B', '1 KiB', '1.5 KiB', '10 GiB']);
    });
  });

  describe('scenario file size', () => {
    it('refuses a file over 1 MiB by its length, counting UTF-8 bytes, before parsing', () => {
      assert.equal(SCENARIO_FILE_LIMIT, 1024 * 1024);
      assert.equal(scenarioFileRefusal('a.rbench', 'x'.repeat(SCENARIO_FILE_LIMIT)), undefined);
      assert.equal(
        scenarioFileRefusal('a.rbench', 'x'.repeat(SCENARIO_FILE_LIMIT + 1)),
        'a.rbench is 1.0 MiB, more than the 1 MiB a scenario file may have to run — split it into several files',
      );
      assert.equal(scenarioFileRefusal('a.rbench', 'é'.repeat(SCENARIO_FILE_LIMIT / 2)), undefined);
      assert.match(scenarioFileRefusal('a.rbench', 'é'.repeat(SCENARIO_FILE_LIMIT / 2 + 1)) ?? '', /more than the 1 MiB/);
      assert.equal(scenarioFileRefusal('a.rbench', '☕'.repeat(SCENARIO_FILE_LIMIT / 3)), undefined, 'a third of the limit in 3-byte characters fits');
    });

    it('a session refuses a large file without calling the checker', async () => {
      let calls = 0;
      const { session: s } = session(runs, { check: async () => (calls++, { scenarios: [], diagnostics: [] }) });
      const outcome = await s.check({ display: 'big.rbench', text: '{'.repeat(SCENARIO_FILE_LIMIT + 1) });
      assert.ok('kind' in outcome && outcome.kind === 'not-run');
      assert.equal(outcome.reason, 'error');
      assert.match(outcome.message, /^big\.rbench is 1\.0 MiB, more than the 1 MiB/);
      assert.equal(calls, 0);
    });
  });

  describe('the check port', () => {
    it('a session resolves through the injected checker with its environment rules and memory limit', async () => {
      const asked: { text: string; options: ResolveOptions }[] = [];
      const check = async (text: string, options: ResolveOptions): Promise<ResolvedFile> => (asked.push({ text, options }), checkText(text, options));
      const s = new RunSession(
        {
          env: { A: '1' },
          vars: { v: 'x' },
          allowEnv: ['A'],
          runsFolder: runs,
          trusted: true,
          maxMemory: 11 * 1024 ** 3,
          serverBinaries: { redis7: '/opt/redis-7/bin/redis-server' },
        },
        ports({ check }),
      );
      const resolved = await s.check({ display: 'seen.rbench', text: SEEN, baseDir: '/tmp' });
      assert.equal(asked.length, 1);
      assert.deepEqual(asked[0].options, {
        env: { A: '1' },
        vars: { v: 'x' },
        allowEnv: ['A'],
        baseDir: '/tmp',
        memory: { server: 11 * 1024 ** 3, client: 11 * 1024 ** 3, raised: true },
        // The checker learns the machine's binary names a file may use, never their paths.
        serverBinaries: ['redis7'],
      });
      assert.ok(!('kind' in resolved));
      assert.deepEqual(resolved.diagnostics, []);
    });

    it('a checker that fails becomes a plain refusal', async () => {
      const { session: s } = session(runs, { check: async () => Promise.reject(new Error('worker gone')) });
      const outcome = await s.check({ display: 'a.rbench', text: 'PING\n' });
      assert.ok('kind' in outcome);
      assert.equal(outcome.message, 'a.rbench: could not be checked (worker gone)');
    });

    it('without a port (the CLI) the session checks in place', async () => {
      const { session: s } = session(runs);
      const resolved = await s.check({ display: 'a.rbench', text: '### a\nPING\n' });
      assert.ok(!('kind' in resolved));
      assert.equal(resolved.scenarios[0].name, 'a');
    });

    it("the editor's worker answers a run's check with the plans, structured-clone equal to checking in place", async function () {
      this.timeout(30_000);
      const script = join(__dirname, '../../../src/editor/checkWorker.js');
      const checker = new BackgroundChecker(script);
      try {
        const text = '@p = x\n### one\nkeys 10\nSET {{p}}:__key__ __value__\n### two\nsuite set,get\nexpect p99 < 2ms\n';
        const options = { env: {}, memory: MEMORY_LIMITS };
        const [a, b] = await Promise.all([checker.resolve(text, options), checker.resolve(SEEN, options)]);
        assert.deepEqual(a, checkText(text, options));
        assert.deepEqual(
          b.diagnostics.map((diagnostic) => diagnostic.code),
          ['memory-budget'],
        );
        // A document check of the same text does not replace a run's check.
        const [outline, plans] = await Promise.all([checker.check('doc', text, options), checker.resolve(text, options)]);
        assert.equal(outline?.outline.scenarios.length, 2);
        assert.equal(plans.scenarios.length, 2);
      } finally {
        checker.dispose();
      }
    });

    it('a run check pending when the checker is disposed is rejected, not left hanging', async () => {
      const checker = new BackgroundChecker(join(__dirname, '../../../src/editor/checkWorker.js'));
      const pending = checker.resolve('PING\n', { env: {} });
      checker.dispose();
      await assert.rejects(pending, /the check worker stopped before answering/);
    });
  });

  it("a run on the throwaway server records its default maxmemory and noeviction in the run file's server facts", async function () {
    this.timeout(60_000);
    const scratch = new Scratch();
    try {
      const path = scratch.write('small.rbench', '### small\nrequests 100\nclients 1\nPING\n');
      const ran = await runCli(['run', path], { cwd: scratch.dir });
      assert.equal(ran.code, 0, ran.stderr);
      const [run] = scratch.runFiles();
      assert.equal(run.target.server?.config.maxmemory, String(defaultMaxMemory()));
      assert.equal(run.target.server?.config['maxmemory-policy'], 'noeviction');
      assert.match(
        ran.stdout + ran.stderr,
        new RegExp(`throwaway redis-server \\(redis://127\\.0\\.0\\.1:\\d+\\) · maxmemory ${formatBytes(defaultMaxMemory()).replace('.', '\\.')}\n`),
      );
    } finally {
      scratch.remove();
    }
  });

  describe('the seen case is refused before any contact', () => {
    it('by a session: not run, and no server asked (no redis-server started, the client stays small)', async () => {
      const before = process.memoryUsage().rss;
      const { session: s, ports: p } = session(runs);
      const file = { display: 'seen.rbench', text: SEEN };
      const resolved = await s.check(file);
      assert.ok(!('kind' in resolved));
      const prepared = await s.prepare(file, resolved, resolved.scenarios[0]);
      assert.ok('kind' in prepared);
      assert.equal(prepared.reason, 'invalid');
      assert.match(prepared.message, /^seen\.rbench: "bomb" cannot run until its errors are fixed — .*stores about 10\.0 GiB on the server/);
      assert.deepEqual(p.lines, []);
      assert.ok(process.memoryUsage().rss - before < 200 * 1024 ** 2, 'no payload was allocated');
    });

    it('by `rbench check` and `rbench run` (exit 2, no run file, no connection to the named server); --max-memory raises the limit', async function () {
      this.timeout(60_000);
      const scratch = new Scratch();
      // A listener standing for the server: the refused run must not connect to it.
      let connections = 0;
      const listener = createServer((socket) => (connections++, socket.destroy()));
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      const port = (listener.address() as { port: number }).port;
      try {
        const path = scratch.write('seen.rbench', SEEN);
        const checked = await runCli(['check', path], { cwd: scratch.dir });
        assert.equal(checked.code, 2);
        assert.match(checked.stderr, /seen\.rbench:3:1: error: this scenario stores about 10\.0 GiB on the server/);
        assert.equal((await runCli(['check', '--max-memory', '11gb', path], { cwd: scratch.dir })).code, 0);
        assert.match((await runCli(['check', '--max-memory', 'lots', path], { cwd: scratch.dir })).stderr, /^rbench: --max-memory lots: `lots` is not a size/);
        const ran = await runCli(['run', '--url', `redis://127.0.0.1:${port}`, path], { cwd: scratch.dir });
        assert.equal(ran.code, 2);
        assert.match(ran.stderr, /stores about 10\.0 GiB on the server/);
        assert.deepEqual(scratch.runFiles(), []);
        const big = scratch.write('big.rbench', `### big\nPING\n#${'x'.repeat(SCENARIO_FILE_LIMIT)}\n`);
        const refused = await runCli(['run', '--url', `redis://127.0.0.1:${port}`, big], { cwd: scratch.dir });
        assert.equal(refused.code, 2);
        assert.match(refused.stderr, /big\.rbench is 1\.0 MiB, more than the 1 MiB a scenario file may have to run — split it into several files/);
        assert.equal(connections, 0);
      } finally {
        listener.close();
        scratch.remove();
      }
    });
  });
});
