// The two clients of bench/physics.mjs, run inside the namespace through the shaped loopback, and the
// server's own count of what they sent. Each returns { ops, minMs, p50Ms, p99Ms, p999Ms, maxMs, requests }.
import { existsSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const KEYSPACE = 100_000;
const COMMAND = { get: 'GET key:__rand_int__', set: 'SET key:__rand_int__ __value__' };

/** `rbench run` on a generated scenario (duration or request count), read from its --json output. */
export async function runRbench(ns, { cli, port, test, clients, pipeline, durationS, requests }) {
  const dir = mkdtempSync(join(ns.dir, 'rbench-'));
  try {
    const file = join(dir, 'physics.rbench');
    const length = requests ? `requests ${requests}` : `duration ${durationS}s`;
    writeFileSync(
      file,
      `### physics\nclients ${clients}\npipeline ${pipeline}\n${length}\nkeys ${KEYSPACE} uniform\nvalue 3\nvalue-fill redis-benchmark\n${COMMAND[test]}\n`,
    );
    const json = join(dir, 'out.json');
    // --yes: the bench started this server itself, in its own namespace.
    const args = [cli, 'run', file, '--url', `redis://127.0.0.1:${port}`, '--yes', '--out', join(dir, 'runs'), '--json', json, '--quiet'];
    const result = await ns.exec(process.execPath, args, { allowFail: true });
    if (!existsSync(json)) throw new Error(`rbench run failed (${result.status}): ${result.stderr.trim()}`);
    const load = JSON.parse(readFileSync(json, 'utf8'))[0].points[0].repeats[0][0];
    const ms = (us) => us / 1000;
    const { latency } = load.total;
    return {
      ops: load.total.opsPerSec,
      minMs: ms(latency.minUs),
      p50Ms: ms(latency.p50Us),
      p99Ms: ms(latency.p99Us),
      p999Ms: ms(latency.p999Us),
      maxMs: ms(latency.maxUs),
      requests: load.sent?.requests ?? load.total.requests,
      replies: load.total.requests,
      errors: load.total.errors,
      status: load.status,
      exit: result.status,
      // Fields of issue 20's contract, where this build fills them: the run's own account of its tail.
      pauses: load.health?.pauses,
      stalls: load.stalls,
      bottleneck: load.bottleneck?.kind ?? load.health?.bottleneck,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** redis-benchmark with the same clients, pipeline, keys and value size, `requests` in all. */
export async function runRedisBenchmark(ns, { port, test, clients, pipeline, requests }) {
  const args = [
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    '-t',
    test,
    '-n',
    String(requests),
    '-c',
    String(clients),
    '-P',
    String(pipeline),
    '-d',
    '3',
    '-r',
    String(KEYSPACE),
  ];
  const result = await ns.exec('redis-benchmark', args);
  return { ...parseRedisBenchmark(result.stdout, requests), requests };
}

/**
 * Reads redis-benchmark's full report. Its summary has no p99.9; both of its distribution lists give
 * (latency, cumulative count) points, and p99.9 is the least latency whose count reaches 99.9 % — an upper
 * bound within one listed step (`p999LowMs` is the step below).
 */
export function parseRedisBenchmark(text, requests) {
  const lines = text.split(/[\r\n]+/);
  const throughput = /throughput summary: ([\d.]+) requests per second/.exec(text);
  const header = lines.findIndex((l) => /^\s*avg\s+min\s+p50\s+p95\s+p99\s+max\s*$/.test(l));
  if (!throughput || header < 0) throw new Error(`redis-benchmark printed no summary:\n${text.slice(-1500)}`);
  const [avg, min, p50, p95, p99, max] = lines[header + 1].trim().split(/\s+/).map(Number);
  const points = [];
  for (const line of lines) {
    const m = /^\s*[\d.]+% <= ([\d.]+) milliseconds \(cumulative count (\d+)\)/.exec(line);
    if (m) points.push({ ms: Number(m[1]), count: Number(m[2]) });
  }
  const rank = Math.ceil(0.999 * requests);
  const above = points.filter((p) => p.count >= rank).map((p) => p.ms);
  const below = points.filter((p) => p.count < rank).map((p) => p.ms);
  return {
    ops: Number(throughput[1]),
    meanMs: avg,
    minMs: min,
    p50Ms: p50,
    p95Ms: p95,
    p99Ms: p99,
    p999Ms: above.length ? Math.min(...above) : max,
    p999LowMs: below.length ? Math.max(...below) : min,
    maxMs: max,
  };
}

/** The server's call count of one command since the last CONFIG RESETSTAT (over the unix socket). */
export async function serverCalls(redis, test) {
  const info = await redis.cli('INFO', 'commandstats');
  const m = new RegExp(`^cmdstat_${test}:calls=(\\d+)`, 'm').exec(info.stdout);
  return m ? Number(m[1]) : 0;
}
