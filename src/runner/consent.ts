// One consent for every run that is not on the throwaway server, loopback included: what the run will do
// (hosts, credentials and the environment variables they come from, TLS weakening, every command by
// class), worked out before any contact, shown in full, and remembered by a digest of exactly that, so a
// file that changes what it does asks again. Plain data, no `vscode`, no network.
import { planDataSources } from '../scenario/dataFile';
import { formatBytes } from '../scenario/memory';
import { approvedNodes } from '../gates/network';
import { ownValue } from '../gates/plainData';
import { createHash } from 'node:crypto';
import { address } from '../redis/errors';
import type { ConnectionOptions, ConnectionProfile } from '../redis/types';
import { COMMAND_CLASSES, type CommandClass } from '../scenario/commands';
import type { ScenarioPlan, TargetPlan } from '../scenario/plan';
import { CLASS_WORDS, type ScenarioActions } from './safety';
import { groupDigits } from '../scenario/numberText';

/**
 * Who supplied a piece of the run: the scenario file, a workspace's settings (both came with the
 * repository), or the user (a CLI flag, the user's own settings, a password they stored).
 */
export type Supplier = 'file' | 'workspace' | 'user';

export interface CredentialEffect {
  /** `server`: the data nodes' AUTH; `sentinels`: the sentinels' own. */
  role: 'server' | 'sentinels';
  /** The ACL user name (it is sent) and where it came from. */
  user?: { name: string; from: string; supplier: Supplier };
  /** Where the password comes from, never the password: `environment variable X`, `the password stored for …`. */
  password?: { from: string; supplier: Supplier };
}

export interface EnvEffect {
  name: string;
  /** What its value becomes on the wire: `password`, `user name`, `TLS server name (SNI)`, `every value written`. */
  use: string;
  supplier: Supplier;
}

export interface TlsEffect {
  /** `certificates are not verified (tls-insecure on)`. */
  item: string;
  supplier: Supplier;
}

export interface RunEffects {
  /** The scenario file as recorded (workspace-relative): a "Run" holds for one file. */
  file: string;
  target: { display: string; supplier: Supplier; via: string[] };
  /** Every host:port (or unix socket) contacted first: the seed, or every sentinel. */
  hosts: string[];
  /** For a cluster or Sentinel target: which further nodes the run may reach. */
  nodeRule?: string;
  /**
   * A cluster only the file declared (`cluster on`) on a target the user chose: every node its seed announced
   * (`127.0.0.1:7001 (master)`), read from the seed before the question; the user named the seed alone.
   */
  announcedNodes?: string[];
  credentials: CredentialEffect[];
  /** Every environment variable whose value goes on the wire. */
  env: EnvEffect[];
  tls: TlsEffect[];
  /** Every command, by class. */
  commands: Partial<Record<CommandClass, string[]>>;
  /** Every key glob the run writes (the cleanup pattern included): `bench:*`, `counter`. */
  writePatterns: string[];
  destructive: string[];
  /** Data files (`values from`, `fields from`) whose contents go on the wire: file, size, entries and SHA-256, so changed data asks again. */
  dataFiles?: string[];
  /** Connections beyond one per client (`reconnect every`, `idle-connections`), per phase: `phase main: 200 idle connections held beside the load`. */
  connections?: string[];
}

export interface EffectsInput {
  file: string;
  plan: ScenarioPlan;
  actions: ScenarioActions;
  /** The chosen target: the scenario's own (`scenario`), or the user's selection or --url (`selected`), with profile or URL filled in. */
  choice: { source: 'scenario' | 'selected'; target: TargetPlan; fileDb?: number };
  /** Who supplied the selected target (`rbench.target` from a workspace, or the user's own), and how it is named. */
  selected?: { supplier: Exclude<Supplier, 'file'>; via: string };
  profiles: Record<string, ConnectionProfile>;
  /** Profiles defined (or changed) by a workspace's settings; the others are the user's. */
  workspaceProfiles?: ReadonlySet<string>;
  /** The resolved connection: options as they will be used, display without password. */
  connection: { display: string; options: ConnectionOptions };
  /** A stored password (Set Password) is used because nothing else names one. */
  storedPasswordUsed?: boolean;
  /** The CLI's `password secret`: the environment variable it reads (RBENCH_PASSWORD). */
  secretEnv?: string;
  /** Environment variables the user lets into commands, and the file's text to see which it uses. */
  allowEnv?: readonly string[];
  text?: string;
  /** The nodes the seed announced, when the file alone declared the cluster on the user's target (RunEffects.announcedNodes). */
  announcedNodes?: readonly string[];
}

