// The rate a capture writes is the server's without MONITOR: MONITOR's cost (it halved a busy server's rate,
// 12.4k/s unperturbed against 5.9k/s captured) is not the workload's.
import assert from 'node:assert/strict';
import { captureWorkload, UNPERTURBED_MS } from '../../../src/capture/capture';
import { DEFAULT_CAPTURE, type CaptureResult } from '../../../src/capture/types';
import { buildWorkload } from '../../../src/capture/workload';
import { useRedisServer, withRedis } from '../../helpers/redis';
import { populate, startTraffic } from './knownWorkload';

const SOURCE = { host: '127.0.0.1', port: 6379, version: '7.0.15', mode: 'standalone', role: 'master', db: 0, display: 'redis://127.0.0.1:6379' };

/** A capture as recorded: the counters under MONITOR, and over the second before it. */
function recorded(underMonitorPerSec: number, unperturbedPerSec: number): CaptureResult {
  return {
    source: SOURCE,
    startedAt: '2026-12-06T10:00:00.000Z',
    windowMs: 4000,
    counters: { calls: new Map([['GET', underMonitorPerSec * 4]]), windowMs: 4000 },
    unperturbed: { calls: new Map([['GET', unperturbedPerSec]]), windowMs: 1000 },
    keepNames: false,
    notes: [],
  };
}

describe('capture: the rate without MONITOR', function () {
  this.timeout(60_000);
  const server = useRedisServer();

  it('writes the rate the counters read before MONITOR, and says what MONITOR cost (recorded: 12.4k/s against 5.9k/s)', () => {
    const workload = buildWorkload(recorded(5_900, 12_400));
    assert.equal(Math.round(workload.ratePerSec!), 12_400);
    assert.ok(
      workload.notes.includes(
        "the rate is the server's over 1.0 s before MONITOR started (12,400/s); under MONITOR it ran 5,900/s (48%): MONITOR's cost is not replayed",
      ),
      workload.notes.join('\n'),
    );
    // Without the reading before MONITOR (MONITOR off, or INFO refused), the window's rate, as before.
    const without = recorded(5_900, 0);
    delete without.unperturbed;
    assert.equal(Math.round(buildWorkload(without).ratePerSec!), 5_900);
  });

  it('reads the counters for a second before MONITOR starts, and the written rate is theirs', async () => {
    await withRedis(server(), populate);
    const traffic = startTraffic(server(), 4);
    let captured: CaptureResult;
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      captured = await captureWorkload({ host: server().host, port: server().port, resp: 2, connectTimeoutMs: 5000 }, 'source', {
        ...DEFAULT_CAPTURE,
        durationMs: 2000,
        monitor: 'on',
        keyspaceLimits: { maxKeys: 0, maxMs: 0 },
      });
    } finally {
      await traffic.stop();
    }
    const unperturbed = captured.unperturbed;
    assert.ok(unperturbed, 'the counters were read before MONITOR');
    // A second asked for: a timer may fire a millisecond before the clock says a second has passed.
    assert.ok(unperturbed.windowMs >= UNPERTURBED_MS - 2, String(unperturbed.windowMs));
    // The known workload's commands, the capture's own INFO left out.
    assert.ok((unperturbed.calls.get('GET') ?? 0) > 0 && (unperturbed.calls.get('SET') ?? 0) > 0, JSON.stringify([...unperturbed.calls]));
    assert.equal(unperturbed.calls.get('INFO'), undefined);
    const workload = buildWorkload(captured);
    const total = [...unperturbed.calls.values()].reduce((sum, n) => sum + n, 0);
    const kept = workload.lines.reduce((sum, line) => sum + line.share, 0);
    assert.ok(Math.abs(workload.ratePerSec! - (kept * total * 1000) / unperturbed.windowMs) < 1e-6);
    assert.ok(
      // The reading's own window: a second asked for, longer on a busy machine.
      workload.notes.some((note) => note.startsWith(`the rate is the server's over ${(unperturbed.windowMs / 1000).toFixed(1)} s before MONITOR`)),
      workload.notes.join('\n'),
    );
  });
});
