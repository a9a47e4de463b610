import assert from 'node:assert/strict';
import { checkText } from '../../../src/scenario';
import { codeActions, type CodeActionData } from '../../../src/scenario/features';
import { applyEdits, withCaret } from './helpers';

function actionsAt(marked: string): { text: string; actions: CodeActionData[] } {
  const { text, position } = withCaret(marked);
  return { text, actions: codeActions(text, { start: position, end: position }, { env: {} }) };
}

/** The text after applying the action with this title. */
function applied(marked: string, title: string | RegExp): string {
  const { text, actions } = actionsAt(marked);
  const action = actions.find((candidate) => (typeof title === 'string' ? candidate.title === title : title.test(candidate.title)));
  assert.ok(action, `no action ${title}; got ${JSON.stringify(actions.map((candidate) => candidate.title))}`);
  return applyEdits(text, action.edits);
}

function codesOf(text: string): string[] {
  return checkText(text, { env: {} }).diagnostics.map((diagnostic) => diagnostic.code);
}

describe('quick fixes', () => {
  it("offers the resolver's did-you-mean as the preferred fix of its diagnostic", () => {
    const { actions } = actionsAt('pip‸line 10\nGET k\n');
    assert.equal(actions.length, 1);
    const [action] = actions;
    assert.equal(action.title, 'Change to `pipeline`');
    assert.equal(action.preferred, true);
    assert.equal(action.diagnostic.code, 'unknown-keyword');
    assert.equal(applied('pip‸line 10\nGET k\n', 'Change to `pipeline`'), 'pipeline 10\nGET k\n');
  });

  it('changes a mistyped command to the one the checker suggests, a weight and the arguments kept', () => {
    assert.equal(applied('### a\nGT‸E k\n', 'Change GTE to GET'), '### a\nGET k\n');
    assert.equal(applied('### a\n80% GT‸E k\n20% SET k v\n', 'Change GTE to GET'), '### a\n80% GET k\n20% SET k v\n');
    // A module's command is no typo: the warning has no fix.
    assert.deepEqual(actionsAt('### a\nFT.SEA‸RCH idx hello\n').actions, []);
  });

  it('fixes a bad unit with the nearest known ones: 10QB → 10KB', () => {
    const marked = '### s\nvalue 10Q‸B\nSET k __value__\n';
    const { actions } = actionsAt(marked);
    assert.deepEqual(
      actions.map((a) => a.title),
      ['Change 10QB to 10KB', 'Change 10QB to 10MB', 'Change 10QB to 10GB'],
    );
    assert.equal(applied(marked, 'Change 10QB to 10KB'), '### s\nvalue 10KB\nSET k __value__\n');
    assert.equal(applied('### s\nduration 30x‸\nGET k\n', /^Change 30x to 30s$/), '### s\nduration 30s\nGET k\n');
    assert.equal(applied('### s\nrequests 10K‸M\nGET k\n', 'Change 10KM to 10M'), '### s\nrequests 10M\nGET k\n');
    assert.deepEqual(actionsAt('### s\nvalue 10QQQ‸Q\nSET k __value__\n').actions, [], 'nothing near: no guess');
  });

  it('only for diagnostics at the cursor', () => {
    assert.deepEqual(actionsAt('pipline 10\nGET k‸\n').actions, []);
    assert.equal(actionsAt('pipline‸ 10\n').actions.length, 1, 'touching the end of the word counts');
  });

  it('replaces a literal password by an environment variable or the secret storage', () => {
    const marked = '### s\npassword hunt‸er2\nGET k\n';
    const { actions } = actionsAt(marked);
    assert.deepEqual(
      actions.map((action) => [action.title, action.preferred]),
      [
        ['Read the password from the environment variable REDIS_PASSWORD', false],
        ["Read the password from the editor's secret storage", false],
      ],
    );
    const fixed = applied(marked, /environment variable/);
    assert.equal(fixed, '### s\npassword env:REDIS_PASSWORD\nGET k\n');
    assert.deepEqual(codesOf(fixed), []);
    assert.equal(applied(marked, /secret storage/), '### s\npassword secret\nGET k\n');
  });

  it("keeps the resolver's own fix for a password in a URL", () => {
    const fixed = applied('target redis://:hunt‸er2@host:6379\n### s\nGET k\n', 'Remove the password from the URL');
    assert.ok(!fixed.includes('hunter2'));
    assert.deepEqual(codesOf(fixed), []);
  });

  it('closes an unterminated quote, {{variable}} or ${env:NAME}', () => {
    assert.equal(applied('### s\nSET k "hel‸lo world\n', /Close the quote/), '### s\nSET k "hello world"\n');
    assert.equal(applied('@p = x\n### s\nSET {{p‸:k v\n', 'Close {{p}}'), '@p = x\n### s\nSET {{p}}:k v\n');
    assert.equal(applied('target ${env:REDIS_U‸RL\n### s\nGET k\n', 'Close ${env:REDIS_URL}'), 'target ${env:REDIS_URL}\n### s\nGET k\n');
    assert.deepEqual(actionsAt('target ${env:REDIS_URL:-redis://lo‸calhost\n### s\nGET k\n').actions, [], 'where the default ends is a guess');
  });

  it('removes the earlier of two settings in one scope, which keeps the meaning (the last one wins)', () => {
    const marked = '### s\npipeline 4\nclients 2\npipe‸line 8\nGET k\n';
    const fixed = applied(marked, 'Remove the earlier `pipeline 4` (line 2)');
    assert.equal(fixed, '### s\nclients 2\npipeline 8\nGET k\n');
    assert.deepEqual(codesOf(fixed), []);
    const { text } = withCaret(marked);
    assert.equal(
      checkText(fixed, { env: {} }).scenarios[0].points[0].phases[0].load.pipeline,
      checkText(text, { env: {} }).scenarios[0].points[0].phases[0].load.pipeline,
    );
  });

  it('removes the earlier of two variable definitions', () => {
    assert.equal(applied('@n = 1\n### s\n@n = 2\nGET k\n@‸n = 3\n', 'Remove the earlier `@n = 2` (line 3)'), '@n = 1\n### s\nGET k\n@n = 3\n');
  });

  it('removes a redis.conf directive rbench manages, even on the last line', () => {
    assert.equal(applied('### s\nGET k\nserver po‸rt 7000', 'Remove `server port 7000` (line 3)'), '### s\nGET k');
  });
});
