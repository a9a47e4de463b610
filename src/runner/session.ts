// A run from scenario file to saved result, once for the CLI and the editor: which scenarios run and which
// errors block them, the target, the safety decisions, the throwaway server's life, connecting, running
// (runScenario per scenario), redacting secrets, writing the run file and reporting. The outside world is
// reached only through SessionPorts (confirm, secrets, log, progress), which `rbench run` and the extension
// implement. Plain Node, no `vscode`.
import { basename, resolve } from 'node:path';
import { ownValue } from '../gates/plainData';
import { moduleProblem, serverBinaryPath, startLocalServer, type LocalServer } from '../redis/localServer';
import { redactUrl } from '../protocol/redisUrl';
import type { ResolvedConnection } from '../redis/target';
import type { ConnectionOptions, ConnectionProfile } from '../redis/types';
import { discoverTopology, type TopologyNode } from '../redis/clusterTopology';
import { openRawControl, preparingLoads } from '../engine';
import { formatAddress } from '../gates/network';
import { checkText, type ResolveOptions } from '../scenario';
import { memoryLimits, scenarioFileRefusal } from './budget';
import { formatBytes } from '../scenario/memory';
import type { ResolvedFile, ScenarioPlan, TargetPlan } from '../scenario/plan';
import { scenarioSource } from '../scenario/source';
import { loadDataTables, planDataSources } from '../scenario/dataFile';
import type { RunFile } from '../results/runFile';
import type { RunFileLimits } from '../results/runFileBounds';
import { saveRun } from '../results/runFileWriter';
import { chooseTarget, connectionFor, parseActiveTarget, settingsPasswordError, type TargetChoice } from './targets';
import { Redactor, stripUrlPassword } from './redact';
import { runScenario, type LoadPosition, type RunProgress } from './runScenario';
import { ownKeyTest } from './ownKeys';
import { runRefusal, scenarioActions, type RefusalOptions } from './safety';
import { checkAgainstServer } from './serverCommands';
import { runClientName } from './otherRuns';
import type { CommandClass } from '../scenario/commands';
import { consentRequest, needsConsent, runEffects, type ConsentRequest } from './consent';
import { markPart, shardPlan, type ShardSpec } from './shard';
import { blockingErrors, describeErrors, pickScenarios, pickTagged } from './selection';
import { crossSlotRefusal } from '../scenario/clusterKeys';
import { isServerSweep, runServerSweep, serverSweepRefusal, type PartOutcome, type ServerPart } from './serverSweep';

/** One scenario file handed to a session. */
export interface ScenarioFile {
  /** As shown in messages: a path relative to the working folder, or the file's name. */
  display: string;
  text: string;
  /** The file's folder: relative TLS paths start there. */
  baseDir?: string;
  /** As recorded in run files (a workspace-relative path). */
  recorded?: string;
}

