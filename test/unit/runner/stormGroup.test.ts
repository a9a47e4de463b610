// A connection storm as a client group (`load storm` + `connect-only on`) beside measured readers, against a real
// redis-server: "does a connection storm hurt my readers". The server's own counts are the truth. A reference
// run of the same shape (its storm group sending ECHO on 4 connections instead) gives the connections and the
// commands a run makes besides its groups: against it the storm adds exactly its requests as connections (less
// the reference group's 4) and their handshake PINGs, and the readers' GETs are exactly what they sent.
import assert from 'node:assert/strict';
import { runFileProblem } from '../../../src/results/runFileSchema';
import { resultRows } from '../../../src/results/rows';
import { runOnUserServer } from '../../helpers/userServerRun';
import { allCommandCalls, callsAdded, connectionsReceived, useObserver, useRedisServer } from '../../helpers/redis';

const STORM = 400;
const READS = 3000;
const scenario = (storm: string) =>
  `### storm beside readers\nkeys 1000\nload storm\nclients 4\nrequests ${STORM}\n${storm}\nload readers\nclients 3\nrequests ${READS}\nGET rbench:storm:__key__\n`;

describe('a connect-only storm group beside a reader group', function () {
  this.timeout(90_000);
  const server = useRedisServer();
  const observe = useObserver(server);
  const commandstats = () => allCommandCalls(observe());
  const delta = callsAdded;

  async function run(text: string) {
    const received = await connectionsReceived(observe());
    const commands = await commandstats();
    const file = await runOnUserServer(server(), text);
    return { file, received: (await connectionsReceived(observe())) - received, commands: delta(commands, await commandstats()) };
  }

  it('the storm opens exactly its requests as connections, the readers run exactly their GETs, a row per group', async () => {
    const reference = await run(scenario('ECHO x'));
    assert.equal(reference.file.status, 'complete', reference.file.error);
    const { file, received, commands } = await run(scenario('connect-only on'));
    assert.equal(file.status, 'complete', file.error);
    assert.equal(runFileProblem(JSON.parse(JSON.stringify(file)), 'run'), undefined);
    const [storm, readers] = file.points[0].repeats[0];
    assert.deepEqual(
      [storm, readers].map((load) => [load.test, load.group?.name, load.total.requests, load.total.errors]),
      [
        ['storm', 'storm', STORM, 0],
        ['readers', 'readers', READS, 0],
      ],
    );
    // The storm: a connection per request, each timed, none held open before it.
    assert.equal(storm.connections.opened, 0);
    assert.equal(storm.connections.cycles, STORM);
    assert.equal(storm.connections.setup?.latency.count, STORM);
    assert.equal(storm.sent?.handshakes?.ping, STORM);
    assert.equal(received - reference.received, STORM - 4, 'the storm: one connection per request (the reference group held 4)');
    // The server ran the readers' GETs, exactly, and the storm's handshake PINGs instead of the reference group's ECHOs.
    assert.equal(readers.sent?.byLabel.GET, READS);
    assert.equal(commands.get, READS);
    assert.equal(commands.ping - reference.commands.ping, STORM - 4);
    assert.equal(commands.echo, undefined);
    // Nothing else of the load's own: every other command is one the reference run's control connections ran too
    // (their counts follow the run's length: the server's counters are sampled while it runs).
    for (const name of Object.keys(commands)) assert.ok(name === 'get' || name === 'ping' || name in reference.commands, name);
    // A row per group, and one per command under it.
    assert.deepEqual(
      resultRows(file).map((row) => `${row.test} ${row.command} ${row.clients}`),
      ['storm total 4', 'storm connect 4', 'readers total 3', 'readers GET 3'],
    );
  });
});
