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
const LUA = (loops) => `### lua\nclients 4\nduration 3s\nEVAL "local i = 0 while i < ${loops} do i = i + 1 end return i" 0\n`;

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
    // Each side served first on a core of its own: the one engine thread's core is the limit.
    name: 'busy-client',
    expected: 'client-cpu',
    scenario: GET(50, 'pipeline 16\n'),
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