export interface SessionSettings {
  /** For `${env:…}` and `password env:NAME`. */
  env: Record<string, string | undefined>;
  vars?: Record<string, string>;
  /** Environment variables the user lets into commands (`--allow-env`, rbench.allowEnvInCommands). */
  allowEnv?: readonly string[];
  /** Admin commands (CONFIG, MODULE, DEBUG, SHUTDOWN, ACL, REPLICAOF…) allowed by the user (`--allow-admin`, rbench.allowAdminCommands). */
  allowAdmin?: boolean;
  /** Commands that can destroy or rewrite keys beyond the scenario's own (FLUSHALL, `cleanup *`, scripts…), allowed by the user (`--allow-destructive`, rbench.allowDestructiveCommands). */
  allowDestructive?: boolean;
  /** False in a restricted (untrusted) workspace: nothing runs and no server starts. */
  trusted?: boolean;
  /** `--cluster`: every target but the throwaway server is a Redis Cluster, as if it said `cluster on`. */
  cluster?: boolean;
  /** Hosts a cluster's nodes or a Sentinel's primary may be on besides the target's (`--allow-host`; the network gate). */
  allowHosts?: readonly string[];
  /**
   * The user's own target: a redis:// URL, a profile name or `local`. `override` (the CLI's --url) applies to
   * every scenario; otherwise (the editor's selected target) only to scenarios that name no target.
   */
  userTarget?: { value: string; override: boolean; supplier?: 'workspace' | 'user' };
  profiles?: Record<string, ConnectionProfile>;
  /** Profiles that a workspace's settings define or change (they came with the repository): runs on them ask. */
  workspaceProfiles?: readonly string[];
  /** The CLI: `password secret` reads this environment variable (RBENCH_PASSWORD); the editor's secret storage otherwise. */
  secretEnv?: string;
  /** Where run files go. */
  runsFolder: string;
  /**
   * The folder the runs folder must stay inside, no symbolic link followed (the workspace folder, or the
   * folder `rbench` runs from). Unset: runsFolder is the user's own choice (--out, a user setting).
   */
  runsFolderRoot?: string;
  /** How much of a long run its run file keeps (timeline entries, INFO samples); the documented caps when absent. */
  runFileLimits?: RunFileLimits;
  /** `--shard I/N`: every scenario runs its part I of N (src/runner/shard.ts). */
  shard?: ShardSpec;
  /** Bytes a plan may ask for on the server and in rbench (`--max-memory`, rbench.maxMemory); the defaults when absent. */
  maxMemory?: number;
  /** Modules the throwaway server loads (`--module PATH`, the machine setting rbench.localServer.modules): the user's, never a file's. */
  modules?: readonly string[];
  /** The throwaway server's binary (`--server-binary PATH`): the user's, never a file's; `redis-server` from PATH when absent. */
  serverBinary?: string;
  /**
   * The machine's named binaries (the machine setting rbench.serverBinaries, `--server-binary NAME=PATH`), name → path:
   * a file's `server binary NAME` starts the throwaway server from one (serverBinary, when given, wins).
   */
  serverBinaries?: Record<string, string>;
  /** An RDB file the throwaway server loads at start (`--rdb PATH`): the user's, never a file's. */
  rdb?: string;
}

export interface SessionPorts {
  /**
   * Asks before a run on any server but the throwaway one, listing its effects; true to run. Remembering
   * answers (by `request.digest`) is the port's job. Nothing has been contacted when it is called.
   */
  confirm(request: ConsentRequest): Promise<boolean>;
  /** The stored password for a target (the editor's secret storage; the CLI's RBENCH_PASSWORD). */
  secret(target: TargetPlan): Promise<string | undefined>;
  /** Notes and warnings for people (already redacted). */
  log(line: string): void;
  /** A run is about to start against this target. */
  started?(run: PreparedRun, target: { display: string; local: boolean }): void;
  progress?(run: PreparedRun, event: RunProgress): void;
  /**
   * The run's loads are done and its throwaway server still up (awaited before it stops): `rbench capture
   * --verify` counts the keys the replay left per pattern here. Only for a throwaway server.
   */
  finishing?(run: PreparedRun, target: { display: string; local: boolean }): Promise<void>;
  /** Checks a file's text (the editor: in its worker thread); the CLI leaves it out and checks in place. */
  check?(text: string, options: ResolveOptions): Promise<ResolvedFile>;
}

/** `invalid`: the file's errors block the scenario (its diagnostics say where). */
export type NotRunReason = 'declined' | 'error' | 'invalid' | 'restricted';

export interface NotRun {
  kind: 'not-run';
  reason: NotRunReason;
  message: string;
  file: ScenarioFile;
  plan?: ScenarioPlan;
  /** The run could not even try to connect (no server, bad target): the CLI's connection exit code. */
  connection?: boolean;
}

export interface FinishedRun {
  kind: 'finished';
  file: ScenarioFile;
  plan: ScenarioPlan;
  run: RunFile;
  /** The run file written; absent when saving failed. */
  path?: string;
  /** Why the run file could not be written: a plain message naming the folder and the cause. */
  saveError?: string;
}

