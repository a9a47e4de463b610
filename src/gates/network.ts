// The network gate: which servers RBench may open a connection to. Built from the target before any contact
// (the seed host:port, or a Sentinel target's sentinels; whether the user declared a cluster or Sentinel;
// the hosts the user allowed), so that an address a server announces (CLUSTER SHARDS/SLOTS, MOVED, ASK,
// the primary a sentinel names) is contacted only when the user approved it. Plain data (NetworkRule)
// travels to the engine's worker threads; ApprovedNodes applies it. Node builtins only; no DNS lookups:
// names are compared as written, normalised.
import { isIPv4, isIPv6 } from 'node:net';

export interface NodeAddress {
  host: string;
  port: number;
}

/** The rule as plain data (structured-clone safe): what the user named and approved. */
export interface NetworkRule {
  /** The target's host:port, or a Sentinel target's sentinels: always approved. */
  seeds: NodeAddress[];
  /** The user declared a target of several nodes: its nodes on the seeds' hosts are approved too. Absent: one server. */
  declared?: 'cluster' | 'sentinel';
  /** Further hosts the user approved (`--allow-host`, a profile's `allowHosts`), normalised. */
  allowHosts: string[];
}

/** The parts of a target the default rule is read from (src/redis/types.ts ConnectionOptions has them). */
export interface RuleSource {
  host: string;
  port: number;
  cluster?: boolean;
  sentinel?: { nodes: readonly NodeAddress[] };
  network?: NetworkRule;
}

/** Host names the system resolves to itself without DNS: `localhost` is the same host as 127.0.0.1 and ::1. */
const LOCALHOST_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

/**
 * The host as compared: lower case, without IPv6 brackets or a trailing dot; IPv4 and IPv6 addresses in
 * their canonical form (`127.1` → `127.0.0.1`, `0:0::1` → `::1`, `::ffff:10.0.0.5` → `10.0.0.5`).
 */
export function normaliseHost(host: string): string {
  let bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  // Every IPv6 form holds a colon; asking isIPv6 only then spares most runs the compilation of its large
  // regular expression (~3 ms of CPU at the first call).
  if (bare.includes(':') && isIPv6(bare)) {
    // A zone (`fe80::1%eth0`) is no URL host: such an address is compared as written.
    if (bare.includes('%')) return bare;
    bare = new URL(`http://[${bare}]`).hostname.slice(1, -1);
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(bare);
    if (mapped) {
      const high = parseInt(mapped[1], 16);
      const low = parseInt(mapped[2], 16);
      bare = `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
    }
    return bare;
  }
  // The URL parser reads the IPv4 forms a socket would connect to (127.1, 0x7f.0.0.1, 2130706433).
  if (/^[0-9a-fx.]+$/.test(bare) && !isIPv4(bare)) {
    try {
      const parsed = new URL(`http://${bare}`).hostname;
      if (isIPv4(parsed)) return parsed;
    } catch {
      // Not an address: compared as written.
    }
  }
  return bare;
}

/** Hosts that are this machine: localhost names, 127.0.0.0/8, ::1, and the unspecified 0.0.0.0 / :: (a connect there reaches this machine). */
export function isLoopbackHost(host: string): boolean {
  const bare = normaliseHost(host);
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIPv4(bare)) return bare.startsWith('127.') || bare === '0.0.0.0';
  return bare === '::1' || bare === '::';
}

/** The same host for the gate: equal once normalised, and the localhost names are one host. */
function sameHost(a: string, b: string): boolean {
  return a === b || (LOCALHOST_NAMES.has(a) && LOCALHOST_NAMES.has(b));
}

/** `host:port`, an IPv6 host in brackets. */
export function formatAddress(node: NodeAddress): string {
  return `${node.host.includes(':') ? `[${node.host}]` : node.host}:${node.port}`;
}

/**
 * A host the user allows (`--allow-host`, `allowHosts`), normalised; or why it is not one. A host only: no
 * scheme, port, path or spaces.
 */
