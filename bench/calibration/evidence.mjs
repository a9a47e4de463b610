// Calibration conditions for the evidence kinds (issue 41): persistence, memory, foreign load, a module's
// nested calls, a freeze, the open loop's schedule and a lossy path. Each is the interface of
// bench/calibrate.mjs — { name, expected, scenario, serverArgs, during(ctx) } — with two optional fields:
// `setup(ctx)` runs before the test (data to hold), `path` shapes the loopback (bench/netdelay's condition
// form, `0ms/1%`: the server and RBench then run in a network namespace behind the NFQUEUE dropper).
// `expected` is the verdict kind that must hold (itself or a part of `mixed`); `!kind` one that must not.
// Run alone: `sudo node bench/calibration/run-evidence.mjs [--runs 3] [--only name,name]`.

const REDISEARCH = '/usr/lib/redis/modules/redisearch.so';

/** `DEBUG POPULATE n`: n small keys, to make a fork long (its page tables grow with the data). */
const populate = (n) => async (ctx) => ctx.cli('DEBUG', 'POPULATE', String(n), 'fill', '100');

/** A GET test on a server holding `keys` keys, with a BGSAVE once it is under way. */
function forkDuring(name, expected, keys, duration) {
  return {
    name,
    expected,
    setup: populate(keys),
    scenario: `### fork\nclients 4\nduration ${duration}\nGET fill:__rand_int__\n`,
    during: async (ctx) => {
      await ctx.waitForCalls('get', 2000);
      await ctx.cli('BGSAVE');
    },
  };
}

export const conditions = [
  {
    name: 'appendfsync always',
    expected: 'persistence',
    serverArgs: ['--appendonly', 'yes', '--appendfsync', 'always'],
    scenario: '### fsync\nclients 4\nduration 3s\nkeys 1000\nSET f:__key__ v\n',
  },
  {
    name: 'appendfsync everysec (control)',
    expected: '!persistence',
    serverArgs: ['--appendonly', 'yes', '--appendfsync', 'everysec'],
    scenario: '### everysec\nclients 4\nduration 3s\nkeys 1000\nGET f:__key__\n',
  },
  forkDuring('fork of 1.5M keys during the test', 'persistence', 1_500_000, '2s'),
  forkDuring('fork of 100k keys that does not slow the test', '!persistence', 100_000, '4s'),
  {
    name: 'maxmemory noeviction (OOM)',
    expected: 'memory',
    serverArgs: ['--maxmemory', '4mb', '--maxmemory-policy', 'noeviction'],
    scenario: '### oom\nclients 4\nrequests 20000\nkeys 20000 sequential\nvalue 1000\nSET m:__key__ __value__\n',
  },
  {
    name: 'maxmemory allkeys-lru (eviction)',
    expected: 'memory',
    serverArgs: ['--maxmemory', '8mb', '--maxmemory-policy', 'allkeys-lru'],
    scenario: '### lru\nclients 4\nrequests 40000\nkeys 40000 sequential\nvalue 1000\nSET m:__key__ __value__\n',
  },
  {
    name: "another client's GET flood",
    expected: 'foreign-load',
    scenario: '### shared\nclients 2\nduration 3s\nGET s:__rand_int__\n',
    during: async (ctx) => {
      await ctx.waitForCalls('get', 1000);
      await ctx.tool('redis-benchmark', ['-h', ctx.host, '-p', String(ctx.port), '-c', '2', '-n', '20000', '-t', 'get', '-q']);
    },
  },
  {
    name: "another client's PING flood",
    expected: 'foreign-load',
    scenario: '### pings\nclients 2\nduration 3s\nGET s:__rand_int__\n',
    during: async (ctx) => {
      await ctx.waitForCalls('get', 1000);
      await ctx.tool('redis-benchmark', ['-h', ctx.host, '-p', String(ctx.port), '-c', '4', '-n', '50000', '-t', 'ping', '-q']);
    },
  },
  {
    name: 'FT.SEARCH on RediSearch (nested HGETALL)',
    expected: '!foreign-load',
    serverArgs: ['--loadmodule', REDISEARCH],
    setup: async (ctx) => {
      await ctx.cli('FT.CREATE', 'books', 'SCHEMA', 'title', 'TEXT');
      for (let i = 0; i < 5; i++) await ctx.cli('FT.ADD', 'books', `book:${i}`, '1.0', 'FIELDS', 'title', `hello reader ${i}`);
    },
    scenario: '### search\nclients 2\nduration 2s\nFT.SEARCH books hello\n',
  },
  {
    name: 'a freeze (SIGSTOP 2 s)',
    expected: 'stall',
    scenario: '### freeze\nclients 10\nduration 5s\nGET key:__rand_int__\n',
    during: async (ctx) => {
      await ctx.waitForCalls('get', 5000);
      await ctx.sleep(1000);
      process.kill(ctx.pid, 'SIGSTOP');
      await ctx.sleep(2000);
      process.kill(ctx.pid, 'SIGCONT');
    },
  },
  {
    // On a busy machine the sends lag (issue 41, seen 6): whatever the verdict, never "add clients or pipeline".
    name: 'open loop below capacity (2,000/s)',
    expected: '!round-trip',
    scenario: '### below\nclients 4\nrate 2k/s\nduration 3s\nGET k:__rand_int__\n',
  },
  {
    name: 'open loop above capacity (400,000/s)',
    expected: 'late-sends',
    scenario: '### above\nclients 4\nrate 400k/s\nduration 3s\nGET k:__rand_int__\n',
  },
  {
    name: '1 % loss on the path',
    expected: 'network',
    path: '0ms/1%',
    scenario: '### lossy\nclients 10\nduration 3s\nGET k:__rand_int__\n',
  },
];