export type SessionOutcome = FinishedRun | NotRun;

/** A scenario checked and confirmed: ready to execute. */
export interface PreparedRun {
  file: ScenarioFile;
  plan: ScenarioPlan;
  plans: ScenarioPlan[];
  choice: TargetChoice;
  storedPassword?: string;
  /** The classes the run was allowed by (the consent's, from the built-in table): the server's table may not add to them. */
  classes?: ReadonlySet<CommandClass>;
  /** The refusal rules, applied again once the server's own table is read. */
  refusal?: RefusalOptions;
}

export const RESTRICTED_MESSAGE =
  'this workspace is not trusted: RBench checks scenarios here but runs nothing and starts no server — trust the workspace ("Manage Workspace Trust") to run it';

export class RunSession {
  constructor(
    private readonly settings: SessionSettings,
    private readonly ports: SessionPorts,
  ) {}

  /** Parses and resolves a file with the user's environment rules and memory limit. */
  resolve(file: ScenarioFile): ResolvedFile {
    return checkText(file.text, this.checkOptions(file));
  }

  /** As `resolve`, through the check port when there is one; a file over the size cap is refused before any parsing. */
  async check(file: ScenarioFile): Promise<ResolvedFile | NotRun> {
    // Work of any size before loads: in the CLI, V8 had stopped optimizing when the last load ended (engine).
    preparingLoads();
    const tooLarge = scenarioFileRefusal(file.display, file.text);
    if (tooLarge) return this.notRun('error', tooLarge, file);
    if (!this.ports.check) return this.resolve(file);
    try {
      return await this.ports.check(file.text, this.checkOptions(file));
    } catch (error) {
      return this.notRun('error', `${file.display}: could not be checked (${(error as Error).message})`, file);
    }
  }

  private checkOptions(file: ScenarioFile): ResolveOptions {
    const { env, vars, allowEnv, maxMemory, serverBinaries } = this.settings;
    return { env, vars, allowEnv, baseDir: file.baseDir, memory: memoryLimits(maxMemory), serverBinaries: Object.keys(serverBinaries ?? {}) };
  }

  /**
   * The scenarios of a file named by `wanted` (names or 1-based numbers; all when empty) and carrying one of
   * `tags` (all when empty), or why there are none. A file none of whose scenarios has the tags gives an empty
   * list, not a refusal: `--tag` picks from many files.
   */
  select(file: ScenarioFile, resolved: ResolvedFile, wanted: readonly string[] = [], tags: readonly string[] = []): ScenarioPlan[] | NotRun {
    const plans = pickScenarios(resolved.scenarios, wanted);
    if (plans.length > 0) return pickTagged(plans, tags);
    const message =
      resolved.scenarios.length === 0
        ? `${file.display}: no scenario with commands to run`
        : `${file.display}: no scenario named ${wanted.map((n) => `"${n}"`).join(', ')}; it has: ${resolved.scenarios.map((p) => `"${p.name}"`).join(', ')}`;
    return this.notRun('error', message, file);
  }