/** The worse of two suppliers: a file outranks a workspace, a workspace the user. */
function worse(a: Supplier, b: Supplier): Supplier {
  const rank: Supplier[] = ['user', 'workspace', 'file'];
  return rank[Math.max(rank.indexOf(a), rank.indexOf(b))];
}

/** The profile the chosen target names, if any. */
function chosenProfile(input: EffectsInput): ConnectionProfile | undefined {
  const name = input.choice.target.profile;
  return name === undefined ? undefined : ownValue(input.profiles, name);
}

function profileSupplier(input: EffectsInput, name: string | undefined): Supplier {
  return name !== undefined && input.workspaceProfiles?.has(name) ? 'workspace' : 'user';
}

/** Whose choice the target is: the file's, a workspace's, or the user's (with the profile it names). */
function targetOf(input: EffectsInput): { supplier: Supplier; via: string[]; urlSupplier: Supplier } {
  const profile = input.choice.target.profile;
  const via: string[] = [];
  let supplier: Supplier;
  if (input.choice.source === 'scenario') {
    supplier = 'file';
    via.push(`the file names it (${profile !== undefined ? `profile "${profile}"` : 'its target line'})`);
  } else {
    supplier = input.selected?.supplier ?? 'user';
    via.push(input.selected?.via ?? 'your selected target');
  }
  let urlSupplier = supplier;
  if (input.choice.fileDb !== undefined && input.choice.source === 'selected') {
    // A change of target, as SELECT is: the selected URL names no database, and the file's `db` picks one.
    via.push(`the file's db line moves it to database ${input.choice.fileDb} (the selected target names no database)`);
    supplier = worse(supplier, 'file');
  }
  if (profile !== undefined) {
    // A target names a profile or a URL, never both: the URL is the profile's.
    const defined = profileSupplier(input, profile);
    if (defined === 'workspace') via.push(`profile "${profile}" is defined in the workspace settings`);
    urlSupplier = defined;
    supplier = worse(supplier, defined);
  }
  return { supplier, via, urlSupplier };
}

function hostsOf(options: ConnectionOptions): string[] {
  if (options.sentinel) return options.sentinel.nodes.map((node) => address(node));
  return [address(options)];
}

/** The nodes RBench may reach, in the network gate's own words (src/gates/network.ts): one rule, shown and applied. */
export function nodeRule(options: ConnectionOptions): string | undefined {
  if (!options.sentinel && !options.cluster && !options.network?.allowHosts.length) return undefined;
  const rule = approvedNodes(options).describe();
  return options.replicaReads && options.cluster ? `${rule} (replicas too: replica-reads on)` : rule;
}

function wireEnvNames(plan: ScenarioPlan, setting: string): string[] {
  return plan.wireEnv?.find((entry) => entry.setting === setting)?.names ?? [];
}

const WIRE_USES: Record<string, string> = {
  target: 'target URL (host, user, password)',
  user: 'user name',
  'sentinel-user': 'sentinel user name',
  db: 'database number',
  'tls-servername': 'TLS server name (SNI, sent in clear)',
  'tls-ca': 'TLS CA file path',
  'tls-cert': 'TLS client certificate path',
  'tls-key': 'TLS client key path',
  'value-fill': 'every value written',
};

