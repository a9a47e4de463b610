// The reply-driven client path (scenario/replyForms.ts): a raw socket like the fast path's, but each request is
// encoded when it is sent, from the connection's previous replies (requests/replyState.ts), and read back whole.
// One request in flight (pipeline 1, the closed loop: the checker and loadValidation.ts refuse the rest); a group's
// commands go one after the other, each once the reply it may depend on is in. Only tests holding a reply-driven
// command run here: every other test keeps the fast path's pre-encoded batches.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { LOAD_REPLY_LIMITS, ReplyCollector } from '../../protocol/replyReader';
import { encodeRespCommand } from '../../protocol/respEncode';
import { RespErrorReply, type RespValue } from '../../protocol/respValue';
import { isMissReply, type MissRule } from '../../scenario/missRules';
import type { CommandTemplate } from '../../scenario/plan';
import { CURSOR_ARGUMENT, IDS_SOURCE, testScripts } from '../../scenario/replyForms';
import { requestSource, State } from '../connectionBase';
import type { ClientPathModule, ConnectionHost } from '../connection';
import { TIMEOUT_ERROR_KIND } from '../measure/stats';
import { UNIT_LABEL } from '../measure/unitTally';
import { ValueSizes } from '../requests/batch';
import { RAND_INT_WIDTH } from '../requests/templateEncoder';
import { Random, WeightedTable, type KeySource } from '../requests/random';
import { readScanStep, readStreamIds, ReplyState } from '../requests/replyState';
import type { Payload } from '../requests/payload';
import { SocketConnection } from './socketConnection';

const CHOICE_STREAM = 2;
const RAND_INT_STREAM = 3;
/** Error kind of a reply a reply-driven command cannot read (a SCAN reply without a cursor…). */
const REPLY_SHAPE_KIND = 'REPLY';

/** The SHA1 of a script, as SCRIPT LOAD answers it and EVALSHA names it. */
export function scriptSha(script: string): string {
  return createHash('sha1').update(script, 'utf8').digest('hex');
}

/** What a command's reply feeds. */
const enum Feeds {
  Nothing,
  /** A SCAN-family command: the next cursor (HSCAN, ZSCAN: items come in pairs). */
  Cursor,
  CursorPairs,
  /** XREADGROUP: the IDs a later `XACK … __ids__` acks. */
  Ids,
}

interface Prepared {
  template: CommandTemplate;
  label: number;
  feeds: Feeds;
  /** `XACK … __ids__`: skipped when the read before it returned nothing. */
  acksIds: boolean;
  /** EVALSHA's script (NOSCRIPT: loaded again, once per request). */
  script?: string;
  hasKey: boolean;
  missRule: MissRule;
}

export class ReplyDrivenConnection extends SocketConnection {
  private collector = new ReplyCollector(LOAD_REPLY_LIMITS);
  private readonly commands: Prepared[];
  private readonly grouped: boolean;
  private readonly table: WeightedTable | undefined;
  private readonly replies: ReplyState;
  private readonly keys: KeySource;
  private readonly choices: Random;
  private readonly randInts: Random;
  private readonly values: ValueSizes;
  private readonly payload: Payload | undefined;
  private readonly keyWidth: number;
  private readonly keySpace: number;
  private readonly shas = new Map<string, string>();
  // The request in flight: its command (a group's: the one sent last), key, start and whether it is measured.
  private inFlight = false;
  private position = 0;
  private key = 0;
  private valueSize = 0;
  private unitStart = 0;
  private sentAt = 0;
  private measured = false;
  /** The request met NOSCRIPT and its script is being loaded again (it is then sent again, once). */
  private reloading = false;
  private retried = false;
  /** Measuring began while a warm-up request was in flight: the cursors start again once it is answered. */
  private restartAfterReply = false;
  private unitError: { kind: string; text: string } | undefined;
  /** open(): SCRIPT LOAD replies awaited before the load starts. */
  private opening: ((reply: RespValue) => void) | undefined;