  /** Applies the rules that decide whether a scenario may run, asking when needed. Starts nothing. */
  async prepare(file: ScenarioFile, resolved: ResolvedFile, plan: ScenarioPlan): Promise<PreparedRun | NotRun> {
    preparingLoads(); // its data files come next (measure), as `check` says
    if (this.settings.trusted === false) return this.notRun('restricted', `"${plan.name}" was not run: ${RESTRICTED_MESSAGE}`, file, plan);
    const errors = blockingErrors(resolved, plan);
    if (errors.length > 0)
      return this.notRun('invalid', `${file.display}: "${plan.name}" cannot run until its errors are fixed — ${describeErrors(errors)}`, file, plan);

    if (this.settings.shard) {
      const part = shardPlan(plan, this.settings.shard);
      if (typeof part === 'string') return this.notRun('error', `${file.display}: scenario "${plan.name}": ${part}`, file, plan);
      plan = part;
    }

    const profiles = this.settings.profiles ?? {};
    const choice = this.chooseTarget(plan.target);
    if (typeof choice === 'string') return this.notRun('error', choice, file, plan);
    const settingsError = settingsPasswordError(choice, profiles);
    if (settingsError) return this.notRun('error', settingsError, file, plan);

    // The consent lists what the built-in table says, a command it does not know counting as the worst; the
    // refusals wait for the server's own table on those (src/runner/serverCommands.ts applies them again).
    const actions = scenarioActions(plan);
    const refusalRules: RefusalOptions = {
      allowAdmin: this.settings.allowAdmin === true,
      allowDestructive: this.settings.allowDestructive === true,
      throwaway: choice.local,
      profileName: choice.target.profile,
      readOnly: choice.target.profile ? ownValue(profiles, choice.target.profile)?.readOnly : undefined,
    };
    const refusal = runRefusal(plan, scenarioActions(plan, undefined, { skipUnknown: true }), refusalRules);
    if (refusal) return this.notRun('error', `${file.display}: ${refusal}`, file, plan);
    const sweepRefusal = serverSweepRefusal(
      plan,
      choice.local,
      choice.target.profile ? `the profile "${choice.target.profile}"` : redactUrl(choice.target.url ?? ''),
    );
    if (sweepRefusal) return this.notRun('error', `${file.display}: ${sweepRefusal}`, file, plan);

    const chosen = choice.local ? this.binaryOf(plan) : undefined;
    if (typeof chosen === 'object') return this.notRun('error', `${file.display}: "${plan.name}": ${chosen.problem}`, file, plan);
    const binary = chosen ? serverBinaryPath(chosen) : undefined;
    const badModule = choice.local
      ? [binary && 'problem' in binary ? binary.problem : undefined, ...(this.settings.modules ?? []).map(moduleProblem)].find(Boolean)
      : undefined;
    if (badModule) return this.notRun('error', `${file.display}: "${plan.name}": the throwaway redis-server cannot start: ${badModule}`, file, plan);

    const prepared: PreparedRun = {
      file,
      plan,
      plans: resolved.scenarios,
      choice,
      refusal: refusalRules,
      ...(choice.local ? {} : { classes: actions.classes }),
    };
    if (choice.local) return prepared;
    prepared.storedPassword = await this.ports.secret(choice.target);
    const connection = this.connect(prepared);
    if (!connection.options) return this.notRun('error', `${file.display}: "${plan.name}": ${connection.error}`, file, plan, true);
    // A scenario saying `cluster on` was checked with the file; a profile marked cluster is checked here.
    const crossSlot =
      connection.options.cluster && !plan.target.cluster ? crossSlotRefusal(plan, `the profile "${choice.target.profile ?? connection.display}"`) : undefined;
    if (crossSlot) return this.notRun('error', `${file.display}: ${crossSlot}`, file, plan);
    const announced = await this.announcedByFileCluster(plan, choice, connection.options);
    if (typeof announced === 'string') return this.notRun('error', `${file.display}: "${plan.name}": ${announced}`, file, plan, true);
    const effects = runEffects({
      file: file.recorded ?? file.display,
      plan,
      actions,
      choice: { source: choice.source === 'scenario' ? 'scenario' : 'selected', target: choice.target, fileDb: choice.fileDb },
      selected: this.selectedTarget(),
      profiles,
      workspaceProfiles: new Set(this.settings.workspaceProfiles ?? []),
      connection: { display: connection.display, options: connection.options },
      // connectionFor uses a stored password when nothing else names one; passwordOf keeps that order.
      storedPasswordUsed: Boolean(prepared.storedPassword),
      secretEnv: this.settings.secretEnv,
      allowEnv: this.settings.allowEnv,
      text: file.text,
      announcedNodes: announced,
    });
    if (needsConsent(effects) && !(await this.ports.confirm(consentRequest(effects, plan.name)))) {
      return this.notRun('declined', `"${plan.name}" was not run on ${connection.display}`, file, plan);
    }
    return prepared;
  }

