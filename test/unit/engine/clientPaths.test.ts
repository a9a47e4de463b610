// The one table of the engine's client paths (clientPaths.ts): each client × target opens its own
// module, found beside the worker as clientPathModules.json names it (the list esbuild builds from).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openClientPath } from '../../../src/engine/clientPaths';
import modules from '../../../src/engine/clientPathModules.json';
import type { ClusterPlan, WorkerConfig } from '../../../src/engine/workerMessages';
import type { ClientPath, TestPlan } from '../../../src/scenario/plan';

const engineDir = join(__dirname, '..', '..', '..', 'src', 'engine');
const clusterPlan = { topology: { nodes: [], slots: [] }, replicaReads: false, keyArguments: [], readOnly: [] } as unknown as ClusterPlan;
const plainTest: TestPlan = { name: 'GET', commands: [{ weight: 1, command: { name: 'GET', label: 'GET', args: [['k']] } }] };
/** A test with a reply-driven command (scenario/replyForms.ts) runs on a path of its own. */
const scanTest: TestPlan = { name: 'SCAN', commands: [{ weight: 1, command: { name: 'SCAN', label: 'SCAN', args: [[{ placeholder: 'cursor' }]] } }] };
const config = (client: ClientPath, cluster: boolean, test = plainTest) =>
  ({ client, test, connection: { host: '127.0.0.1', port: 6379 }, ...(cluster ? { cluster: clusterPlan } : {}) }) as WorkerConfig;

describe('client paths', () => {
  const cases: { client: ClientPath; cluster: boolean; module?: string }[] = [
    { client: 'fast', cluster: false },
    { client: 'fast', cluster: true, module: modules.fastCluster },
    { client: 'ioredis', cluster: false, module: modules.ioredis },
    { client: 'ioredis', cluster: true, module: modules.ioredisCluster },
  ];
  for (const { client, cluster, module } of cases) {
    it(`${client} ${cluster ? 'cluster' : 'single node'}: opens ${module ?? 'the path inside the worker'}`, () => {
      const path = openClientPath(config(client, cluster));
      assert.equal(typeof path.factory, 'function');
      // No connection made yet: no routing state either.
      assert.equal(path.cluster(), undefined);
      if (module) assert.ok(require.cache[require.resolve(join(engineDir, module))], `${module} was loaded`);
    });
  }

  it('a test with a reply-driven command opens fast/replyConnection', () => {
    const path = openClientPath(config('fast', false, scanTest));
    assert.equal(typeof path.factory, 'function');
    assert.ok(require.cache[require.resolve(join(engineDir, modules.replyDriven))], `${modules.replyDriven} was loaded`);
  });

  it('`connect-only on` on a cluster opens fast/connectOnlyCluster, whatever the client (on one node: the path inside the worker)', () => {
    for (const client of ['fast', 'ioredis'] as const) {
      const path = openClientPath({ ...config(client, true), connectOnly: true });
      assert.equal(typeof path.factory, 'function');
      assert.equal(path.cluster(), undefined);
    }
    assert.ok(require.cache[require.resolve(join(engineDir, modules.connectOnlyCluster))], `${modules.connectOnlyCluster} was loaded`);
  });

  it('lists each module apart from the worker once', () => {
    assert.deepEqual(new Set(Object.values(modules)).size, Object.values(modules).length);
  });
});
