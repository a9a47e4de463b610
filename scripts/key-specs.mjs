// Regenerates src/scenario/builtInKeySpecs.json: each command's (and subcommand's) Redis 7 key specs, flags and
// positions, as a redis-server 7.0 describes them in its COMMAND reply. The built-in table (@ioredis/commands) has
// arity, flags and key ranges but not what a command does to each key (RW/OW/RM, INSERT/UPDATE/DELETE): these add it.
// Usage: node scripts/key-specs.mjs [path to redis-server] && npx prettier --write src/scenario/builtInKeySpecs.json
// (starts a redis-server on a free loopback port, stops it after)
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import Redis from 'ioredis';

const binary = process.argv[2] ?? 'redis-server';
const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});
const server = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
const redis = new Redis({ port, host: '127.0.0.1', retryStrategy: (times) => (times > 50 ? null : 100) });
try {
  const version = (await redis.info('server')).match(/redis_version:(\S+)/)[1];
  const reply = await redis.call('COMMAND');
  const pairs = (list) => Object.fromEntries(Array.from({ length: list.length / 2 }, (_, i) => [String(list[2 * i]).toLowerCase(), list[2 * i + 1]]));
  const keySpec = (raw) => {
    const spec = pairs(raw);
    const begin = pairs(spec.begin_search);
    const find = pairs(spec.find_keys);
    const beginArgs = pairs(begin.spec ?? []);
    const findArgs = pairs(find.spec ?? []);
    return {
      flags: spec.flags.map((flag) => String(flag).toLowerCase()),
      begin:
        begin.type === 'index'
          ? { kind: 'index', index: beginArgs.index }
          : begin.type === 'keyword'
            ? { kind: 'keyword', keyword: beginArgs.keyword, startFrom: beginArgs.startfrom }
            : { kind: 'unknown' },
      find:
        find.type === 'range'
          ? { kind: 'range', lastKey: findArgs.lastkey, keyStep: findArgs.keystep, limit: findArgs.limit }
          : find.type === 'keynum'
            ? { kind: 'keynum', keyNumIndex: findArgs.keynumidx, firstKey: findArgs.firstkey, keyStep: findArgs.keystep }
            : { kind: 'unknown' },
    };
  };
  /** `rw insert|i1|r0,1,0`: flags, begin (`i<index>`, `k<startFrom>,<keyword>`, `u`), find (`r<lastKey>,<keyStep>,<limit>`, `n<keyNumIndex>,<firstKey>,<keyStep>`, `u`). */
  const encodeKeySpec = ({ flags, begin, find }) => {
    const from = begin.kind === 'index' ? `i${begin.index}` : begin.kind === 'keyword' ? `k${begin.startFrom},${begin.keyword}` : 'u';
    const to =
      find.kind === 'range'
        ? `r${find.lastKey},${find.keyStep},${find.limit}`
        : find.kind === 'keynum'
          ? `n${find.keyNumIndex},${find.firstKey},${find.keyStep}`
          : 'u';
    return `${flags.join(' ')}|${from}|${to}`;
  };
  const table = {};
  const add = (entry) => {
    const name = String(entry[0]).toLowerCase();
    if (entry[8]?.length) table[name] = entry[8].map(keySpec);
    for (const sub of entry[9] ?? []) add(sub);
  };
  for (const entry of reply) add(entry);
  const sorted = Object.fromEntries(
    Object.keys(table)
      .sort()
      .map((name) => [name, table[name]]),
  );
  // One line of text a spec (decodeKeySpec in src/scenario/keySpecs.ts reads it back): the table is bundled into
  // every CLI start, and as objects it weighed 30 KB of the bundle V8 parses each time.
  const encoded = Object.fromEntries(Object.entries(sorted).map(([name, specs]) => [name, specs.map(encodeKeySpec)]));
  writeFileSync(new URL('../src/scenario/builtInKeySpecs.json', import.meta.url), JSON.stringify({ redis: version, specs: encoded }) + '\n');
  console.log(`${Object.keys(sorted).length} commands with key specs, from redis ${version}`);
} finally {
  redis.disconnect();
  server.kill();
}
