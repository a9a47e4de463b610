// The network gate's rule (src/gates/network.ts): every branch, the exact messages, and properties over
// random seeds, hosts and ports.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  ApprovedNodes,
  approvedNodes,
  formatAddress,
  isLoopbackHost,
  networkRuleFor,
  NodeRefusedError,
  normaliseHost,
  readAllowedHost,
  withNetworkRule,
  type NetworkRule,
} from '../../../src/gates/network';

const gate = (rule: Partial<NetworkRule> & Pick<NetworkRule, 'seeds'>) => new ApprovedNodes({ allowHosts: [], ...rule });
const remote = { host: '10.0.0.5', port: 6379 };

describe('network gate: host names', () => {
  it('normalises case, brackets, a trailing dot and spaces', () => {
    assert.equal(normaliseHost('Redis.Example.COM'), 'redis.example.com');
    assert.equal(normaliseHost('[::1]'), '::1');
    assert.equal(normaliseHost('redis.internal.'), 'redis.internal');
    assert.equal(normaliseHost(' 10.0.0.5 '), '10.0.0.5');
    assert.equal(normaliseHost('10.0.0.5'), '10.0.0.5');
  });

  it('writes IPv6 addresses in their canonical form, IPv4-mapped ones as IPv4', () => {
    assert.equal(normaliseHost('0:0:0:0:0:0:0:1'), '::1');
    assert.equal(normaliseHost('FD00:0:0::6'), 'fd00::6');
    assert.equal(normaliseHost('::ffff:10.0.0.5'), '10.0.0.5');
    assert.equal(normaliseHost('[::FFFF:7f00:1]'), '127.0.0.1');
    assert.equal(normaliseHost('::ffff:1'), '::ffff:1');
    assert.equal(normaliseHost('fe80::1%eth0'), 'fe80::1%eth0');
    // Only an address that is ::ffff: and two groups, whole, is IPv4-mapped; a low group of up to 4 digits.
    assert.equal(normaliseHost('::ffff:127.0.1.1'), '127.0.1.1');
    assert.equal(normaliseHost('::FFFF:c0a8:101'), '192.168.1.1');
    assert.equal(normaliseHost('1::ffff:7f00:1'), '1::ffff:7f00:1');
    assert.equal(normaliseHost('::ffff:a:b:c'), '::ffff:a:b:c');
  });

  it('removes brackets only when they enclose the whole host', () => {
    assert.equal(normaliseHost('x[::1]'), 'x[::1]');
    assert.equal(normaliseHost('[::1]x'), '[::1]x');
    assert.equal(normaliseHost('[redis]'), 'redis');
  });

  it('reads the IPv4 forms a socket connects to, and leaves names that only look like numbers alone', () => {
    assert.equal(normaliseHost('127.1'), '127.0.0.1');
    assert.equal(normaliseHost('0x7f.0.0.1'), '127.0.0.1');
    assert.equal(normaliseHost('2130706433'), '127.0.0.1');
    assert.equal(normaliseHost('1.2.3'), '1.2.0.3');
    assert.equal(normaliseHost('cafe'), 'cafe');
    assert.equal(normaliseHost('999.1.1.1'), '999.1.1.1');
    assert.equal(normaliseHost('deadbeef.'), 'deadbeef');
  });

  it('knows the hosts that are this machine', () => {
    for (const host of [
      'localhost',
      'LOCALHOST',
      'db.localhost',
      '127.0.0.1',
      '127.255.0.9',
      '127.1',
      '0.0.0.0',
      '::1',
      '[::1]',
      '::',
      '::ffff:127.0.0.2',
      '2130706433',
    ]) {
      assert.equal(isLoopbackHost(host), true, host);
    }
    for (const host of ['10.0.0.1', '128.0.0.1', '126.0.0.1', '::2', 'mylocalhost', 'localhost.example', 'fd00::1', '1.0.0.0', 'redis']) {
      assert.equal(isLoopbackHost(host), false, host);
    }
  });

  it('writes an address with an IPv6 host in brackets', () => {
    assert.equal(formatAddress({ host: 'fd00::6', port: 7000 }), '[fd00::6]:7000');
    assert.equal(formatAddress({ host: '10.0.0.6', port: 7000 }), '10.0.0.6:7000');
  });

  it('reads a host the user allows, or says why it is none', () => {
    assert.equal(readAllowedHost('Redis-2.Internal'), 'redis-2.internal');
    assert.equal(readAllowedHost('[fd00::6]'), 'fd00::6');
    assert.equal(readAllowedHost('fd00::6'), 'fd00::6');
    assert.equal(readAllowedHost('10.0.0.6'), '10.0.0.6');
    const fix = 'give the host alone, such as 10.0.0.6, redis-2.internal or [fd00::6] (no scheme, port or path)';
    for (const bad of ['', ' ', 'a b', 'redis://10.0.0.6', '10.0.0.6:6379', '10.0.0.6/24', 'u@h', 'h?x', 'h#x', '[h', 'h]', 'redis:x']) {
      assert.deepEqual(readAllowedHost(bad), { error: `"${bad}" is not a host name or address: ${fix}` }, bad);
    }
    assert.deepEqual(readAllowedHost(6379), { error: 'an allowed host must be text, such as "10.0.0.6" (got 6379)' });
    assert.deepEqual(readAllowedHost(undefined), { error: 'an allowed host must be text, such as "10.0.0.6" (got undefined)' });
    assert.deepEqual(readAllowedHost(['h']), { error: 'an allowed host must be text, such as "10.0.0.6" (got ["h"])' });
    assert.deepEqual(readAllowedHost(Symbol('h')), { error: 'an allowed host must be text, such as "10.0.0.6" (got Symbol(h))' });
    for (const bad of ['h[x]', '[h]x']) {
      assert.deepEqual(readAllowedHost(bad), { error: `"${bad}" is not a host name or address: ${fix}` }, bad);
    }
  });
});