  constructor(index: number, load: ConnectionHost) {
    super(index, load);
    const config = load.config;
    const { keys, context } = requestSource(config, index);
    this.keys = keys;
    this.keyWidth = context.keyWidth;
    this.keySpace = context.keySpace;
    this.payload = context.payload;
    this.values = new ValueSizes(config.value);
    this.grouped = config.test.group !== undefined;
    this.commands = config.test.commands.map(({ command }, i) =>
      prepare(command, config.labelIndexes[i], (config.missRules?.[config.labelIndexes[i]] ?? 0) as MissRule),
    );
    this.table = !this.grouped && this.commands.length > 1 ? new WeightedTable(config.test.commands.map((c) => c.weight)) : undefined;
    this.replies = new ReplyState(this.commands.length);
    this.choices = new Random(config.seed, CHOICE_STREAM, index);
    this.randInts = new Random(config.seed, RAND_INT_STREAM, index);
    for (const script of testScripts(config.test)) this.shas.set(script, scriptSha(script));
  }

  override async open(): Promise<void> {
    await this.connectSocket();
    // The run's scripts are loaded once, by its first connection, before any request: the others wait at the start.
    if (this.index === 0) for (const [script, sha] of this.shas) await this.loadScript(script, sha);
    this.state = State.Running;
  }

