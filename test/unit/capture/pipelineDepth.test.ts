// Pipelining as MONITOR shows it: redis-benchmark -c 4 -P 10 recorded on Redis 7.0 (a busy machine). The
// server ran client 41110's read of 10 GETs with a 73 µs gap in the middle: by the clock alone that was 5 + 5.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { captureWorkload } from '../../../src/capture/capture';
import { parseMonitorLine } from '../../../src/capture/monitorLine';
import { DEFAULT_CAPTURE } from '../../../src/capture/types';
import { buildWorkload } from '../../../src/capture/workload';
import { useRedisServer } from '../../helpers/redis';
import { TrafficTally } from '../../../src/capture/traffic';

/** [client port, µs within second 1796543339] of 40 consecutive MONITOR lines. */
const RECORDED: [number, number][] = [
  [41096, 252392],
  [41096, 252394],
  [41096, 252396],
  [41096, 252397],
  [41096, 252398],
  [41096, 252400],
  [41096, 252401],
  [41096, 252403],
  [41096, 252404],
  [41096, 252405],
  [41110, 252432],
  [41110, 252433],
  [41110, 252435],
  [41110, 252436],
  [41110, 252437],
  [41110, 252510],
  [41110, 252512],
  [41110, 252513],
  [41110, 252515],
  [41110, 252516],
  [41084, 254630],
  [41084, 254636],
  [41084, 254638],
  [41084, 254640],
  [41084, 254641],
  [41084, 254643],
  [41084, 254644],
  [41084, 254645],
  [41084, 254647],
  [41084, 254648],
  [41090, 254688],
  [41090, 254689],
  [41090, 254691],
  [41090, 254692],
  [41090, 254694],
  [41090, 254695],
  [41090, 254696],
  [41090, 254698],
  [41090, 254699],
  [41090, 254700],
];

function tally(lines: [number, number][]): TrafficTally {
  const traffic = new TrafficTally(false);
  for (const [port, us] of lines) {
    const line = parseMonitorLine(`1796543339.${String(us).padStart(6, '0')} [0 127.0.0.1:${port}] "GET" "key:__rand_int__"`);
    assert.ok(line);
    traffic.add(line);
  }
  return traffic;
}

describe('capture: pipelining from MONITOR', () => {
  it('four clients at pipeline 10: each run of one client’s lines is one read of 10, whatever gap the server’s clock shows', () => {
    assert.equal(tally(RECORDED).batchSize(), 10);
  });

  it('the same lines with the capture’s own command in between: the read is cut there, not merged with the next', () => {
    const traffic = new TrafficTally(false, new Set(['127.0.0.1:1']));
    for (const [i, [port, us]] of RECORDED.entries()) {
      traffic.add(parseMonitorLine(`1796543339.${String(us).padStart(6, '0')} [0 127.0.0.1:${port}] "GET" "k"`)!);
      if (i === 4) traffic.add(parseMonitorLine(`1796543339.${String(us).padStart(6, '0')} [0 127.0.0.1:1] "INFO"`)!);
    }
    // The first read cut in two where the server ran the INFO; the others whole (the last one still open).
    assert.deepEqual(traffic.readSizes.values, [5, 5, 10, 10]);
    // The typical read is still 10: the median, which one cut or merged read does not move.
    assert.equal(traffic.batchSize(), 10);
  });

  it('one client alone: its reads are told apart by the clock (nothing else comes between them)', () => {
    const alone = RECORDED.filter(([port]) => port === 41096);
    // Its next read, 4 ms later: two reads of 10.
    const again = alone.map(([port, us]): [number, number] => [port, us + 4000]);
    assert.equal(tally([...alone, ...again]).batchSize(), 10);
  });
});

describe('capture: pipelining of a real load', function () {
  this.timeout(60_000);
  const server = useRedisServer();

  it('redis-benchmark -c 4 -P 10 is captured as pipeline 10 and 4 clients', async () => {
    const bench = spawn('redis-benchmark', ['-h', server().host, '-p', String(server().port), '-c', '4', '-P', '10', '-n', '100000000', '-t', 'get', '-q']);
    bench.stdout.resume();
    bench.stderr.resume();
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const captured = await captureWorkload({ host: server().host, port: server().port, resp: 2, connectTimeoutMs: 5000 }, 'source', {
        ...DEFAULT_CAPTURE,
        durationMs: 1500,
        monitor: 'on',
        keyspaceLimits: { maxKeys: 0, maxMs: 0 },
      });
      const workload = buildWorkload(captured);
      assert.deepEqual([workload.pipeline, workload.clients], [10, 4], `mean batch ${captured.traffic?.batchSize()}`);
    } finally {
      bench.kill('SIGKILL');
    }
  });
});
