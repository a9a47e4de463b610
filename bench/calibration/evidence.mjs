// Calibration conditions for the evidence kinds (issue 41): persistence, memory, foreign load, a module's
// nested calls, a freeze, the open loop's schedule and a lossy path. bench/calibrate.mjs describes the
// interface (`before`, `path`, `expected: '!kind'` for a kind that must not hold, and ctx).

const REDISEARCH = '/usr/lib/redis/modules/redisearch.so';

/** `DEBUG POPULATE n`: n small keys, to make a fork long (its page tables grow with the data). */
const populate = (n) => async (ctx) => ctx.redis('DEBUG', 'POPULATE', String(n), 'fill', '100');

/** A GET test on a server holding `keys` keys, with a BGSAVE once it is under way. */
function forkDuring(name, expected, keys, duration) {
  return {
    name,
    expected,
    before: populate(keys),
    scenario: `### fork\nclients 4\nduration ${duration}\nGET fill:__rand_int__\n`,
    during: async (ctx) => {
      await ctx.whenCalls('get', 2000);
      await ctx.redis('BGSAVE');
    },
  };
}

/** Another client's load with redis-benchmark (`-t test`) once the test is under way. */
function foreign(name, test, clients, requests) {
  return {
    name,
    expected: 'foreign-load',
    scenario: '### shared\nclients 2\nduration 3s\nGET s:__rand_int__\n',
    during: async (ctx) => {
      await ctx.whenCalls('get', 1000);
      await ctx.tool('redis-benchmark', [
        '-h',
        ctx.server.host,
        '-p',
        String(ctx.server.port),
        '-c',
        String(clients),
        '-n',
        String(requests),
        '-t',
        test,
        '-q',
      ]);
    },
  };
}

export const conditions = [
  {
    name: 'appendfsync-always',
    expected: 'persistence',
    serverArgs: ['--appendonly', 'yes', '--appendfsync', 'always'],
    scenario: '### fsync\nclients 4\nduration 3s\nkeys 1000\nSET f:__key__ v\n',
  },
  {
    // The control: an append-only file synced once a second, read-only test.
    name: 'appendfsync-everysec',
    expected: '!persistence',
    serverArgs: ['--appendonly', 'yes', '--appendfsync', 'everysec'],
    scenario: '### everysec\nclients 4\nduration 3s\nkeys 1000\nGET f:__key__\n',
  },
  forkDuring('fork-1500k-keys', 'persistence', 1_500_000, '2s'),
  forkDuring('fork-100k-keys', '!persistence', 100_000, '4s'),
  {
    name: 'maxmemory-noeviction',
    expected: 'memory',
    serverArgs: ['--maxmemory', '4mb', '--maxmemory-policy', 'noeviction'],
    // The OOM replies are the cause: expected, so the run completes (not complete-with-errors, exit 1).
    scenario: '### oom\nclients 4\nrequests 20000\nkeys 20000 sequential\nvalue 1000\nexpect error-rate < 100%\nSET m:__key__ __value__\n',
  },
  {
    name: 'maxmemory-allkeys-lru',
    expected: 'memory',
    serverArgs: ['--maxmemory', '8mb', '--maxmemory-policy', 'allkeys-lru'],
    scenario: '### lru\nclients 4\nrequests 40000\nkeys 40000 sequential\nvalue 1000\nSET m:__key__ __value__\n',
  },
  foreign('foreign-get-flood', 'get', 2, 20000),
  foreign('foreign-ping-flood', 'ping', 4, 50000),
  foreign('foreign-set-load', 'set', 2, 20000),
  {
    // The module's own calls (HGETALL inside FT.SEARCH) are counted by the server but sent by no client: not foreign.
    name: 'ft-search-nested-calls',
    expected: '!foreign-load',
    serverArgs: ['--loadmodule', REDISEARCH],
    before: async (ctx) => {
      await ctx.redis('FT.CREATE', 'books', 'SCHEMA', 'title', 'TEXT');
      for (let i = 0; i < 5; i++) await ctx.redis('FT.ADD', 'books', `book:${i}`, '1.0', 'FIELDS', 'title', `hello reader ${i}`);
    },
    scenario: '### search\nclients 2\nduration 2s\nFT.SEARCH books hello\n',
  },
  {
    name: 'freeze-sigstop-2s',
    expected: 'stall',
    scenario: '### freeze\nclients 10\nduration 5s\nGET key:__rand_int__\n',
    during: async (ctx) => {
      await ctx.whenCalls('get', 5000);
      await ctx.sleep(1000);
      process.kill(ctx.server.pid, 'SIGSTOP');
      await ctx.sleep(2000);
      process.kill(ctx.server.pid, 'SIGCONT');
    },
  },
  {
    // On a busy machine the sends lag (issue 41, seen 6): whatever the verdict, never "add clients or pipeline".
    name: 'open-loop-below-capacity',
    expected: '!round-trip',
    scenario: '### below\nclients 4\nrate 2k/s\nduration 3s\nGET k:__rand_int__\n',
  },
  {
    // Far below capacity, on cores served first: the sends go out on time, so the schedule is not late.
    name: 'open-loop-on-time',
    expected: '!late-sends',
    scenario: '### on time\nclients 4\nrate 500/s\nduration 3s\nGET k:__rand_int__\n',
    during: (ctx) => ctx.first([ctx.server.pid, ctx.client.pid]),
  },
  {
    name: 'open-loop-above-capacity',
    expected: 'late-sends',
    scenario: '### above\nclients 4\nrate 400k/s\nduration 3s\nGET k:__rand_int__\n',
  },
  {
    name: 'loss-1-percent',
    expected: 'network',
    path: '0ms/1%',
    scenario: '### lossy\nclients 10\nduration 3s\nGET k:__rand_int__\n',
  },
];