  /** SCRIPT LOAD on this connection; rejects when the server's SHA1 is not the one computed here. */
  private loadScript(script: string, sha: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.opening = (reply) => {
        this.opening = undefined;
        const problem = scriptLoadProblem(reply, sha);
        if (problem) reject(new Error(problem));
        else resolve();
      };
      this.socket!.write(encodeRespCommand(['SCRIPT', 'LOAD', script]));
    });
  }

  protected override restartSequences(): void {
    this.keys.restart();
    this.choices.reseed(this.load.config.seed, CHOICE_STREAM, this.index);
    this.randInts.reseed(this.load.config.seed, RAND_INT_STREAM, this.index);
    // Passes are counted from cursor 0 once measuring starts; a request in flight (of the warm-up) first gets its reply.
    if (this.inFlight) this.restartAfterReply = true;
    else this.replies.reset();
  }

  protected override claimed(first: number): void {
    this.keys.claimed?.(first);
  }

  override canSend(): boolean {
    return false; // the closed loop only (loadValidation.ts)
  }

  override sendScheduled(): number {
    return 0;
  }

  protected override sendNextBatch(now: number): void {
    if (!this.mayBuildBatch(now)) return;
    if (this.takeBudget(1) === 0) {
      this.finishIfDone();
      return;
    }
    this.inFlight = true;
    this.measured = this.load.measuring;
    this.unitStart = now;
    this.unitError = undefined;
    this.position = this.table ? this.table.pick(this.choices) : 0;
    const keyed = this.grouped ? this.commands.some((c) => c.hasKey) : this.commands[this.position].hasKey;
    this.key = keyed ? this.keys.next() : 0;
    this.valueSize = this.values.next(this.choices);
    this.sendCommand(now);
  }

  /** Sends the request's current command, or skips it (XACK after an empty read) and goes on. */
  private sendCommand(now: number): void {
    const command = this.commands[this.position];
    if (command.acksIds && this.replies.ids.length === 0) {
      if (this.measured) this.load.stats.recordReplyCount(command.label, 'skipped', 1);
      this.commandDone(now);
      return;
    }
    this.retried = false;
    this.write(command, now);
  }

  private write(command: Prepared, now: number): void {
    this.sentAt = now;
    this.socket!.write(encodeRespCommand([command.template.name, ...this.argsOf(command)]));
    this.load.sent[command.label]++;
  }

  /** The command's arguments for this request: its placeholders from the request's draws and the connection's replies. */
  private argsOf(command: Prepared): (string | Buffer)[] {
    const args: (string | Buffer)[] = [];
    const commandIndex = this.commands.indexOf(command);
    for (const arg of command.template.args) {
      if (arg.length === 1 && typeof arg[0] === 'object') {
        const part = arg[0];
        if (part.placeholder === 'ids') {
          args.push(...this.replies.ids);
          continue;
        }
        if (part.placeholder === 'value') {
          args.push(this.nextValue());
          continue;
        }
      }
      let text = '';
      for (const part of arg) {
        if (typeof part === 'string') text += part;
        else if (part.placeholder === 'key') text += String(this.key).padStart(this.keyWidth, '0');
        else if (part.placeholder === 'rand_int') text += String(this.randInts.nextInt(this.keySpace)).padStart(RAND_INT_WIDTH, '0');
        else if (part.placeholder === 'client') text += String(this.index);
        else if (part.placeholder === 'cursor') text += this.replies.cursor(commandIndex);
        else if (part.placeholder === 'sha') text += this.shas.get(part.script ?? '') ?? '';
        else if (part.placeholder === 'value') text += this.nextValue().toString('latin1');
      }
      args.push(text);
    }
    return args;
  }

  private nextValue(): Buffer {
    return this.payload ? Buffer.from(this.payload.next(this.valueSize)) : Buffer.alloc(this.valueSize, 0x78);
  }

  protected override attached(): void {
    // A new socket's replies are read from a clean state (a lost one's cursors were reset with its request in flight).
    this.collector = new ReplyCollector(LOAD_REPLY_LIMITS);
  }

  protected readonly onData = (chunk: Buffer, length: number): void => {
    if (this.socket === undefined) return;
    const now = performance.now();
    let replies: RespValue[];
    try {
      replies = this.collector.feed(chunk.subarray(0, length));
    } catch (error) {
      this.socket.destroy(error as Error);
      return;
    }
    if (replies.length > 0) this.load.heard(this.index, now);
    for (const reply of replies) this.onReply(reply, now);
  };

  private onReply(reply: RespValue, now: number): void {
    if (this.opening) return this.opening(reply);
    if (!this.inFlight) return; // nothing asked: not a reply to us
    const command = this.commands[this.position];
    if (this.reloading) return this.onReloaded(command, reply, now);
    if (reply instanceof RespErrorReply) {
      const kind = reply.message.split(' ', 1)[0];
      // The script was flushed (SCRIPT FLUSH, a restart): load it again and send the request once more.
      if (kind === 'NOSCRIPT' && command.script !== undefined && !this.retried) {
        this.reloading = true;
        if (this.measured) this.load.stats.recordReplyCount(command.label, 'reloads', 1);
        this.socket!.write(encodeRespCommand(['SCRIPT', 'LOAD', command.script]));
        return;
      }
      this.commandReplied(command, now, { kind, text: reply.message });
      return;
    }
    this.commandReplied(command, now, this.feed(command, reply));
  }

  /** The SCRIPT LOAD after a NOSCRIPT answered: the request goes again (its latency runs from its first send). */
  private onReloaded(command: Prepared, reply: RespValue, now: number): void {
    this.reloading = false;
    const problem = scriptLoadProblem(reply, this.shas.get(command.script!)!);
    if (problem) return this.load.fail(problem);
    this.retried = true;
    const firstSent = this.sentAt;
    this.write(command, now);
    this.sentAt = firstSent;
  }

  /** What a reply feeds into the connection's state; an error when its shape is not the form's. */
  private feed(command: Prepared, reply: RespValue): { kind: string; text: string } | undefined {
    const stats = this.load.stats;
    if (command.feeds === Feeds.Cursor || command.feeds === Feeds.CursorPairs) {
      const step = readScanStep(reply, command.feeds === Feeds.CursorPairs);
      if (!step) return { kind: REPLY_SHAPE_KIND, text: `${command.template.name} did not answer [cursor, items]: its cursor cannot be followed` };
      const passEnded = this.replies.scanned(this.commands.indexOf(command), step);
      if (this.measured) {
        stats.recordReplyCount(command.label, 'items', step.items);
        if (passEnded) stats.recordReplyCount(command.label, 'passes', 1);
      }
    } else if (command.feeds === Feeds.Ids) {
      const ids = readStreamIds(reply);
      this.replies.ids = ids ?? [];
      if (ids === undefined) return { kind: REPLY_SHAPE_KIND, text: 'XREADGROUP did not answer streams of [id, fields] entries: no IDs to ack' };
      if (this.measured) stats.recordReplyCount(command.label, 'read', ids.length);
    } else if (command.acksIds && this.measured && typeof reply === 'number') {
      stats.recordReplyCount(command.label, 'acked', reply);
    }
    if (command.missRule !== 0 && this.measured && isMissReply(command.missRule, reply)) stats.recordMiss(command.label);
    return undefined;
  }

  /** A command's reply (or error) is in: its row, then the request's next command or its end. */
  private commandReplied(command: Prepared, now: number, error: { kind: string; text: string } | undefined): void {
    const stats = this.load.stats;
    if (this.measured) {
      const micros = Math.round((now - this.sentAt) * 1000);
      if (this.grouped) {
        stats.recordCommandReply(command.label, Math.round((now - this.unitStart) * 1000));
        if (error) stats.recordCommandError(command.label, error.kind, error.text);
      } else {
        stats.recordReplies(command.label, micros, 1, now);
        if (error) stats.recordError(command.label, error.kind, error.text);
      }
    }
    if (error && this.unitError === undefined) this.unitError = error;
    this.commandDone(now);
  }

  private commandDone(now: number): void {
    if (this.grouped && ++this.position < this.commands.length) {
      this.sendCommand(now);
      return;
    }
    if (this.grouped && this.measured) {
      this.load.stats.recordReplies(UNIT_LABEL, Math.round((now - this.unitStart) * 1000), 1, now);
      if (this.unitError) this.load.stats.recordError(UNIT_LABEL, this.unitError.kind, this.unitError.text);
    }
    this.inFlight = false;
    if (this.restartAfterReply) {
      this.restartAfterReply = false;
      this.replies.reset();
    }
    if (this.state === State.Running) this.sendNextBatch(now);
    else this.finishIfDone();
  }

  protected override socketClosed(): void {
    if (this.opening) this.opening(new RespErrorReply('connection closed while loading the script'));
  }

  /** The request in flight will get no reply: its command and (a group) its unit count it, with its wait when it timed out. */
  protected override countInFlightAsErrors(kind: string, text: string): void {
    if (!this.inFlight) return;
    this.inFlight = false;
    this.reloading = false;
    this.replies.reset();
    if (!this.measured) return;
    const waited = kind === TIMEOUT_ERROR_KIND ? Math.round((performance.now() - this.unitStart) * 1000) : undefined;
    const stats = this.load.stats;
    const label = this.commands[this.position].label;
    if (this.grouped) {
      stats.recordCommandUnanswered(label, kind, text, waited);
      stats.recordUnanswered(UNIT_LABEL, 1, kind, text, waited);
    } else {
      stats.recordUnanswered(label, 1, kind, text, waited);
    }
  }

  protected override requestsInFlight(): number {
    return this.inFlight ? 1 : 0;
  }
}