function credentialsOf(input: EffectsInput, urlSupplier: Supplier, env: EnvEffect[]): CredentialEffect[] {
  const { plan, choice, connection } = input;
  const own = plan.target;
  const profileName = choice.target.profile;
  const profile = chosenProfile(input);
  const fromProfile = profileSupplier(input, profileName);
  const credentials: CredentialEffect[] = [];

  const server: CredentialEffect = { role: 'server' };
  const username = connection.options.username;
  if (username !== undefined) {
    const envNames = wireEnvNames(plan, own.user !== undefined ? 'user' : 'target');
    const fromEnv = envNames.length > 0 ? ` (from ${envNames.map((name) => `environment variable ${name}`).join(', ')})` : '';
    if (own.user !== undefined) server.user = { name: username, from: `the file's user line${fromEnv}`, supplier: 'file' };
    else if (profile?.user !== undefined) server.user = { name: username, from: `profile "${profileName}"`, supplier: fromProfile };
    else server.user = { name: username, from: `the target URL${fromEnv}`, supplier: urlSupplier };
  }
  const password = passwordOf(
    input,
    {
      fileEnv: own.passwordEnv,
      fileSecret: own.passwordSecret,
      profileEnv: profile?.passwordEnv,
      profileSecret: profile?.passwordSecret,
      storedFallback: input.storedPasswordUsed === true,
      urlPassword: connection.options.password !== undefined,
    },
    urlSupplier,
    fromProfile,
  );
  if (password) {
    server.password = password.effect;
    if (password.env) env.push({ name: password.env, use: 'password', supplier: password.effect.supplier });
  }
  if (server.user || server.password) credentials.push(server);

  const sentinel = connection.options.sentinel;
  if (sentinel && (sentinel.username !== undefined || sentinel.password !== undefined)) {
    const effect: CredentialEffect = { role: 'sentinels' };
    if (sentinel.username !== undefined) {
      const fileOwn = own.sentinelUser !== undefined;
      const envNames = wireEnvNames(plan, 'sentinel-user');
      const fromEnv = envNames.length > 0 ? ` (from ${envNames.map((name) => `environment variable ${name}`).join(', ')})` : '';
      effect.user = fileOwn
        ? { name: sentinel.username, from: `the file's sentinel-user line${fromEnv}`, supplier: 'file' }
        : { name: sentinel.username, from: `profile "${profileName}"`, supplier: fromProfile };
    }
    const sentinelPassword = passwordOf(
      input,
      {
        fileEnv: own.sentinelPasswordEnv,
        fileSecret: own.sentinelPasswordSecret,
        profileEnv: profile?.sentinelPasswordEnv,
        profileSecret: profile?.sentinelPasswordSecret,
        storedFallback: false,
        urlPassword: false,
      },
      urlSupplier,
      fromProfile,
    );
    if (sentinelPassword) {
      effect.password = sentinelPassword.effect;
      if (sentinelPassword.env) env.push({ name: sentinelPassword.env, use: 'sentinel password', supplier: sentinelPassword.effect.supplier });
    }
    credentials.push(effect);
  }
  return credentials;
}

interface PasswordSources {
  fileEnv?: string;
  fileSecret?: boolean;
  profileEnv?: string;
  profileSecret?: boolean;
  /** The data nodes take a stored password when nothing else names one; sentinels never do. */
  storedFallback: boolean;
  urlPassword: boolean;
}

/** Where a password comes from, in resolveConnection's order: the file's, the profile's, a stored one, the URL's. */
function passwordOf(
  input: EffectsInput,
  sources: PasswordSources,
  urlSupplier: Supplier,
  fromProfile: Supplier,
): { effect: { from: string; supplier: Supplier }; env?: string } | undefined {
  const secret = (supplier: Supplier) =>
    input.secretEnv !== undefined
      ? { effect: { from: `environment variable ${input.secretEnv} (password secret)`, supplier }, env: input.secretEnv }
      : { effect: { from: 'the password you stored for this target', supplier } };
  const { fileEnv, profileEnv } = sources;
  if (fileEnv !== undefined)
    return { effect: { from: `environment variable ${fileEnv} (the file's password env:${fileEnv})`, supplier: 'file' }, env: fileEnv };
  if (sources.fileSecret) return secret('file');
  if (profileEnv !== undefined)
    return { effect: { from: `environment variable ${profileEnv} (passwordEnv of the profile)`, supplier: fromProfile }, env: profileEnv };
  if (sources.profileSecret) return secret(fromProfile);
  if (sources.storedFallback) return secret('user');
  if (sources.urlPassword) return { effect: { from: 'the target URL', supplier: urlSupplier } };
  return undefined;
}