  /** Runs a prepared scenario: throwaway server (one per point for `sweep server`), connection, load, redaction, run file. */
  async execute(prepared: PreparedRun, signal?: AbortSignal): Promise<SessionOutcome> {
    const run = await this.measure(prepared, signal);
    return 'kind' in run ? run : this.save(prepared, run);
  }

  /** As `execute`, without writing the run file: the run, its secrets redacted (several targets join repeats first). */
  async measure(prepared: PreparedRun, signal?: AbortSignal, place: (at: LoadPosition) => LoadPosition = (at) => at): Promise<RunFile | NotRun> {
    const { file, plan, choice } = prepared;
    const redactor = new Redactor();
    for (const name of this.settings.allowEnv ?? []) redactor.add(this.settings.env[name], `\${env:${name}}`);
    // Data files: the tables this thread lacks (a plan checked in the editor's worker) are read before any server starts.
    const dataProblem = loadDataTables(planDataSources(plan), file.baseDir);
    if (dataProblem) return this.notRun('error', `${file.display}: "${plan.name}": ${dataProblem}`, file, plan);
    try {
      if (!choice.local && plan.server.length > 0) {
        this.ports.log(`! ${file.display}: "${plan.name}": server lines apply only to a throwaway local redis-server; ignored for this target.`);
      }
      if (choice.fileDbIgnored) {
        const { db, named } = choice.fileDbIgnored;
        this.ports.log(`! ${file.display}: "${plan.name}": the file's db ${db} is not used: your target names database ${named}, and your choice wins.`);
      }
      if (!choice.local && this.settings.rdb)
        this.ports.log(`! ${file.display}: "${plan.name}": --rdb loads only into a throwaway local redis-server; ignored for this target.`);
      if (!choice.local && this.settings.modules?.length) {
        this.ports.log(`! ${file.display}: "${plan.name}": modules load only into a throwaway local redis-server; ignored for this target.`);
      }
      // `place`: where a load stands among all loads, when this run is one part of several (interleaved repeats).
      const progress = (event: RunProgress) => this.ports.progress?.(prepared, event.kind === 'server-sample' ? event : { ...event, at: place(event.at) });
      const outcome = isServerSweep(plan)
        ? await runServerSweep(plan, (part) => this.runPart(prepared, part, redactor, signal), progress)
        : await this.runPart(prepared, { plan, configKeys: [], first: true, onProgress: progress }, redactor, signal);
      if ('failed' in outcome) return this.notRun('error', redactor.text(outcome.failed), file, plan, outcome.connection !== false);
      const run = isServerSweep(plan) ? { ...outcome, plan: storedPlan(plan) } : outcome;
      markPart(run);
      return redactor.deep(run);
    } catch (error) {
      return this.notRun('error', redactor.text(`${file.display}: "${plan.name}" failed: ${(error as Error).message}`), file, plan);
    }
  }

  /** Writes a measured run's file (a plain message when it cannot). */
  save(prepared: PreparedRun, run: RunFile): FinishedRun {
    const saved = saveRun(this.settings.runsFolder, run, { root: this.settings.runsFolderRoot }, this.settings.runFileLimits);
    return { kind: 'finished', file: prepared.file, plan: prepared.plan, run, ...saved };
  }

