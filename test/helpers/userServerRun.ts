// A scenario's text checked into its plan (no error allowed), and run by runScenario against a real server treated
// as a user's own (local: false): the set-up the runner's live tests share.
import assert from 'node:assert/strict';
import { runScenario } from '../../src/runner/runScenario';
import { checkText, type ScenarioPlan } from '../../src/scenario';

/** The first scenario of `text`, which must check without errors. */
export function planOf(text: string): ScenarioPlan {
  const resolved = checkText(text);
  assert.deepEqual(
    resolved.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
    [],
  );
  return resolved.scenarios[0];
}

/** Runs `text`'s first scenario on the server at `host:port`, as on a user's server. */
export function runOnUserServer(server: { host: string; port: number }, text: string) {
  const { host, port } = server;
  return runScenario(planOf(text), {
    connection: { host, port, resp: 2, connectTimeoutMs: 2000 },
    targetDisplay: `redis://${host}:${port}`,
    local: false,
    source: text,
  });
}