function tlsOf(input: EffectsInput): TlsEffect[] {
  const own = input.plan.target.tls;
  const profileName = input.choice.target.profile;
  const profile = chosenProfile(input);
  const fromProfile = profileSupplier(input, profileName);
  const items: TlsEffect[] = [];
  if (own && profile?.tls) items.push({ item: `the file's TLS settings replace those of profile "${profileName}"`, supplier: 'file' });
  if (own && !own.enabled && (profile?.tls || /^rediss/i.test(String(profile?.url))))
    items.push({ item: 'TLS is turned off (tls off in the file)', supplier: 'file' });
  const insecure = own ? own.insecure === true : profile?.tls?.insecure === true;
  if (insecure && input.connection.options.tls) {
    items.push({ item: "the server's certificate is not verified (tls-insecure on)", supplier: own ? 'file' : fromProfile });
  }
  if (own?.ca !== undefined) items.push({ item: `trusts the CA certificate ${own.ca} (tls-ca in the file)`, supplier: 'file' });
  if (own?.servername !== undefined) items.push({ item: `TLS server name ${own.servername} (tls-servername in the file)`, supplier: 'file' });
  // The certificate's content goes to the server in the handshake: which file it is belongs in the question.
  if (own?.cert !== undefined)
    items.push({ item: `sends the client certificate ${own.cert} (tls-cert in the file, signed with tls-key ${own.key})`, supplier: 'file' });
  return items;
}

function envOf(input: EffectsInput, env: EnvEffect[]): void {
  for (const { setting, names } of input.plan.wireEnv ?? []) {
    for (const name of names) env.push({ name, use: WIRE_USES[setting], supplier: 'file' });
  }
  // Allowed by the user (--allow-env, rbench.allowEnvInCommands) and used elsewhere than the settings above: in commands.
  const text = input.text;
  if (!input.allowEnv || text === undefined) return;
  for (const name of input.allowEnv) {
    if (env.some((item) => item.name === name)) continue;
    if (text.includes(`\${env:${name}`)) env.push({ name, use: 'commands', supplier: 'user' });
  }
}

/** What a run will do, from the plan and the resolved (not yet opened) connection. */
export function runEffects(input: EffectsInput): RunEffects {
  const target = targetOf(input);
  const env: EnvEffect[] = [];
  const credentials = credentialsOf(input, target.urlSupplier, env);
  envOf(input, env);
  const effects: RunEffects = {
    file: input.file,
    target: { display: input.connection.display, supplier: target.supplier, via: target.via },
    hosts: hostsOf(input.connection.options),
    credentials,
    env,
    tls: tlsOf(input),
    commands: copyCommands(input.actions.commands),
    writePatterns: [...input.actions.writePatterns],
    destructive: [...input.actions.destructive],
  };
  const data = planDataSources(input.plan).map(
    (source) =>
      `${source.file} (${groupDigits(source.count)} ${source.take === 'fields' ? 'rows' : 'values'}, ${formatBytes(source.size)}, sha256 ${source.sha256.slice(0, 12)}…)`,
  );
  if (data.length > 0) effects.dataFiles = data;
  const connections = connectionChurn(input.plan);
  if (connections.length > 0) effects.connections = connections;
  const rule = nodeRule(input.connection.options);
  if (rule) effects.nodeRule = rule;
  if (input.announcedNodes?.length) effects.announcedNodes = [...input.announcedNodes];
  return effects;
}