describe('network gate: the rule of a target', () => {
  it('takes host:port as the seed, a Sentinel target its sentinels, and says what the user declared', () => {
    assert.deepEqual(networkRuleFor({ host: '10.0.0.5', port: 6379 }), { seeds: [remote], allowHosts: [] });
    assert.deepEqual(networkRuleFor({ host: '10.0.0.5', port: 6379, cluster: true }, ['10.0.0.6', '10.0.0.6']), {
      seeds: [remote],
      declared: 'cluster',
      allowHosts: ['10.0.0.6'],
    });
    const sentinel = {
      nodes: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26380 },
      ],
    };
    assert.deepEqual(networkRuleFor({ host: 'primary', port: 6379, cluster: true, sentinel }), { seeds: sentinel.nodes, declared: 'sentinel', allowHosts: [] });
  });

  it('fixes the rule once: a target that has one keeps it', () => {
    const fixed = withNetworkRule({ host: '10.0.0.5', port: 6379 });
    assert.deepEqual(fixed.network, { seeds: [remote], allowHosts: [] });
    // Turning cluster mode on afterwards (a detected cluster) does not declare it.
    const switched = withNetworkRule({ ...fixed, cluster: true });
    assert.equal(switched.network, fixed.network);
    assert.equal(approvedNodes(switched).allows('10.0.0.5', 7000), false);
    assert.equal(approvedNodes({ host: '10.0.0.5', port: 6379, cluster: true }).allows('10.0.0.5', 7000), true);
  });

  it('refusals are errors of their own kind', () => {
    const error = new NodeRefusedError('no');
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'NodeRefusedError');
  });
});

