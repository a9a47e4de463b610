// Turns a scenario's target (URL, profile, user, password source, TLS files) into ConnectionOptions,
// plus a display form of the URL that never contains the password. The URL grammar itself is
// src/protocol/redisUrl.ts's; what needs the file gate (TLS files) or the network gate's rule is here.
import { FileGateError, readBoundedFile } from '../gates/files';
import { resolve } from 'node:path';
import type { ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import { networkRuleFor, readAllowedHost } from '../gates/network';
import { ownField, ownValue } from '../gates/plainData';
import type { TargetPlan, TlsPlan } from '../scenario/plan';
import { displayUrl, parseRedisUrl, redactUrl, type ParsedRedisUrl } from '../protocol/redisUrl';
import type { SentinelNode } from '../protocol/sentinelUrl';
import type { ConnectionOptions, ConnectionProfile, SentinelOptions } from './types';

export interface ResolveContext {
  env: Record<string, string | undefined>;
  /** The password from the editor's SecretStorage, or RBENCH_PASSWORD in the CLI. */
  secret?: string;
  profiles?: Record<string, ConnectionProfile>;
  /** Folder that relative TLS file paths are resolved against (the scenario file's folder). */
  baseDir?: string;
  /** Hosts the user allows a cluster's nodes or a Sentinel's primary to be on (`--allow-host`), besides the profile's `allowHosts`. */
  allowHosts?: readonly string[];
}

export interface ResolvedConnection {
  options?: ConnectionOptions;
  error?: string;
  /** The target URL without any password, e.g. `redis://alice@10.0.0.5:6380/2`: what run files and logs show. */
  display: string;
}

export function resolveConnection(target: TargetPlan, context: ResolveContext): ResolvedConnection {
  const merged = applyProfile(target, context.profiles ?? {});
  if (typeof merged === 'string') return { error: merged, display: target.profile ? `profile ${target.profile}` : '' };
  if (!merged.url) {
    return { error: 'the target has no URL: give `target redis://host:port` or the name of a connection profile', display: '' };
  }
  const url = parseRedisUrl(merged.url);
  if (typeof url === 'string') return { error: url, display: redactUrl(merged.url) };

  const user = merged.user ?? url.user;
  const db = merged.db ?? url.db ?? 0;
  const tlsEnabled = url.tls || merged.tls?.enabled === true;
  const display = displayUrl({ tls: tlsEnabled, host: url.host, port: url.port, path: url.path, user, db, sentinel: url.sentinel });
  if (url.path !== undefined && tlsEnabled) {
    return { error: `the target ${display} is a unix socket, which Redis serves without TLS: remove the tls settings, or use a rediss:// URL`, display };
  }

  const password = lookUpPassword(merged, url, context);
  if (password.error) return { error: password.error, display };
  if (merged.cluster && url.sentinel) {
    return {
      error: `the target ${display} is a Sentinel target, which serves one primary, but cluster mode is on: turn cluster off, or name a cluster node with redis://`,
      display,
    };
  }
  if (merged.cluster && db !== 0) {
    return { error: `cluster mode has only database 0, but the target selects db ${db}: remove the db or turn cluster off`, display };
  }
  let tls: TlsConnectionOptions | undefined;
  if (tlsEnabled) {
    const built = buildTlsOptions(merged.tls, context.baseDir ?? process.cwd());
    if (typeof built === 'string') return { error: built, display };
    tls = built;
  }
  const options: ConnectionOptions = {
    host: url.host,
    port: url.port,
    resp: target.resp,
    connectTimeoutMs: target.connectTimeoutMs,
  };
  if (tls) options.tls = tls;
  if (url.path !== undefined) options.path = url.path;
  if (user !== undefined) options.username = user;
  if (password.value !== undefined) {
    options.password = password.value;
    options.passwordSource = password.source;
  }
  if (db !== 0) options.db = db;
  if (merged.cluster) options.cluster = true;
  if (url.sentinel) {
    const sentinel = sentinelOptions(merged, url.sentinel, context);
    if (typeof sentinel === 'string') return { error: sentinel, display };
    options.sentinel = sentinel;
  }
  if (merged.replicaReads) options.replicaReads = true;
  const allowHosts = allowedHosts(target.profile ? context.profiles?.[target.profile] : undefined, target.profile, context.allowHosts ?? []);
  if (typeof allowHosts === 'string') return { error: allowHosts, display };
  // The network gate's rule, fixed now (before any contact) from what the user named.
  options.network = networkRuleFor(options, allowHosts);
  return { options, display };
}

/** The profile's `allowHosts` and the user's own (`--allow-host`), normalised; or a message naming the bad entry. */
function allowedHosts(profile: ConnectionProfile | undefined, name: string | undefined, own: readonly string[]): string[] | string {
  const listed = profile?.allowHosts;
  if (listed !== undefined && !Array.isArray(listed)) {
    return `connection profile "${name}" has "allowHosts" ${JSON.stringify(listed)}: it must be a list of hosts, such as ["10.0.0.6", "10.0.0.7"]`;
  }
  const hosts: string[] = [];
  for (const [from, entries] of [
    [`connection profile "${name}" "allowHosts"`, listed ?? []],
    ['--allow-host', own],
  ] as const) {
    for (const entry of entries) {
      const host = readAllowedHost(entry);
      if (typeof host !== 'string') return `${from}: ${host.error}`;
      hosts.push(host);
    }
  }
  return hosts;
}

/** Who the sentinels are and how they authenticate: `sentinel-user`, and `sentinel-password` from the environment or the secret. */
function sentinelOptions(target: TargetPlan, url: { name: string; nodes: SentinelNode[] }, context: ResolveContext): SentinelOptions | string {
  const sentinel: SentinelOptions = { name: url.name, nodes: url.nodes };
  if (target.sentinelUser !== undefined) sentinel.username = target.sentinelUser;
  const password = lookUpPassword(
    { ...target, passwordEnv: ownField(target, 'sentinelPasswordEnv'), passwordSecret: ownField(target, 'sentinelPasswordSecret') },
    {},
    context,
  );
  if (password.error) return password.error.replace(/`password /g, '`sentinel-password ');
  if (password.value !== undefined) {
    sentinel.password = password.value;
    sentinel.passwordSource = password.source;
  }
  return sentinel;
}

/** The profile's settings, overridden by whatever the scenario's target states itself. */
function applyProfile(target: TargetPlan, profiles: Record<string, ConnectionProfile>): TargetPlan | string {
  if (!target.profile) return target;
  // By own property only: a profile named `constructor` is unknown, not Object.
  const profile = ownValue(profiles, target.profile);
  if (!profile) {
    const known = Object.keys(profiles);
    return `unknown connection profile "${target.profile}": ${
      known.length ? `known profiles are ${known.map((name) => `"${name}"`).join(', ')}` : 'no profiles are defined in the settings'
    }`;
  }
  // Credential fields by own property only: a polluted Object.prototype must not name a password source.
  const passwordEnv = ownField(target, 'passwordEnv');
  const passwordSecret = ownField(target, 'passwordSecret');
  const sentinelPasswordEnv = ownField(target, 'sentinelPasswordEnv');
  const sentinelPasswordSecret = ownField(target, 'sentinelPasswordSecret');
  const ownPassword = passwordEnv !== undefined || passwordSecret === true;
  const ownSentinelPassword = sentinelPasswordEnv !== undefined || sentinelPasswordSecret === true;
  const profileTls: TlsPlan | undefined = profile.tls ? { enabled: true, ...profile.tls } : undefined;
  return {
    ...target,
    url: target.url ?? profile.url,
    user: target.user ?? profile.user,
    passwordEnv: ownPassword ? passwordEnv : ownField(profile, 'passwordEnv'),
    passwordSecret: ownPassword ? passwordSecret : ownField(profile, 'passwordSecret'),
    tls: target.tls ?? profileTls,
    cluster: target.cluster || profile.cluster === true,
    sentinelUser: target.sentinelUser ?? profile.sentinelUser,
    sentinelPasswordEnv: ownSentinelPassword ? sentinelPasswordEnv : ownField(profile, 'sentinelPasswordEnv'),
    sentinelPasswordSecret: ownSentinelPassword ? sentinelPasswordSecret : ownField(profile, 'sentinelPasswordSecret'),
    ...(target.replicaReads || profile.replicaReads === true ? { replicaReads: true } : {}),
  };
}

function lookUpPassword(
  target: TargetPlan,
  url: Pick<ParsedRedisUrl, 'password'>,
  context: ResolveContext,
): { value?: string; source?: string; error?: string } {
  // Own fields only: a polluted Object.prototype must not name a password source.
  const name = ownField(target, 'passwordEnv');
  if (name !== undefined) {
    const value = ownValue(context.env, name);
    if (value === undefined || value === '') {
      return {
        error:
          `the password comes from the environment variable ${name} (\`password env:${name}\`), but ${name} is ${value === undefined ? 'not set' : 'empty'}: ` +
          `set it where RBench starts (e.g. \`export ${name}=…\` before running the CLI or starting the editor), or use \`password secret\``,
      };
    }
    return { value, source: `environment variable ${name}` };
  }
  if (ownField(target, 'passwordSecret')) {
    if (context.secret === undefined || context.secret === '') {
      return {
        error:
          'the target uses `password secret`, but no password is stored: in the editor run "RBench: Set Password"; ' +
          'for the CLI set the RBENCH_PASSWORD environment variable',
      };
    }
    return { value: context.secret, source: 'the stored secret (RBENCH_PASSWORD in the CLI)' };
  }
  if (url.password !== undefined) return { value: url.password, source: 'the target URL' };
  return {};
}

function buildTlsOptions(plan: TlsPlan | undefined, baseDir: string): TlsConnectionOptions | string {
  const options: TlsConnectionOptions = {};
  if (!plan) return options;
  if ((plan.cert === undefined) !== (plan.key === undefined)) {
    return 'TLS client certificates need both a cert file and a key file: set both `tls cert` and `tls key`, or neither';
  }
  for (const kind of ['ca', 'cert', 'key'] as const) {
    const file = plan[kind];
    if (file === undefined) continue;
    const content = readTlsFile(kind, resolve(baseDir, file));
    if (typeof content === 'string') return content;
    options[kind] = content;
  }
  if (plan.servername) options.servername = plan.servername;
  if (plan.insecure) options.rejectUnauthorized = false;
  return options;
}

/** Certificates and keys are a few KB; a bundle of every public CA is ~200 KB. */
export const MAX_TLS_FILE_BYTES = 1024 * 1024;

/**
 * A TLS file through the file gate: a regular file, at most MAX_TLS_FILE_BYTES, opened without blocking
 * (`tls ca /dev/stdin` or a FIFO cannot hang the run, `/dev/zero` cannot fill memory).
 */
function readTlsFile(kind: 'ca' | 'cert' | 'key', path: string): Buffer | string {
  try {
    return readBoundedFile(path, { userNamed: true, maxBytes: MAX_TLS_FILE_BYTES });
  } catch (error) {
    if (!(error instanceof FileGateError)) throw error;
    if (error.problem === 'missing')
      return `TLS ${kind} file not found: ${path} (check the \`tls ${kind}\` path; relative paths start at the scenario's folder)`;
    return `cannot read TLS ${kind} file: ${error.message} (check the \`tls ${kind}\` path)`;
  }
}