/** Each phase's connections beyond one per client, at its largest over the sweep points. */
function connectionChurn(plan: ScenarioPlan): string[] {
  const idle = new Map<string, number>();
  const every = new Map<string, number>();
  // `connect-only`: a storm, a connection per request (the clients say how many at a time).
  const storms = new Set<string>();
  for (const point of plan.points) {
    for (const phase of point.phases) {
      // A phase of client groups runs its groups' loads (a storm group beside readers), each named.
      const loads = phase.groups
        ? phase.groups.map((group) => [`${phase.name}, group ${group.name}`, group.phase.load] as const)
        : [[phase.name, phase.load] as const];
      for (const [name, { idleConnections, reconnectEvery, connectOnly }] of loads) {
        if (idleConnections) idle.set(name, Math.max(idle.get(name) ?? 0, idleConnections));
        if (reconnectEvery !== undefined) every.set(name, Math.min(every.get(name) ?? Infinity, reconnectEvery));
        if (connectOnly) storms.add(name);
      }
    }
  }
  const lines: string[] = [];
  for (const phase of storms) lines.push(`phase ${phase}: connect-only, opens and closes a connection per request (no commands besides the handshake)`);
  for (const [phase, n] of every) lines.push(`phase ${phase}: each client opens a new connection every ${groupDigits(n)} request${n === 1 ? '' : 's'}`);
  for (const [phase, n] of idle) lines.push(`phase ${phase}: ${groupDigits(n)} idle connection${n === 1 ? '' : 's'} held beside the load`);
  return lines;
}

function copyCommands(commands: Partial<Record<CommandClass, string[]>>): Partial<Record<CommandClass, string[]>> {
  const copy: Partial<Record<CommandClass, string[]>> = {};
  for (const kind of COMMAND_CLASSES) if (commands[kind]?.length) copy[kind] = [...commands[kind]];
  return copy;
}

/** True when the run only reads: no class but read and blocking, no cleanup, nothing destructive. */
export function onlyReads(effects: RunEffects): boolean {
  const classes = (Object.keys(effects.commands) as CommandClass[]).filter((kind) => (effects.commands[kind]?.length ?? 0) > 0);
  return classes.every((kind) => kind === 'read' || kind === 'blocking') && effects.writePatterns.length === 0 && effects.destructive.length === 0;
}

/**
 * Every run asks, loopback included, unless the target is the user's own choice (its database too), the
 * run only reads, reaches no node the user did not name, and no credential, environment value or TLS
 * setting comes from the file or a workspace.
 */
export function needsConsent(effects: RunEffects): boolean {
  if (effects.target.supplier !== 'user') return true;
  if (!onlyReads(effects)) return true;
  // The file's `cluster on` takes the run to nodes the user did not name.
  if (effects.announcedNodes?.length) return true;
  // The file's own data goes on the wire.
  if (effects.dataFiles?.length) return true;
  // Connections beyond the clients': a storm of them is an effect on the server of its own.
  if (effects.connections?.length) return true;
  const suppliers = [
    ...effects.credentials.flatMap((credential) => [credential.user?.supplier, credential.password?.supplier]),
    ...effects.env.map((item) => item.supplier),
    ...effects.tls.map((item) => item.supplier),
  ];
  return suppliers.some((supplier) => supplier !== undefined && supplier !== 'user');
}