describe('network gate: which nodes are approved', () => {
  it('a single server: the seed only, and hosts the user allowed', () => {
    const single = gate({ seeds: [remote] });
    assert.equal(single.allows('10.0.0.5', 6379), true);
    assert.equal(single.allows('10.0.0.5', 6380), false);
    assert.equal(single.allows('10.0.0.6', 6379), false);
    const allowing = gate({ seeds: [remote], allowHosts: ['10.0.0.6'] });
    assert.equal(allowing.allows('10.0.0.6', 7000), true);
    assert.equal(allowing.allows('10.0.0.5', 6380), false);
  });

  it('a declared cluster: any port on the seed host, allowed hosts, nothing else', () => {
    const cluster = gate({ seeds: [remote], declared: 'cluster', allowHosts: ['Redis-2.internal'] });
    assert.equal(cluster.allows('10.0.0.5', 7005), true);
    assert.equal(cluster.allows('[10.0.0.5]', 7005), true);
    assert.equal(cluster.allows('redis-2.internal.', 7000), true);
    assert.equal(cluster.allows('10.0.0.6', 6379), false);
  });

  it('a Sentinel target: the sentinels, and a primary on their hosts or an allowed one', () => {
    const sentinel = gate({
      seeds: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      declared: 'sentinel',
    });
    assert.equal(sentinel.allows('s2', 6379), true);
    assert.equal(sentinel.allows('S1', 6380), true);
    assert.equal(sentinel.allows('s3', 6379), false);
    assert.equal(gate({ seeds: [{ host: 'Redis.Internal.', port: 7000 }] }).allows('redis.internal', 7000), true);
  });

  it('never a loopback node when no seed is loopback, even an allowed one', () => {
    const cluster = gate({ seeds: [remote], declared: 'cluster', allowHosts: ['127.0.0.1', 'localhost'] });
    for (const host of ['127.0.0.1', 'localhost', '::1', '0.0.0.0', '127.0.0.2']) assert.equal(cluster.allows(host, 6379), false, host);
  });

  it('a loopback seed: loopback is a host like any other (127.0.0.2 is not 127.0.0.1), localhost is 127.0.0.1 and ::1', () => {
    const local = gate({ seeds: [{ host: 'localhost', port: 7000 }], declared: 'cluster' });
    assert.equal(local.allows('127.0.0.1', 7001), true);
    assert.equal(local.allows('::1', 7001), true);
    assert.equal(local.allows('127.0.0.2', 7001), false);
    assert.equal(gate({ seeds: [{ host: '127.0.0.1', port: 7000 }] }).allows('localhost', 7000), true);
    assert.equal(gate({ seeds: [{ host: '127.0.0.1', port: 7000 }] }).allows('localhost', 7001), false);
    assert.equal(gate({ seeds: [{ host: '127.0.0.1', port: 7000 }], allowHosts: ['127.0.0.2'] }).allows('127.0.0.2', 1), true);
    // One loopback seed among remote ones is enough: the target is on this machine too.
    const mixed = gate({ seeds: [remote, { host: 'localhost', port: 7000 }], declared: 'cluster' });
    assert.equal(mixed.allows('127.0.0.1', 7001), true);
    assert.match(mixed.check('127.0.0.2', 7001) ?? '', /^the server names 127\.0\.0\.2:7001 \(not on 10\.0\.0\.5, localhost, the hosts the target names\)/);
  });

  it('check and refusal: undefined for approved nodes', () => {
    const cluster = gate({ seeds: [remote], declared: 'cluster' });
    assert.equal(cluster.check('10.0.0.5', 7000), undefined);
    assert.equal(cluster.refusal([], 'the cluster announces'), undefined);
    assert.equal(cluster.refusal([remote, { host: '10.0.0.5', port: 7001 }], 'the cluster announces'), undefined);
  });
});

