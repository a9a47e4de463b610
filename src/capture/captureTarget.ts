// Which server a capture reads and what it asks first: the same target rules as a run (a URL or a
// connection profile, the password from the environment or the secret store, the network gate's rule) and
// the same consent (src/runner/consent.ts), with the capture's effects: it connects and only reads. Every
// command it sends is listed, so the question says exactly what is read.
import type { ConnectionProfile } from '../redis/types';
import { consentRequest, needsConsent, runEffects, type ConsentRequest } from '../runner/consent';
import type { ScenarioActions } from '../runner/safety';
import { chooseTarget, connectionFor, defaultTargetPlan, parseActiveTarget, settingsPasswordError } from '../runner/targets';
import { checkText } from '../scenario';
import type { ConnectionOptions } from '../redis/types';

/** Everything a capture sends: reads only (MONITOR reads every client's commands; nothing is written). */
export const CAPTURE_READS = ['INFO', 'MONITOR', 'DBSIZE', 'SCAN', 'TYPE', 'TTL', 'MEMORY USAGE', 'STRLEN', 'HLEN', 'LLEN', 'SCARD', 'ZCARD', 'XLEN', 'PING'];

export interface CaptureTargetInput {
  /** A redis:// URL, `host:port` or a connection profile's name. */
  target: string;
  /** Who chose it: `--url` and the user's own settings are the user's; a workspace's rbench.target is not. */
  supplier: 'user' | 'workspace';
  via: string;
  profiles?: Record<string, ConnectionProfile>;
  workspaceProfiles?: readonly string[];
  storedPassword?: string;
  secretEnv?: string;
  env: Record<string, string | undefined>;
  allowHosts?: readonly string[];
}

export interface CaptureTarget {
  connection: ConnectionOptions;
  display: string;
  /** The consent question, when the capture must ask (see needsConsent). */
  consent?: ConsentRequest;
}

const CAPTURE_FILE = 'rbench capture';

export function captureTarget(input: CaptureTargetInput): CaptureTarget | string {
  const profiles = input.profiles ?? {};
  const active = parseActiveTarget(input.target, profiles);
  if (active.kind === 'invalid') return active.error;
  if (active.kind === 'local')
    return 'capture reads a server that already runs: name it with --url redis://host:port (or a connection profile), not the throwaway local server';
  const choice = chooseTarget(defaultTargetPlan(), active);
  const passwordError = settingsPasswordError(choice, profiles);
  if (passwordError) return passwordError;
  const resolved = connectionFor(choice, { profiles, storedPassword: input.storedPassword, env: input.env, allowHosts: input.allowHosts });
  if (!resolved.options) return resolved.error ?? `cannot connect to ${input.target}`;
  // MONITOR sees one server: a Sentinel target names several, and which one serves is the sentinels' answer.
  if (resolved.options.sentinel) return `${resolved.display} is a Sentinel target: capture its primary by its own redis://host:port URL`;
  const actions: ScenarioActions = {
    classes: new Set(['read']),
    examples: { read: 'INFO' },
    commands: { read: [...CAPTURE_READS] },
    writePatterns: [],
    destructive: [],
  };
  const effects = runEffects({
    file: CAPTURE_FILE,
    plan: checkText('PING\n').scenarios[0],
    actions,
    choice: { source: 'selected', target: choice.target },
    selected: { supplier: input.supplier, via: input.via },
    profiles,
    workspaceProfiles: new Set(input.workspaceProfiles ?? []),
    connection: { display: resolved.display, options: resolved.options },
    storedPasswordUsed: Boolean(input.storedPassword),
    secretEnv: input.secretEnv,
  });
  const target: CaptureTarget = { connection: resolved.options, display: resolved.display };
  if (needsConsent(effects)) target.consent = consentRequest(effects, 'capture');
  return target;
}