/** A JSON text with keys sorted, so equal effects encode equally. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // Keys are distinct: the default sort (by UTF-16 code units) orders them fully.
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sortedUnique = (items: readonly string[]) => [...new Set(items)].sort();
const byCanonical = <T>(items: readonly T[]) => sortedUnique(items.map(canonical));

/** sha256 of the effects, the same whatever order commands, hosts or variables were listed in. */
export function effectsDigest(effects: RunEffects): string {
  const commands: Record<string, string[]> = {};
  for (const [kind, list] of Object.entries(effects.commands)) if (list && list.length > 0) commands[kind] = sortedUnique(list);
  const normal = {
    file: effects.file,
    target: { display: effects.target.display, supplier: effects.target.supplier, via: sortedUnique(effects.target.via) },
    hosts: sortedUnique(effects.hosts),
    nodeRule: effects.nodeRule ?? null,
    // Only when there are some: the digests of every other run stay as they were (remembered answers hold).
    announcedNodes: effects.announcedNodes ? sortedUnique(effects.announcedNodes) : undefined,
    connections: effects.connections ? sortedUnique(effects.connections) : undefined,
    credentials: byCanonical(effects.credentials),
    env: byCanonical(effects.env),
    tls: byCanonical(effects.tls),
    commands,
    writePatterns: sortedUnique(effects.writePatterns),
    destructive: sortedUnique(effects.destructive),
  };
  return createHash('sha256').update(canonical(normal)).digest('hex');
}

const SUPPLIER_WORDS: Record<Supplier, string> = { file: 'from the file', workspace: 'from the workspace settings', user: 'yours' };

/** A class's words as a line begins them: `Reads`, `Wipes data`. */
function classHeading(kind: CommandClass): string {
  const words = CLASS_WORDS[kind];
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export interface ConsentQuestion {
  /** One line: what runs where. */
  message: string;
  /** Everything the run does, one item per line (the modal's detail). */
  lines: string[];
}

/** The question, listing every effect: target and who chose it, hosts, credentials, variables, TLS, commands. */
export function consentQuestion(effects: RunEffects, scenario: string): ConsentQuestion {
  const lines: string[] = [];
  lines.push(`Target: ${effects.target.display} (${SUPPLIER_WORDS[effects.target.supplier]}: ${effects.target.via.join('; ')})`);
  lines.push(`Connects to: ${effects.nodeRule ?? effects.hosts.join(', ')}`);
  if (effects.announcedNodes?.length) lines.push(`Reaches the nodes it announces (the file's cluster on): ${effects.announcedNodes.join(', ')}`);
  for (const credential of effects.credentials) {
    const who = credential.role === 'sentinels' ? 'Sentinels' : 'Server';
    if (credential.user) lines.push(`${who} user: ${credential.user.name} (${credential.user.from}; ${SUPPLIER_WORDS[credential.user.supplier]})`);
    if (credential.password) lines.push(`${who} password: ${credential.password.from} (${SUPPLIER_WORDS[credential.password.supplier]})`);
  }
  for (const item of effects.env) {
    const how = item.use === 'commands' ? 'in commands' : `as the ${item.use}`;
    lines.push(`Sends environment variable ${item.name}: ${how} (${SUPPLIER_WORDS[item.supplier]})`);
  }
  for (const item of effects.tls) lines.push(`TLS: ${item.item}`);
  for (const kind of COMMAND_CLASSES) {
    const list = effects.commands[kind];
    if (list && list.length > 0) lines.push(`${classHeading(kind)}: ${list.join(', ')}`);
  }
  if (effects.writePatterns.length > 0) lines.push(`Writes keys matching: ${effects.writePatterns.join(', ')}`);
  if (effects.destructive.length > 0) lines.push(`Can destroy keys it did not create: ${effects.destructive.join(', ')}`);
  if (effects.dataFiles?.length) lines.push(`Sends the contents of: ${effects.dataFiles.join(', ')}`);
  if (effects.connections?.length) lines.push(`Connections beyond one per client: ${effects.connections.join('; ')}`);
  return { message: `Run "${scenario}" from ${effects.file} against ${effects.target.display}?`, lines };
}

/** What a session hands its confirm port: the effects, their digest (the key an answer is kept under) and the question. */
export interface ConsentRequest {
  scenario: string;
  effects: RunEffects;
  digest: string;
  question: ConsentQuestion;
}

export function consentRequest(effects: RunEffects, scenario: string): ConsentRequest {
  return { scenario, effects, digest: effectsDigest(effects), question: consentQuestion(effects, scenario) };
}