function prepare(template: CommandTemplate, label: number, missRule: MissRule): Prepared {
  const parts = template.args.flat();
  const has = (placeholder: string) => parts.some((part) => typeof part === 'object' && part.placeholder === placeholder);
  const sha = parts.find((part) => typeof part === 'object' && part.placeholder === 'sha');
  const cursorAt = CURSOR_ARGUMENT[template.name];
  const feeds =
    has('cursor') && cursorAt !== undefined
      ? template.name === 'HSCAN' || template.name === 'ZSCAN'
        ? Feeds.CursorPairs
        : Feeds.Cursor
      : template.name === IDS_SOURCE
        ? Feeds.Ids
        : Feeds.Nothing;
  return {
    template,
    label,
    feeds,
    acksIds: has('ids'),
    ...(typeof sha === 'object' && sha.script !== undefined ? { script: sha.script } : {}),
    hasKey: has('key'),
    missRule,
  };
}

/** Why a SCRIPT LOAD reply is not the script's SHA1 computed here (undefined: it is). */
function scriptLoadProblem(reply: RespValue, sha: string): string | undefined {
  if (reply instanceof RespErrorReply) return `SCRIPT LOAD was refused: ${reply.message} — check the script, or the user's permission for SCRIPT`;
  if (reply !== sha)
    return `SCRIPT LOAD answered ${typeof reply === 'string' ? reply.slice(0, 64) : 'no SHA1'}, not the script's SHA1 ${sha} — the server does not load scripts as Redis does`;
  return undefined;
}

/** The reply-driven path (clientPaths.ts chooses it for a test holding a reply-driven command). */
export const openClientPath: ClientPathModule['openClientPath'] = () => ({
  factory: (index, load) => new ReplyDrivenConnection(index, load),
  cluster: () => undefined,
});