describe('network gate: messages', () => {
  const fixAllow = 'allow their hosts with `--allow-host HOST` (once per host) or `"allowHosts": ["HOST", …]` in the connection profile';

  it('an undeclared cluster: the nodes, why, and how to declare it', () => {
    const single = gate({ seeds: [remote] });
    assert.equal(
      single.refusal([remote, { host: '10.0.0.5', port: 7001 }, { host: '10.0.0.6', port: 7002 }, { host: '10.0.0.6', port: 7002 }], 'X announces'),
      'X announces 10.0.0.5:7001, 10.0.0.6:7002 (the target 10.0.0.5:6379 was not declared a cluster, so no other node is reached), which RBench may not contact: ' +
        'it connects only to servers you named, and sent nothing there. If it is your cluster, declare it: `cluster on` in the scenario, `--cluster` on the command line or ' +
        `\`"cluster": true\` in the connection profile (its nodes on 10.0.0.5 are then reached); for nodes on other hosts, ${fixAllow}.`,
    );
  });

  it('a declared cluster: the hosts it may be on, the allowed ones, and how to allow more', () => {
    assert.equal(
      gate({ seeds: [remote], declared: 'cluster' }).check('10.0.0.6', 7000, 'the cluster announces'),
      'the cluster announces 10.0.0.6:7000 (not on 10.0.0.5, the host the target names), which RBench may not contact: it connects only to servers you named, and sent nothing there. ' +
        `To reach them, ${fixAllow}.`,
    );
    assert.equal(
      gate({
        seeds: [
          { host: 's1', port: 26379 },
          { host: 'fd00::1', port: 26379 },
        ],
        declared: 'sentinel',
        allowHosts: ['10.0.0.7', 'fd00::7'],
      }).check('10.0.0.6', 6379),
      'the server names 10.0.0.6:6379 (not on s1, [fd00::1], the hosts the target names, nor an allowed host (10.0.0.7, [fd00::7])), which RBench may not contact: ' +
        `it connects only to servers you named, and sent nothing there. To reach them, ${fixAllow}.`,
    );
    assert.match(
      gate({ seeds: [remote], allowHosts: ['10.0.0.7'] }).check('10.0.0.6', 1) ?? '',
      /no other node is reached, nor an allowed host \(10\.0\.0\.7\)\)/,
    );
  });

  it('a loopback node from a remote target: said apart, without a fix (none can approve it)', () => {
    const cluster = gate({ seeds: [remote], declared: 'cluster' });
    assert.equal(
      cluster.check('127.0.0.1', 6379, 'a MOVED reply names'),
      'a MOVED reply names 127.0.0.1:6379 (on this machine, while the target is not: a remote server is never followed to a loopback address), which RBench may not contact: ' +
        'it connects only to servers you named, and sent nothing there.',
    );
    assert.equal(
      cluster.refusal(
        [
          { host: '::1', port: 1 },
          { host: '10.0.0.9', port: 2 },
        ],
        'L',
      ),
      'L 10.0.0.9:2 (not on 10.0.0.5, the host the target names) and [::1]:1 (on this machine, while the target is not: a remote server is never followed to a loopback address), ' +
        `which RBench may not contact: it connects only to servers you named, and sent nothing there. To reach them, ${fixAllow}.`,
    );
  });

  it('describe: what the rule lets RBench reach, for the consent question', () => {
    assert.equal(gate({ seeds: [remote] }).describe(), '10.0.0.5:6379 only');
    assert.equal(gate({ seeds: [remote], allowHosts: ['10.0.0.6'] }).describe(), '10.0.0.5:6379, and nodes on 10.0.0.6 (allowed hosts)');
    assert.equal(gate({ seeds: [remote], declared: 'cluster' }).describe(), '10.0.0.5:6379, and nodes on 10.0.0.5 the cluster announces');
    assert.equal(
      gate({ seeds: [remote], declared: 'cluster', allowHosts: ['10.0.0.6', 'fd00::6'] }).describe(),
      '10.0.0.5:6379, and nodes on 10.0.0.5 the cluster announces, and nodes on 10.0.0.6, [fd00::6] (allowed hosts)',
    );
    assert.equal(
      gate({
        seeds: [
          { host: 's1', port: 26379 },
          { host: 's2', port: 26379 },
        ],
        declared: 'sentinel',
      }).describe(),
      'sentinels s1:26379, s2:26379, and a primary they name on s1, s2',
    );
    assert.equal(
      gate({ seeds: [{ host: 'S1', port: 26379 }], declared: 'sentinel', allowHosts: ['10.0.0.8'] }).describe(),
      'sentinels s1:26379, and a primary they name on s1, and nodes on 10.0.0.8 (allowed hosts)',
    );
  });
});

