// The editor's side of a RunSession's questions, in plain code (no `vscode`) so it is unit-tested with fakes:
// the consent question as a modal whose default button does not run, answers remembered by the digest of
// the run's effects (a changed file asks again) and revocable, stored passwords.
import type { ConsentRequest } from '../runner/consent';
import type { TargetPlan } from '../scenario/plan';
import { plainText } from './plainText';
import { secretKey } from '../runner/targets';

/** Where answers are remembered (the extension's globalState: a digest names the file and everything the run does). */
export interface AnswerStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
  keys(): readonly string[];
}

/** `vscode.window.showWarningMessage` as the consent uses it: modal, the effects in the detail, its buttons. */
export type Ask = (message: string, options: { modal: true; detail: string }, ...buttons: string[]) => Thenable<string | undefined>;

export const RUN_BUTTON = 'Run';
/**
 * VS Code makes the first button of a modal its default (focused, so Enter presses it) and adds Cancel
 * itself: the first button is therefore one that does not run.
 */
export const DEFAULT_BUTTON = "Don't Run";

/** Where a "Run" is remembered: one key per digest of the effects. */
export const CONSENT_PREFIX = 'rbench.consent.';
/** Answers of earlier versions, kept per file and target in the workspace state: forgotten with the rest. */
export const LEGACY_CONFIRMATION_PREFIX = 'rbench.remoteConfirmed.';

/**
 * Asks before a run with its effects; a "Run" holds for that digest. `asked` (one Run All) keeps every
 * answer of the batch, so two scenarios with the same effects ask once.
 */
export function consentConfirmer(store: AnswerStore, ask: Ask, asked?: Map<string, boolean>): (request: ConsentRequest) => Promise<boolean> {
  return async (request) => {
    const key = CONSENT_PREFIX + request.digest;
    if (store.get<boolean>(key) === true) return true;
    const earlier = asked?.get(request.digest);
    if (earlier !== undefined) return earlier;
    const detail = [
      ...request.question.lines,
      '',
      `RBench remembers a "Run" for exactly this list: a changed file asks again ("RBench: Forget Remote Target Answers" forgets).`,
    ].join('\n');
    let answer: string | undefined;
    try {
      answer = await ask(plainText(request.question.message), { modal: true, detail: plainText(detail) }, DEFAULT_BUTTON, RUN_BUTTON);
    } catch {
      // A question that cannot be shown is a "no" (fail closed): nothing runs unasked.
      answer = undefined;
    }
    const run = answer === RUN_BUTTON;
    asked?.set(request.digest, run);
    if (run) await store.update(key, true);
    return run;
  };
}

/**
 * The first pass of a batch (Run All): each question a run would ask is collected by its digest instead of
 * asked (a remembered "Run" stands), and the run is not prepared: the batch asks them all in its first question.
 */
export function consentCollector(store: AnswerStore, collected: Map<string, ConsentRequest>): (request: ConsentRequest) => Promise<boolean> {
  return async (request) => {
    if (store.get<boolean>(CONSENT_PREFIX + request.digest) === true) return true;
    if (!collected.has(request.digest)) collected.set(request.digest, request);
    return false;
  };
}

export const RUN_ALL_BUTTON = 'Run all';

/**
 * A batch's one question: how many scenarios, then every remote run's effects, each as the single question
 * lists them; "Don't Run" first (the default: Enter does not run). A "Run all" holds for each digest, as a "Run" does.
 */
export async function askBatchConsent(store: AnswerStore, ask: Ask, question: string, requests: readonly ConsentRequest[]): Promise<boolean> {
  const detail: string[] = [];
  for (const request of requests) detail.push(request.question.message, ...request.question.lines.map((line) => `  ${line}`), '');
  if (requests.length > 0)
    detail.push(`RBench remembers a "Run all" for exactly these lists: a changed file asks again ("RBench: Forget Remote Target Answers" forgets).`);
  let answer: string | undefined;
  try {
    answer = await ask(plainText(question), { modal: true, detail: plainText(detail.join('\n')) }, DEFAULT_BUTTON, RUN_ALL_BUTTON);
  } catch {
    answer = undefined; // fail closed, as the single question does
  }
  if (answer !== RUN_ALL_BUTTON) return false;
  for (const request of requests) await store.update(CONSENT_PREFIX + request.digest, true);
  return true;
}

/** Forgets every remembered answer (this version's and older ones); returns how many there were. */
export async function forgetRemoteAnswers(...stores: AnswerStore[]): Promise<number> {
  let count = 0;
  for (const store of stores) {
    const keys = store.keys().filter((key) => key.startsWith(CONSENT_PREFIX) || key.startsWith(LEGACY_CONFIRMATION_PREFIX));
    for (const key of keys) await store.update(key, undefined);
    count += keys.length;
  }
  return count;
}

/** Reads the stored password of a target from secret storage. */
export function storedPassword(get: (key: string) => Thenable<string | undefined>): (target: TargetPlan) => Promise<string | undefined> {
  return async (target) => {
    const key = secretKey(target);
    return key ? get(key) : undefined;
  };
}
