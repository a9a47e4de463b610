// The editor's side of the file gate (issue 18, seen 4 and 8): where run files go (a workspace's
// `rbench.runsFolder` stays inside the workspace; the user's own may point anywhere), RunSession saving
// through a committed link, the runs index and baselines read without following links or blocking.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunsIndex, runsFolderPlace } from '../../../src/editor/runsIndex';
import { baselinesInside, BaselinesError, pinBaseline, readableBaselines, readBaselines, readBaselinesAsync } from '../../../src/results/baselines';
import { isReadable } from '../../../src/gates/files';
import { RunSession, type SessionPorts } from '../../../src/runner/session';
import { useRedisServer } from '../../helpers/redis';
import { repoRoot } from '../scenario/helpers';

// Consent is answered yes: these tests are about where files go, not about the question.
const ports: SessionPorts = { confirm: async () => true, secret: async () => undefined, log: () => undefined };

function fixtureText(): string {
  return readFileSync(join(repoRoot(), 'test', 'browser', 'fixtures', 'finished.rbench-run.json'), 'utf8');
}

describe('editor: the runs folder and the file gate', function () {
  this.timeout(30_000);
  let ws: string;
  let outside: string;
  beforeEach(() => {
    ws = realpathSync(mkdtempSync(join(tmpdir(), 'rbench-ws-')));
    outside = realpathSync(mkdtempSync(join(tmpdir(), 'rbench-outside-')));
  });
  afterEach(() => {
    rmSync(ws, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('runsFolderPlace: the default and relative folders stay inside the workspace, no link followed', () => {
    assert.deepEqual(runsFolderPlace(undefined, undefined, '/srv/ws', '/srv/ws/bench'), { folder: '/srv/ws/.rbench/runs', root: '/srv/ws' });
    assert.deepEqual(runsFolderPlace('results', 'workspace', '/srv/ws', '/srv/ws/bench'), { folder: '/srv/ws/results', root: '/srv/ws' });
    assert.deepEqual(runsFolderPlace('results', 'user', '/srv/ws', '/srv/ws/bench'), { folder: '/srv/ws/results', root: '/srv/ws' });
    assert.deepEqual(runsFolderPlace('', undefined, undefined, '/srv/bench'), { folder: '/srv/bench/.rbench/runs', root: '/srv/bench' });
  });

  it("runsFolderPlace: the user's own setting may point anywhere; a workspace's may not (the default is used, and said)", () => {
    assert.deepEqual(runsFolderPlace('/var/runs', 'user', '/srv/ws', '/srv/ws/bench'), { folder: '/var/runs' });
    assert.deepEqual(runsFolderPlace('../runs', 'user', '/srv/ws', '/srv/ws/bench'), { folder: '/srv/runs' });
    for (const setting of ['/srv/me/.bashrc.d', '../../../.bashrc.d']) {
      const place = runsFolderPlace(setting, 'workspace', '/srv/ws', '/srv/ws/bench');
      assert.equal(place.folder, '/srv/ws/.rbench/runs');
      assert.equal(place.root, '/srv/ws');
      assert.equal(
        place.problem,
        `rbench.runsFolder in this workspace's settings (${setting}) points outside the workspace folder, so run files go to .rbench/runs: ` +
          "a repository's settings may not choose where RBench writes — set rbench.runsFolder in your user settings instead",
      );
    }
  });

  describe('RunSession (the editor and the CLI)', () => {
    const server = useRedisServer();

    it('a committed `.rbench` link: the run is not saved through it, and the message names the fix', async () => {
      symlinkSync(outside, join(ws, '.rbench'));
      const place = runsFolderPlace(undefined, undefined, ws, ws);
      const session = new RunSession(
        { env: {}, trusted: true, runsFolder: place.folder, runsFolderRoot: place.root, userTarget: { value: server().url, override: true } },
        ports,
      );
      const file = { display: 'bench.rbench', text: '### bench $(touch PWNED)\nrequests 50\nSET k v\n' };
      const resolved = session.resolve(file);
      const prepared = await session.prepare(file, resolved, resolved.scenarios[0]);
      assert.ok(!('kind' in prepared));
      const outcome = await session.execute(prepared);
      assert.equal(outcome.kind, 'finished');
      assert.ok(outcome.kind === 'finished' && outcome.saveError && !outcome.path);
      assert.match(
        outcome.saveError!,
        /\.rbench: a symbolic link — RBench does not follow links here.* — replace the link with a real folder, or choose a runs folder yourself/,
      );
      assert.deepEqual(readdirSync(outside), []);
    });
  });

  it('the runs index reads no file through a link, FIFO or device named like a run file, and never blocks', async () => {
    const runs = join(ws, '.rbench', 'runs');
    mkdirSync(runs, { recursive: true });
    writeFileSync(join(runs, 'good.rbench-run.json'), fixtureText());
    writeFileSync(join(outside, 'theirs.rbench-run.json'), fixtureText());
    symlinkSync(join(outside, 'theirs.rbench-run.json'), join(runs, 'link.rbench-run.json'));
    symlinkSync('/dev/zero', join(runs, 'zero.rbench-run.json'));
    execFileSync('mkfifo', [join(runs, 'fifo.rbench-run.json')]);
    const index = new RunsIndex();
    const entries = await index.entries(runs, ws);
    assert.deepEqual(
      entries.map((entry) => entry.id),
      ['good'],
    );
    const reasons = Object.fromEntries(index.unreadable.map(({ path, message }) => [path.split('/').pop(), message]));
    assert.match(reasons['link.rbench-run.json'], /a symbolic link/);
    assert.match(reasons['zero.rbench-run.json'], /a symbolic link/);
    assert.match(reasons['fifo.rbench-run.json'], /not a regular file \(it is a FIFO/);
    // The runs folder itself a link out of the workspace: nothing read from there.
    rmSync(join(ws, '.rbench'), { recursive: true });
    mkdirSync(join(ws, '.rbench'));
    symlinkSync(outside, join(ws, '.rbench', 'runs'));
    const fresh = new RunsIndex();
    assert.deepEqual(await fresh.entries(join(ws, '.rbench', 'runs'), ws), []);
    assert.match(fresh.unreadable[0].message, /leads outside/);
  });

  it('baselines.json: a link, a FIFO, a device are refused (sync and async) without blocking; entries outside are dropped', async () => {
    mkdirSync(join(ws, '.rbench'));
    writeFileSync(join(outside, 'theirs.json'), '{"a#b": "x"}');
    symlinkSync(join(outside, 'theirs.json'), join(ws, '.rbench', 'baselines.json'));
    assert.throws(
      () => readBaselines(ws),
      (error: unknown) => error instanceof BaselinesError && /baselines\.json: a symbolic link/.test(error.message),
    );
    await assert.rejects(readBaselinesAsync(ws), BaselinesError);
    assert.throws(() => pinBaseline(ws, { scenarioFile: 'a.rbench', scenarioName: 'a', runFile: 'r.json' }), BaselinesError);
    assert.equal(readFileSync(join(outside, 'theirs.json'), 'utf8'), '{"a#b": "x"}', 'not merged into');
    rmSync(join(ws, '.rbench', 'baselines.json'));
    execFileSync('mkfifo', [join(ws, '.rbench', 'baselines.json')]);
    await assert.rejects(readBaselinesAsync(ws), /not a regular file/);
    rmSync(join(ws, '.rbench', 'baselines.json'));
    assert.deepEqual({ ...(await readBaselinesAsync(ws)) }, {}, 'no file: no baselines');
    writeFileSync(join(ws, '.rbench', 'baselines.json'), '{"a#b": "runs/x.json"}');
    assert.deepEqual({ ...(await readBaselinesAsync(ws)) }, { 'a#b': 'runs/x.json' });
    writeFileSync(join(ws, '.rbench', 'baselines.json'), 'not json');
    await assert.rejects(readBaselinesAsync(ws), /not readable JSON/);
    assert.deepEqual(
      {
        ...baselinesInside(ws, {
          in: 'runs/x.json',
          abs: join(ws, 'y.json'),
          dev: '/dev/zero',
          up: '../../x',
          proc: '/proc/self/environ',
          passwd: '/etc/passwd',
        }),
      },
      { in: 'runs/x.json', abs: join(ws, 'y.json') },
    );
  });

  it('readableBaselines keeps only regular files really inside the workspace (no link out, no FIFO, no missing file)', async () => {
    mkdirSync(join(ws, 'runs'));
    writeFileSync(join(ws, 'runs', 'good.json'), '{}');
    writeFileSync(join(outside, 'secret'), 'SECRET');
    symlinkSync(join(outside, 'secret'), join(ws, 'runs', 'link.json'));
    symlinkSync(outside, join(ws, 'out'));
    execFileSync('mkfifo', [join(ws, 'runs', 'fifo.json')]);
    const kept = await readableBaselines(ws, {
      good: 'runs/good.json',
      link: 'runs/link.json',
      through: 'out/secret',
      fifo: 'runs/fifo.json',
      gone: 'runs/gone.json',
      dev: '/dev/zero',
    });
    assert.deepEqual({ ...kept }, { good: 'runs/good.json' });
    assert.equal(await isReadable('runs/good.json', { root: ws }), true);
    assert.equal(await isReadable(join(outside, 'secret'), { userNamed: true }), true);
    assert.equal(await isReadable('/dev/zero', { userNamed: true }), false);
  });
});
