// The editor's side of a RunSession's questions, in plain code (no `vscode`) so it is unit-tested with fakes:
// remote targets asked about per file and target, answers remembered and revocable, stored passwords.
import { CONFIRMATION_PREFIX, remoteQuestionText, type RemoteQuestion } from '../runner/safety';
import type { TargetPlan } from '../scenario/plan';
import { secretKey } from './targets';

/** Where answers are remembered (the extension's workspaceState). */
export interface AnswerStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
  keys(): readonly string[];
}

/** Shows a modal question with buttons; resolves with the button pressed, or undefined when dismissed. */
export type Ask = (message: string, buttons: string[]) => Thenable<string | undefined>;

export const RUN_BUTTON = 'Run';

/** Asks before a run against a server on another machine; a "Run" answer holds for that file and target. */
export function remoteConfirmer(store: AnswerStore, ask: Ask): (question: RemoteQuestion) => Promise<boolean> {
  return async (question) => {
    if (store.get<boolean>(question.key) === true) return true;
    const answer = await ask(`${remoteQuestionText(question)} RBench remembers a "Run" for this file and target (forget with "RBench: Forget Remote Target Answers").`, [RUN_BUTTON]);
    if (answer !== RUN_BUTTON) return false;
    await store.update(question.key, true);
    return true;
  };
}

/** Forgets every remembered answer; returns how many there were. */
export async function forgetRemoteAnswers(store: AnswerStore): Promise<number> {
  const keys = store.keys().filter((key) => key.startsWith(CONFIRMATION_PREFIX));
  for (const key of keys) await store.update(key, undefined);
  return keys.length;
}

/** Reads the stored password of a target from secret storage. */
export function storedPassword(get: (key: string) => Thenable<string | undefined>): (target: TargetPlan) => Promise<string | undefined> {
  return async (target) => {
    const key = secretKey(target);
    return key ? get(key) : undefined;
  };
}
