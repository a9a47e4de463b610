// The CPU conditions of the bottleneck verdict's calibration (bench/calibrate.mjs describes the interface):
// each makes one side's limit, or the machine's, on purpose — a cap, hogs pinned beside a side, a heavy script —
// and serves the side not under test first (ctx.first), so a machine busy with other work does not starve it:
// the cause is the one the condition gives.
const GET = (clients, extra = '') => `### get\nclients ${clients}\nthreads 1\n${extra}duration 3s\nGET k:__rand_int__\n`;
/** Client and server served first, each on a core of its own: neither waits for the other's core or anyone's. */
const ownCores = (ctx) => {
  ctx.first([ctx.server.pid, ctx.client.pid]);
  ctx.pin(ctx.server.pid, '1');
  ctx.pin(ctx.client.pid, '0');
};
const LUA = (loops, clients = 4) => `### lua\nclients ${clients}\nduration 3s\nEVAL "local i = 0 while i < ${loops} do i = i + 1 end return i" 0\n`;

export const conditions = [
  {
    // Both sides served before all else, each on a core of its own, get a core whenever they wake: neither busy, neither waiting.
    name: 'quiet-get',
    expected: 'round-trip',
    scenario: GET(1),
    during: ownCores,
  },
  {
    name: 'client-beside-hogs',
    expected: 'client-starved',
    scenario: GET(10),
    before: (ctx) => ctx.first(ctx.server.pid),
    during: (ctx) => {
      ctx.pin(ctx.client.pid, '0');
      ctx.hog('0');
      ctx.hog('0');
    },
  },
  {
    name: 'client-capped-20',
    expected: 'client-starved',
    scenario: GET(10),
    before: (ctx) => ctx.first(ctx.server.pid),
    during: (ctx) => ctx.cap(ctx.client.pid, 0.2),
  },
  {
    // A server that wants a core (a script) pinned beside two busy loops: it waits for its core more than it runs.
    name: 'server-beside-hogs',
    expected: 'server-cpu',
    scenario: LUA(2000),
    cliArgs: ['--allow-destructive'],
    before: (ctx) => {
      ctx.pin(ctx.server.pid, '1');
      ctx.hog('1');
      ctx.hog('1');
    },
    during: (ctx) => ctx.first(ctx.client.pid),
  },
  {
    name: 'server-capped-20',
    expected: 'server-cpu',
    scenario: GET(4),
    before: (ctx) => ctx.cap(ctx.server.pid, 0.2),
    during: (ctx) => ctx.first(ctx.client.pid),
  },
  {
    name: 'eval-4-clients',
    expected: 'server-cpu',
    scenario: LUA(100000),
    cliArgs: ['--allow-destructive'],
    during: (ctx) => ctx.first([ctx.server.pid, ctx.client.pid]),
  },
  {
    // One request in flight, a script of ~2 ms a call: the server's turn is nearly all of each round, so a second
    // request could add little — server-cpu, though one connection leaves every side idle part of each turn.
    name: 'eval-1-client',
    expected: 'server-cpu',
    scenario: LUA(300000, 1),
    cliArgs: ['--allow-destructive'],
    during: ownCores,
  },
  {
    // One request in flight, a script of ~0.1 ms, about three times the rest of each round: a second request could
    // add ~20 %, cheaper commands far more — server-cpu (the scheduler's share alone, 80 %, is under 85 %).
    name: 'eval-1-client-light',
    expected: 'server-cpu',
    scenario: LUA(15000, 1),
    cliArgs: ['--allow-destructive'],
    during: ownCores,
  },
  {
    // One request in flight, a script of a few µs, a fraction of the rest of each round: round-trip.
    name: 'eval-1-client-cheap',
    expected: 'round-trip',
    scenario: LUA(1000, 1),
    cliArgs: ['--allow-destructive'],
    during: ownCores,
  },
  {
    // One request in flight, 16 KB replies: the server's thread also does the kernel's sending of each (on loopback
    // the client's receiving too), so it may run more than half the window; a second request still nearly doubles
    // throughput — round-trip, not server-cpu (CI, stop 53: a 56 % server was called the limit).
    name: 'get-16k-1-client',
    expected: 'round-trip',
    scenario: `### get16k\nclients 1\nthreads 1\nduration 3s\nGET big\n`,
    before: (ctx) => ctx.redis('SET', 'big', 'x'.repeat(16384)),
    during: ownCores,
  },
  {
    // 50 connections of a 25 µs script: the server is the limit (the client sleeps most of the window),
    // yet its main thread had work 95–96 % of the counters' window and 97–98 % of the load's own (2026-12-07), under or
    // at the N/(N+1) = 98 % the rule once asked for (cpuShares.ts saturation).
    name: 'eval-50-clients',
    expected: 'server-cpu',
    scenario: LUA(2000, 50),
    cliArgs: ['--allow-destructive'],
    during: ownCores,
  },
  {
    // Each side served first on a core of its own, the client on ioredis's path: the one engine thread's core is the
    // limit. (The fast path's client now outruns the server at pipeline 16: on 2026-12-07 the server ran 95 % of its
    // window and the client 74 % — undetermined, as eval-50-clients; the recorded fixtures are of the fast path,
    // when both ran ~91 %.)
    name: 'busy-client',
    expected: 'client-cpu',
    scenario: GET(50, 'pipeline 16\nclient ioredis\n'),
    during: ownCores,
  },
  {
    // Client and server in one cgroup with 30 % of one core: each, when it has work, waits for the other's turn and the cap.
    name: 'both-capped',
    expected: 'machine-cpu',
    scenario: GET(20, 'pipeline 8\n'),
    during: (ctx) => ctx.cap([ctx.server.pid, ctx.client.pid], 0.3),
  },
];
