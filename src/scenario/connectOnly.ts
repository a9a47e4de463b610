// `connect-only on`: a test of connections alone (a connection storm). Its one request is a connection opened,
// timed and closed (src/engine/fast/connectOnlyConnection.ts); the test has no command lines, and its row is
// `connect`. The request's command is the handshake's PING (always sent last), so the consent and effects
// gates, and the server-truth check, see what the server really runs: PING and nothing else.
import type { DiagnosticSink } from './diagnostics';
import type { LoadPlan, TestPlan } from './plan';
import type { Layer } from './settingLayer';

/** The row of a connect-only test: its connections. */
export const CONNECT_LABEL = 'connect';

/** Whether `connect-only on` holds in this layer (a phase's, over its scenario's and the file's). */
export function isConnectOnly(layer: Layer): boolean {
  return layer.get('connect-only')?.value === true;
}

/**
 * A connect-only phase's tests: the one `connect` test, or (with command lines written) the tests as they are,
 * after an error at the `connect-only` line: a storm sends no command of its own.
 */
export function connectOnlyTests(layer: Layer, tests: TestPlan[], sink: DiagnosticSink): TestPlan[] {
  if (tests.length > 0) {
    sink.error(
      layer.get('connect-only')!.range,
      'connect-only-commands',
      '`connect-only on` opens connections without sending commands — remove the command lines, or the `connect-only` line',
    );
    return tests;
  }
  return [{ name: CONNECT_LABEL, commands: [{ weight: 1, command: { name: 'PING', label: CONNECT_LABEL, args: [] } }] }];
}

/** Sets the load's `connectOnly`, refusing the settings a storm cannot follow at their lines. */
export function connectOnlyLoad(layer: Layer, load: LoadPlan, sink: DiagnosticSink): void {
  if (!isConnectOnly(layer)) return;
  load.connectOnly = true;
  const refuse = (name: 'ramp' | 'reconnect' | 'pipeline', why: string) => {
    const entry = layer.get(name);
    if (entry) sink.error(entry.range, 'connect-only-with', `${why} — remove the \`${name}\` line, or the \`connect-only\` line`);
  };
  if (load.ramp) refuse('ramp', '`connect-only` opens a connection per request: `clients` says how many at a time, a ramp does not apply');
  if (load.reconnectEvery !== undefined) refuse('reconnect', '`connect-only` already opens a new connection per request');
  if (load.pipeline > 1) refuse('pipeline', '`connect-only` sends no commands to pipeline');
}