  /** One server's part of a run: its throwaway server (when the target is local), the connection, the load. */
  private async runPart(prepared: PreparedRun, part: ServerPart, redactor: Redactor, signal?: AbortSignal): Promise<PartOutcome> {
    const { file, choice } = prepared;
    const { plan } = part;
    const where = isServerSweep(plan) ? ` [${plan.points.map((point) => point.label).join(', ')}]` : '';
    let local: LocalServer | undefined;
    try {
      if (choice.local) {
        try {
          const chosen = this.binaryOf(plan);
          const binary = typeof chosen === 'string' ? serverBinaryPath(chosen) : undefined;
          local = await startLocalServer({
            config: plan.server,
            modules: this.settings.modules,
            binary: binary && 'path' in binary ? binary.path : undefined,
            ...(this.settings.rdb ? { rdb: this.settings.rdb } : {}),
          });
        } catch (error) {
          return { failed: `${file.display}: "${plan.name}"${where}: cannot start a throwaway redis-server: ${(error as Error).message}` };
        }
      }
      const connection = this.connect(prepared, local?.url);
      redactor.add(connection.options?.password);
      if (!connection.options) return { failed: `${file.display}: "${plan.name}": ${connection.error}` };

      // The server's own command table: unknown commands, arity, classes and key positions, before any load.
      const checked = await checkAgainstServer(plan, {
        file: file.display,
        // A part's reading is named as its run's connections are: a sibling part already loading sees a sibling, not another run.
        connection: plan.shard?.runId ? { ...connection.options, clientName: runClientName(plan.name, plan.shard) } : connection.options,
        display: local ? 'the throwaway redis-server' : connection.display,
        refusal: prepared.refusal ?? { allowAdmin: false, allowDestructive: false, throwaway: choice.local },
        consented: prepared.classes,
        log: (line) => this.ports.log(redactor.text(line)),
      });
      if (!checked.ok) return { failed: checked.message, connection: false };
      const runPlan = checked.plan;

      const target = { display: connection.display, local: Boolean(local) };
      const shard = plan.shard ? `  (part ${plan.shard.index}/${plan.shard.count})` : '';
      this.ports.log(
        `\n${plan.name}${where}  →  ${local ? `throwaway redis-server (${connection.display})${local.maxMemory ? ` · maxmemory ${formatBytes(local.maxMemory)}` : ''}${local.modules.length > 0 ? ` · modules ${local.modules.map((path) => basename(path)).join(', ')}` : ''}${this.settings.rdb ? ` · dataset ${basename(this.settings.rdb)}` : ''}` : connection.display}${shard}`,
      );
      if (part.first) this.ports.started?.(prepared, target);
      const run = await runScenario(storedPlan(runPlan), {
        connection: connection.options,
        targetDisplay: connection.display,
        local: Boolean(local),
        source: scenarioSource(file.text, prepared.plan, prepared.plans),
        file: file.recorded ?? file.display,
        signal,
        onProgress: part.onProgress,
        ...(part.configKeys.length > 0 ? { configKeys: part.configKeys } : {}),
        // A user's server: `cleanup` deletes the keys the run created, nothing else, unless the user allowed destruction.
        ...(local || prepared.refusal?.allowDestructive ? {} : { cleanupOwns: ownKeyTest(scenarioActions(runPlan, checked.table).ownKeys ?? []) }),
      });
      if (local && local.modules.length > 0) run.target.modules = local.modules;
      if (local && this.settings.rdb) run.target.rdb = resolve(this.settings.rdb);
      if (local && part.first) await this.ports.finishing?.(prepared, target);
      return run;
    } finally {
      await local?.stop();
    }
  }

  /**
   * A file's `cluster on` on the user's own target (selected or --url, the user's own profile) takes the run to
   * nodes the user did not name: their addresses, read from the seed (CLUSTER SHARDS through the network gate:
   * a read on the server the user named) for the question. Undefined when the user declared the cluster
   * (--cluster, a profile's "cluster": true), when the target is not the user's (its question is asked anyway,
   * with the node rule, and nothing is contacted before it), or when the seed announces no other node.
   */
  private async announcedByFileCluster(plan: ScenarioPlan, choice: TargetChoice, options: ConnectionOptions): Promise<string[] | string | undefined> {
    if (!options.cluster || !plan.target.cluster || this.settings.cluster || choice.source !== 'selected') return undefined;
    const profile = choice.target.profile;
    if (profile !== undefined && (ownValue(this.settings.profiles ?? {}, profile)?.cluster === true || this.settings.workspaceProfiles?.includes(profile)))
      return undefined;
    if (this.selectedTarget()?.supplier !== 'user') return undefined;
    let nodes: TopologyNode[];
    try {
      nodes = (await discoverTopology(options, openRawControl)).nodes;
    } catch (error) {
      return (error as Error).message;
    }
    if (nodes.every((node) => node.seed)) return undefined;
    return nodes.map((node) => `${formatAddress(node)} (${node.role})`);
  }

