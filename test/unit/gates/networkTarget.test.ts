// The network gate's rule as a target resolves it (before any contact): the seed or sentinels, a declared
// cluster (`cluster on`, a profile's `cluster: true`, `--cluster`), and the hosts allowed by a profile's
// `allowHosts` and `--allow-host`.
import assert from 'node:assert/strict';
import { resolveConnection } from '../../../src/redis/target';
import type { ConnectionProfile } from '../../../src/redis/types';
import { RunSession } from '../../../src/runner/session';
import { targetPlan } from '../redis/support';

describe('network gate: the rule a target resolves to', () => {
  it('a URL: its host:port; `cluster on` declares a cluster', () => {
    assert.deepEqual(resolveConnection(targetPlan({ url: 'redis://10.0.0.5:7000' }), { env: {} }).options?.network, {
      seeds: [{ host: '10.0.0.5', port: 7000 }],
      allowHosts: [],
    });
    assert.deepEqual(resolveConnection(targetPlan({ url: 'redis://10.0.0.5:7000', cluster: true }), { env: {} }).options?.network, {
      seeds: [{ host: '10.0.0.5', port: 7000 }],
      declared: 'cluster',
      allowHosts: [],
    });
  });

  it('a Sentinel URL: its sentinels, declared', () => {
    const { options } = resolveConnection(targetPlan({ url: 'redis-sentinel://s1:26379,s2:26380/mymaster' }), { env: {} });
    assert.deepEqual(options?.network, {
      seeds: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26380 },
      ],
      declared: 'sentinel',
      allowHosts: [],
    });
  });

  it("a profile's `cluster: true` and `allowHosts`, and the user's own hosts (--allow-host), normalised", () => {
    const profiles: Record<string, ConnectionProfile> = { prod: { url: 'redis://10.0.0.5:7000', cluster: true, allowHosts: ['10.0.0.6', 'Redis-3.Internal'] } };
    const { options, error } = resolveConnection(targetPlan({ profile: 'prod' }), { env: {}, profiles, allowHosts: ['[FD00::7]'] });
    assert.equal(error, undefined);
    assert.deepEqual(options?.network, {
      seeds: [{ host: '10.0.0.5', port: 7000 }],
      declared: 'cluster',
      allowHosts: ['10.0.0.6', 'redis-3.internal', 'fd00::7'],
    });
  });

  it('names a bad allowed host and where it came from', () => {
    const profiles = { prod: { url: 'redis://10.0.0.5', allowHosts: ['10.0.0.6:7000'] } } as Record<string, ConnectionProfile>;
    assert.equal(
      resolveConnection(targetPlan({ profile: 'prod' }), { env: {}, profiles }).error,
      'connection profile "prod" "allowHosts": "10.0.0.6:7000" is not a host name or address: give the host alone, such as 10.0.0.6, redis-2.internal or [fd00::6] (no scheme, port or path)',
    );
    const notList = { prod: { url: 'redis://10.0.0.5', allowHosts: '10.0.0.6' } } as unknown as Record<string, ConnectionProfile>;
    assert.equal(
      resolveConnection(targetPlan({ profile: 'prod' }), { env: {}, profiles: notList }).error,
      'connection profile "prod" has "allowHosts" "10.0.0.6": it must be a list of hosts, such as ["10.0.0.6", "10.0.0.7"]',
    );
    assert.match(
      resolveConnection(targetPlan({ url: 'redis://10.0.0.5' }), { env: {}, allowHosts: ['redis://x'] }).error ?? '',
      /^--allow-host: "redis:\/\/x" is not a host name/,
    );
  });

  it('a session with --cluster and --allow-host declares the target a cluster and allows the hosts', async () => {
    const session = new RunSession(
      { env: {}, runsFolder: '/nonexistent', cluster: true, allowHosts: ['10.0.0.6'], userTarget: { value: 'redis://10.0.0.5:7000', override: true } },
      { confirm: async () => false, secret: async () => undefined, log: () => undefined },
    );
    const file = { display: 'x.rbench', text: '### s\nrequests 10\nGET k\n' };
    const resolved = session.resolve(file);
    const prepared = await session.prepare(file, resolved, resolved.scenarios[0]);
    assert.ok(!('kind' in prepared), 'the user named the target (--url): prepared without a question');
    // How execute() resolves the target (before it connects).
    const connection = (session as unknown as { connect(p: unknown): { options?: { network?: unknown; cluster?: boolean } } }).connect(prepared);
    assert.equal(connection.options?.cluster, true);
    assert.deepEqual(connection.options?.network, { seeds: [{ host: '10.0.0.5', port: 7000 }], declared: 'cluster', allowHosts: ['10.0.0.6'] });
  });
});
