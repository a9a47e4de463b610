// Starts a real Redis Cluster for a mocha suite: 3 masters + 3 replicas, each a `redis-server --cluster-enabled
// yes` on a free loopback port with its own temp dir, joined by `redis-cli --cluster create`; stopped after.
// With `tls`, every node listens on a tls-port only (port 0) and the cluster bus and replication use TLS too.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { freePort } from '../../src/redis/localServer';
import { makeCertificate } from './tls';

const run = promisify(execFile);
const START_TRIES = 100; // × 50 ms
const STATE_TRIES = 200; // × 50 ms

export interface ClusterNode {
  port: number;
  process: ChildProcess;
  dir: string;
}

export interface TestCluster {
  nodes: ClusterNode[];
  /** `redis://127.0.0.1:port` (`rediss://` with TLS) of the first node (a seed). */
  url: string;
  /** With TLS: the folder holding ca.pem (what clients trust), and cert.pem and key.pem of the nodes after the first. */
  certDir?: string;
  /** A control connection to `port`; closed when the cluster stops. */
  client(port: number): Redis;
  /** Ports of the masters and of the replicas, as the cluster sees them now. */
  roles(): Promise<{ masters: number[]; replicas: number[] }>;
  stop(): Promise<void>;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A free port whose cluster bus port (port + 10000) is free as well. */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = await freePort();
    if (port + 10000 < 65536 && !taken.has(port) && (await portFree(port + 10000))) return port;
  }
  throw new Error('no free port pair (port, port + 10000) on 127.0.0.1 for a cluster node');
}

/** ioredis's `tls` option for a node of a cluster whose CA bundle is in `caDir` (none without TLS); no name check, as names differ per test. */
function tlsOption(caDir: string | undefined) {
  return caDir ? { tls: { ca: readFileSync(join(caDir, 'ca.pem')), checkServerIdentity: () => undefined } } : {};
}

async function answers(port: number, certDir: string | undefined): Promise<boolean> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, ...tlsOption(certDir) });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Config lines for a TLS-only node: no plain port; the cluster bus (tls-port + 10000) and replication on TLS. */
function tlsConfig(port: number, certDir: string, caDir: string): string[] {
  return [
    'port 0',
    `tls-port ${port}`,
    `tls-cert-file ${join(certDir, 'cert.pem')}`,
    `tls-key-file ${join(certDir, 'key.pem')}`,
    `tls-ca-cert-file ${join(caDir, 'ca.pem')}`,
    // Nodes present their certificate to each other on the bus and for replication; clients need none.
    'tls-auth-clients no',
    'tls-cluster yes',
    'tls-replication yes',
  ];
}

interface NodeSetup {
  nodeTimeoutMs: number;
  /** Folder of this node's cert.pem and key.pem, and of the CA bundle every node trusts (ca.pem); none without TLS. */
  certDir?: string;
  caDir?: string;
  announceHostname?: string;
  modules?: string[];
}

async function startNode(port: number, setup: NodeSetup): Promise<ClusterNode> {
  const { nodeTimeoutMs, caDir } = setup;
  const trustDir = setup.certDir ? caDir : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'rbench-cluster-'));
  const conf = join(dir, 'redis.conf');
  const listen = setup.certDir && caDir ? tlsConfig(port, setup.certDir, caDir) : [`port ${port}`];
  if (setup.announceHostname) listen.push(`cluster-announce-hostname ${setup.announceHostname}`);
  for (const module of setup.modules ?? []) listen.push(`loadmodule ${module}`);
  writeFileSync(
    conf,
    [
      ...listen,
      'bind 127.0.0.1',
      `dir ${dir}`,
      'cluster-enabled yes',
      `cluster-node-timeout ${nodeTimeoutMs}`,
      'save ""',
      'appendonly no',
      'enable-debug-command yes',
    ].join('\n') + '\n',
  );
  const child = spawn('redis-server', [conf], { stdio: 'ignore' });
  for (let i = 0; i < START_TRIES && !(await answers(port, trustDir)); i++) await sleep(50);
  if (!(await answers(port, trustDir))) {
    child.kill('SIGKILL');
    throw new Error(`cluster node on 127.0.0.1:${port} did not start`);
  }
  return { port, process: child, dir };
}

/** `cluster_state:ok` on every node and every node knows all the others. */
async function waitForState(clients: Redis[], nodes: number): Promise<void> {
  for (let i = 0; i < STATE_TRIES; i++) {
    const infos = await Promise.all(clients.map((c) => c.cluster('INFO') as Promise<string>));
    if (infos.every((info) => info.includes('cluster_state:ok') && info.includes(`cluster_known_nodes:${nodes}`))) return;
    await sleep(50);
  }
  throw new Error(`the test cluster did not reach cluster_state:ok within ${(STATE_TRIES * 50) / 1000} s`);
}