export function readAllowedHost(text: unknown): string | { error: string } {
  if (typeof text !== 'string') return { error: `an allowed host must be text, such as "10.0.0.6" (got ${JSON.stringify(text) ?? String(text)})` };
  const host = normaliseHost(text);
  const ipv6 = isIPv6(host);
  if (host === '' || /[\s/@?#[\]]/.test(host) || (!ipv6 && host.includes(':'))) {
    return { error: `"${text}" is not a host name or address: give the host alone, such as 10.0.0.6, redis-2.internal or [fd00::6] (no scheme, port or path)` };
  }
  return host;
}

/** The rule of a target read from its settings before any contact. `allowHosts` must be normalised (readAllowedHost). */
export function networkRuleFor(source: RuleSource, allowHosts: readonly string[] = []): NetworkRule {
  const seeds = source.sentinel ? source.sentinel.nodes.map((n) => ({ host: n.host, port: n.port })) : [{ host: source.host, port: source.port }];
  const rule: NetworkRule = { seeds, allowHosts: [...new Set(allowHosts)] };
  if (source.sentinel) rule.declared = 'sentinel';
  else if (source.cluster) rule.declared = 'cluster';
  return rule;
}

/** The target with its rule fixed (kept when it has one): call before the first contact, and before settings change (a detected cluster, a Sentinel's primary). */
export function withNetworkRule<T extends RuleSource>(source: T): T & { network: NetworkRule } {
  return source.network ? (source as T & { network: NetworkRule }) : { ...source, network: networkRuleFor(source) };
}

/** The gate of a target: its own rule, else the rule its settings give. */
export function approvedNodes(source: RuleSource): ApprovedNodes {
  return new ApprovedNodes(source.network ?? networkRuleFor(source));
}

/** A connection the network gate refused: the message names the node(s) and the fix; trying again cannot mend it. */
export class NodeRefusedError extends Error {
  override name = 'NodeRefusedError';
}

type Verdict = 'seed' | 'approved' | 'loopback' | 'refused';

export class ApprovedNodes {
  private readonly seeds: NodeAddress[];
  private readonly seedHosts: string[];
  private readonly allowHosts: string[];
  private readonly seedOnLoopback: boolean;

  constructor(readonly rule: NetworkRule) {
    this.seeds = rule.seeds.map((n) => ({ host: normaliseHost(n.host), port: n.port }));
    this.seedHosts = [...new Set(this.seeds.map((n) => n.host))];
    this.allowHosts = rule.allowHosts.map(normaliseHost);
    this.seedOnLoopback = this.seeds.some((n) => isLoopbackHost(n.host));
  }

  private verdict(host: string, port: number): Verdict {
    const bare = normaliseHost(host);
    if (this.seeds.some((seed) => seed.port === port && sameHost(seed.host, bare))) return 'seed';
    if (!this.seedOnLoopback && isLoopbackHost(bare)) return 'loopback';
    if (this.allowHosts.some((allowed) => sameHost(allowed, bare))) return 'approved';
    if (this.rule.declared !== undefined && this.seedHosts.some((seed) => sameHost(seed, bare))) return 'approved';
    return 'refused';
  }

  /** True when RBench may connect to host:port. */
  allows(host: string, port: number): boolean {
    const verdict = this.verdict(host, port);
    return verdict === 'seed' || verdict === 'approved';
  }

  /** Undefined when host:port may be contacted; else the refusal, naming the node and the fix. */
  check(host: string, port: number, what = 'the server names'): string | undefined {
    return this.refusal([{ host, port }], what);
  }

  /**
   * Undefined when every node may be contacted; else one refusal listing those that may not, why, and the
   * fix. `what` starts the message: "the cluster at 10.0.0.5:6379 announces".
   */
  refusal(nodes: readonly NodeAddress[], what: string): string | undefined {
    const seen = new Set<string>();
    const loopback: string[] = [];
    const refused: string[] = [];
    for (const node of nodes) {
      const shown = formatAddress({ host: normaliseHost(node.host), port: node.port });
      if (seen.has(shown)) continue;
      seen.add(shown);
      const verdict = this.verdict(node.host, node.port);
      if (verdict === 'loopback') loopback.push(shown);
      else if (verdict === 'refused') refused.push(shown);
    }
    if (loopback.length === 0 && refused.length === 0) return undefined;
    const parts: string[] = [];
    if (refused.length > 0) parts.push(`${refused.join(', ')} (${this.refusedBecause()})`);
    if (loopback.length > 0) {
      parts.push(`${loopback.join(', ')} (on this machine, while the target is not: a remote server is never followed to a loopback address)`);
    }
    const fix = refused.length > 0 ? ` ${this.fix()}` : '';
    return `${what} ${parts.join(' and ')}, which RBench may not contact: it connects only to servers you named, and sent nothing there.${fix}`;
  }

  private refusedBecause(): string {
    if (this.rule.declared === undefined) {
      return `the target ${this.seedList()} was not declared a cluster, so no other node is reached${this.allowedClause()}`;
    }
    return `not on ${this.hostList(this.seedHosts)}, the host${this.seedHosts.length > 1 ? 's' : ''} the target names${this.allowedClause()}`;
  }

  private allowedClause(): string {
    return this.allowHosts.length > 0 ? `, nor an allowed host (${this.hostList(this.allowHosts)})` : '';
  }

  private fix(): string {
    const allow = 'allow their hosts with `--allow-host HOST` (once per host) or `"allowHosts": ["HOST", …]` in the connection profile';
    if (this.rule.declared === undefined) {
      return (
        `If it is your cluster, declare it: \`cluster on\` in the scenario, \`--cluster\` on the command line or \`"cluster": true\` in the connection profile ` +
        `(its nodes on ${this.hostList(this.seedHosts)} are then reached); for nodes on other hosts, ${allow}.`
      );
    }
    return `To reach them, ${allow}.`;
  }

  /** What the rule lets RBench reach, for the consent question: "10.0.0.5:6379, and nodes on 10.0.0.5 the cluster announces". */
  describe(): string {
    const allowed = this.allowHosts.length > 0 ? `, and nodes on ${this.hostList(this.allowHosts)} (allowed hosts)` : '';
    if (this.rule.declared === 'sentinel') {
      return `sentinels ${this.seedList()}, and a primary they name on ${this.hostList(this.seedHosts)}${allowed}`;
    }
    if (this.rule.declared === 'cluster') return `${this.seedList()}, and nodes on ${this.hostList(this.seedHosts)} the cluster announces${allowed}`;
    return allowed ? `${this.seedList()}${allowed}` : `${this.seedList()} only`;
  }

  private seedList(): string {
    return this.seeds.map(formatAddress).join(', ');
  }

  private hostList(hosts: readonly string[]): string {
    return hosts.map((host) => (host.includes(':') ? `[${host}]` : host)).join(', ');
  }
}