  /** Who chose the selected target, for the consent: --url, or rbench.target from the user's or a workspace's settings. */
  private selectedTarget(): { supplier: 'workspace' | 'user'; via: string } | undefined {
    const user = this.settings.userTarget;
    if (!user) return undefined;
    if (user.override) return { supplier: 'user', via: 'you chose it (--url)' };
    if (user.supplier === 'workspace') return { supplier: 'workspace', via: 'the workspace settings select it (rbench.target in .vscode/settings.json)' };
    return { supplier: 'user', via: 'you selected it (rbench.target in your settings)' };
  }

  private chooseTarget(scenario: TargetPlan): TargetChoice | string {
    const user = this.settings.userTarget;
    if (!user) return chooseTarget(scenario, { kind: 'local' });
    const profiles = this.settings.profiles ?? {};
    const active = parseActiveTarget(user.value, profiles);
    if (active.kind === 'invalid') {
      if (user.override) return `--url "${redactUrl(user.value)}" is not a target: give redis://host:port or rediss://host:port`;
      return scenario.url || scenario.profile ? chooseTarget(scenario, { kind: 'local' }) : active.error;
    }
    if (!user.override) return chooseTarget(scenario, active, profiles);
    // --url replaces the file's target: the user's own choice, so the file's target counts for nothing.
    return chooseTarget({ ...scenario, url: undefined, profile: undefined }, active, profiles);
  }

  /**
   * The throwaway server's executable: `--server-binary PATH` (the user's), else the machine's binary a file's
   * `server binary NAME` names; undefined: redis-server from PATH. A name the machine does not define is a problem.
   */
  private binaryOf(plan: ScenarioPlan): string | { problem: string } | undefined {
    if (this.settings.serverBinary) return this.settings.serverBinary;
    const name = plan.server.find((directive) => directive.name === 'binary')?.args[0];
    if (name === undefined) return undefined;
    const path = ownValue(this.settings.serverBinaries ?? {}, name);
    return typeof path === 'string' && path !== ''
      ? path
      : { problem: `no server binary is named "${name}": define it in the machine setting rbench.serverBinaries, or give rbench --server-binary ${name}=PATH` };
  }

  /** The connection a prepared run opens (for a connection test that goes through the same gates as a run). */
  connectionOf(prepared: PreparedRun, localUrl?: string): ResolvedConnection {
    return this.connect(prepared, localUrl);
  }

  private connect(prepared: PreparedRun, localUrl?: string): ResolvedConnection {
    const choice =
      this.settings.cluster && !prepared.choice.local ? { ...prepared.choice, target: { ...prepared.choice.target, cluster: true } } : prepared.choice;
    return connectionFor(choice, {
      profiles: this.settings.profiles ?? {},
      allowHosts: this.settings.allowHosts,
      storedPassword: prepared.storedPassword,
      env: this.settings.env,
      baseDir: prepared.file.baseDir,
      localUrl,
    });
  }

  private notRun(reason: NotRunReason, message: string, file: ScenarioFile, plan?: ScenarioPlan, connection = false): NotRun {
    return { kind: 'not-run', reason, message, file, plan, connection };
  }
}

/** The plan as a run file stores it: the target URL without its password, throwaway-server passwords hidden. */
export function storedPlan(plan: ScenarioPlan): ScenarioPlan {
  const target = { ...plan.target };
  if (target.url) target.url = stripUrlPassword(target.url);
  const server = plan.server.map((directive) => (directive.name === 'requirepass' ? { ...directive, args: ['***'] } : directive));
  return { ...plan, target, server };
}