export interface ClusterOptions {
  /** `cluster-node-timeout` (2000 unless given): how long a silent master lasts before its replica takes over. */
  nodeTimeoutMs?: number;
  /** TLS on every node (certificates made here, removed when the cluster stops). */
  tls?: boolean;
  /** With TLS: subjectAltNames of the first node's certificate and of the others' (one shared certificate unless given). */
  tlsNames?: { seed: string; others: string };
  /** `cluster-announce-hostname` of every node (shown in CLUSTER SHARDS as `hostname`). */
  announceHostname?: string;
  /** Redis modules every node loads (`loadmodule`). */
  modules?: string[];
}

export async function startCluster(masters = 3, replicasPerMaster = 1, options: ClusterOptions = {}): Promise<TestCluster> {
  const taken = new Set<number>();
  const nodes: ClusterNode[] = [];
  const clients = new Map<number, Redis>();
  const certDir = options.tls ? makeCertificate(options.tlsNames?.others) : undefined;
  const seedCertDir = certDir && options.tlsNames ? makeCertificate(options.tlsNames.seed) : certDir;
  // The CA bundle every node and client trusts: each self-signed certificate is its own CA.
  if (certDir) writeFileSync(join(certDir, 'ca.pem'), [...new Set([certDir, seedCertDir!])].map((d) => readFileSync(join(d, 'cert.pem'), 'utf8')).join(''));
  const stop = async () => {
    for (const client of clients.values()) client.disconnect();
    await Promise.all(
      nodes.map(
        (node) =>
          new Promise<void>((resolve) => {
            if (node.process.exitCode !== null || node.process.signalCode !== null) return resolve();
            node.process.once('exit', () => resolve());
            node.process.kill('SIGCONT');
            node.process.kill('SIGKILL');
          }),
      ),
    );
    for (const node of nodes) rmSync(node.dir, { recursive: true, force: true });
    for (const folder of new Set([certDir, seedCertDir])) if (folder) rmSync(folder, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters * (1 + replicasPerMaster); i++) {
      const port = await freeClusterPort(taken);
      taken.add(port);
      const setup = {
        nodeTimeoutMs: options.nodeTimeoutMs ?? 2000,
        certDir: i === 0 ? seedCertDir : certDir,
        caDir: certDir,
        announceHostname: options.announceHostname,
        modules: options.modules,
      };
      nodes.push(await startNode(port, setup));
    }
    const addresses = nodes.map((n) => `127.0.0.1:${n.port}`);
    const cliTls = certDir ? ['--tls', '--cacert', join(certDir, 'ca.pem')] : [];
    await run('redis-cli', [...cliTls, '--cluster', 'create', ...addresses, '--cluster-replicas', String(replicasPerMaster), '--cluster-yes'], {
      timeout: 30_000,
    });
    const client = (port: number) => {
      let redis = clients.get(port);
      if (!redis) {
        clients.set(port, (redis = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1, ...tlsOption(certDir) })));
        // A node a test killed: its client's reconnect errors are expected, not news.
        redis.on('error', () => undefined);
      }
      return redis;
    };
    await waitForState(
      nodes.map((n) => client(n.port)),
      nodes.length,
    );
    const roles = async () => {
      const result = { masters: [] as number[], replicas: [] as number[] };
      for (const node of nodes) {
        const info = (await client(node.port).info('replication')) as string;
        (info.includes('role:master') ? result.masters : result.replicas).push(node.port);
      }
      return result;
    };
    // Replicas must have synced before a test reads from them. CLUSTER SLOTS (what ioredis reads) leaves out
    // replicas at replication offset 0, so every master replicates one write (FLUSHALL) first.
    for (const port of (await roles()).masters) await client(port).flushall();
    for (let i = 0; i < STATE_TRIES; i++) {
      const ranges = (await client(nodes[0].port).cluster('SLOTS')) as unknown[][];
      if (ranges.length > 0 && ranges.every((range) => range.length - 3 === replicasPerMaster)) break;
      await sleep(50);
    }
    const url = `${certDir ? 'rediss' : 'redis'}://127.0.0.1:${nodes[0].port}`;
    return { nodes, url, ...(certDir ? { certDir } : {}), client, roles, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Call inside a `describe`: a cluster started before the suite and stopped after it. */
export function useCluster(masters = 3, replicasPerMaster = 1, options: ClusterOptions = {}): () => TestCluster {
  let cluster: TestCluster | undefined;
  before(async function () {
    this.timeout(60_000);
    cluster = await startCluster(masters, replicasPerMaster, options);
  });
  after(async () => {
    await cluster?.stop();
  });
  return () => {
    if (!cluster) throw new Error('the test cluster is not started yet (use it inside a test or hook)');
    return cluster;
  };
}

/** Moves `slots` slots from one master to another with `redis-cli --cluster reshard` (what an operator runs); `signal` kills it. */
export async function reshard(seedPort: number, fromId: string, toId: string, slots: number, signal?: AbortSignal): Promise<void> {
  await run(
    'redis-cli',
    ['--cluster', 'reshard', `127.0.0.1:${seedPort}`, '--cluster-from', fromId, '--cluster-to', toId, '--cluster-slots', String(slots), '--cluster-yes'],
    { timeout: 60_000, signal },
  );
}