describe('network gate: properties', () => {
  const hostPool = [
    '10.0.0.5',
    '10.0.0.6',
    'redis.internal',
    'Redis.Internal',
    '127.0.0.1',
    '127.0.0.2',
    'localhost',
    '::1',
    '[::1]',
    'fd00::6',
    '0.0.0.0',
    'db.localhost',
    '::ffff:10.0.0.5',
  ];
  const host = fc.constantFrom(...hostPool);
  const port = fc.integer({ min: 1, max: 65535 });
  const node = fc.record({ host, port });
  const rule = fc.record({
    seeds: fc.array(node, { minLength: 1, maxLength: 3 }),
    declared: fc.constantFrom(undefined, 'cluster' as const, 'sentinel' as const),
    allowHosts: fc.array(host, { maxLength: 3 }),
  });
  const asRule = (r: { seeds: { host: string; port: number }[]; declared?: 'cluster' | 'sentinel'; allowHosts: string[] }): NetworkRule =>
    r.declared ? { seeds: r.seeds, declared: r.declared, allowHosts: r.allowHosts } : { seeds: r.seeds, allowHosts: r.allowHosts };

  it('a seed is always approved', () => {
    fc.assert(
      fc.property(rule, (r) => {
        const approved = new ApprovedNodes(asRule(r));
        for (const seed of r.seeds) assert.equal(approved.allows(seed.host, seed.port), true);
      }),
    );
  });

  it('a loopback node is never approved when no seed is loopback', () => {
    fc.assert(
      fc.property(rule, node, (r, n) => {
        fc.pre(r.seeds.every((s) => !isLoopbackHost(s.host)) && isLoopbackHost(n.host));
        assert.equal(new ApprovedNodes(asRule(r)).allows(n.host, n.port), false);
      }),
    );
  });

  it('an undeclared target with no allowed host reaches no node but its seeds', () => {
    fc.assert(
      fc.property(rule, node, (r, n) => {
        const approved = new ApprovedNodes({ seeds: r.seeds, allowHosts: [] });
        const isSeed = r.seeds.some((s) => s.port === n.port && new ApprovedNodes({ seeds: [s], allowHosts: [] }).allows(n.host, n.port));
        assert.equal(approved.allows(n.host, n.port), isSeed);
      }),
    );
  });

  it('a refusal names every refused node and no approved one; check agrees with allows', () => {
    fc.assert(
      fc.property(rule, fc.array(node, { maxLength: 6 }), (r, nodes) => {
        const approved = new ApprovedNodes(asRule(r));
        const refusal = approved.refusal(nodes, 'N');
        const refused = nodes.filter((n) => !approved.allows(n.host, n.port));
        assert.equal(refusal === undefined, refused.length === 0);
        // The lists: after the opening word, and after ") and " (the loopback part), up to their " (why)".
        const lists = [...(refusal ?? '').matchAll(/(?:^N |\) and )([^()]+?) \(/g)].flatMap((m) => m[1].split(', '));
        for (const n of nodes) {
          const listed = lists.includes(formatAddress({ host: normaliseHost(n.host), port: n.port }));
          assert.equal(listed, !approved.allows(n.host, n.port), `${formatAddress(n)} in ${refusal}`);
          assert.equal(approved.check(n.host, n.port) === undefined, approved.allows(n.host, n.port));
        }
      }),
    );
  });
});
