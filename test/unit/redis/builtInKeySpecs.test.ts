// The built-in table's key specs (src/scenario/builtInKeySpecs.json, one line of text a spec) read back as the
// installed redis-server's own COMMAND reply describes them: every command and subcommand, flags, begin and find.
import assert from 'node:assert/strict';
import { ioredisLink } from '../../../src/redis/control';
import Redis from 'ioredis';
import { readCommandTable } from '../../../src/redis/commandTable';
import { BUILT_IN_TABLE, type CommandSpec } from '../../../src/scenario/commandTable';
import { useRedisServer } from '../../helpers/redis';

/** Every spec with its subcommands, by the server's names (`xgroup|destroy`). */
function flatten(specs: readonly CommandSpec[], container?: string): Map<string, CommandSpec> {
  const all = new Map<string, CommandSpec>();
  for (const spec of specs) {
    const name = container ? `${container}|${spec.name.toLowerCase().split('|').pop()}` : spec.name.toLowerCase();
    all.set(name, spec);
    for (const [sub, subSpec] of flatten(spec.subcommands ?? [], name)) all.set(sub, subSpec);
  }
  return all;
}

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? []));

describe('the built-in key specs', function () {
  this.timeout(30_000);
  const server = useRedisServer();

  it('equal the installed redis-server’s COMMAND reply for every command and subcommand it describes', async () => {
    const redis = new Redis({ host: server().host, port: server().port, lazyConnect: true });
    await redis.connect();
    try {
      const read = await readCommandTable(ioredisLink(redis), { display: 'the test server' });
      assert.ok(read.ok, read.ok ? '' : read.warning);
      const live = flatten(read.specs);
      let compared = 0;
      for (const [name, spec] of live) {
        const [command, sub] = name.split('|');
        const builtIn = sub
          ? BUILT_IN_TABLE.spec(command)?.subcommands?.find((s) => s.name.toLowerCase().split('|').pop() === sub)
          : BUILT_IN_TABLE.spec(command);
        if (!builtIn || !(spec.keySpecs?.length ?? 0)) continue;
        assert.deepEqual(plain(builtIn.keySpecs), plain(spec.keySpecs), name);
        compared++;
      }
      assert.ok(compared >= 180, `compared ${compared} commands`);
    } finally {
      redis.disconnect();
    }
  });
});
