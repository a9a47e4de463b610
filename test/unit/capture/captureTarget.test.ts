// The capture's target and consent: a run's rules (URL or profile, passwords never from settings), and the
// run's consent with the capture's effects — reads only, each command listed.
import assert from 'node:assert/strict';
import { CAPTURE_READS, captureTarget } from '../../../src/capture/captureTarget';

describe('capture target and consent', () => {
  it('asks nothing for your own --url: it only reads', () => {
    const target = captureTarget({ target: 'redis://10.0.0.5:6379', supplier: 'user', via: 'you chose it (--url)', env: {} });
    assert.ok(typeof target !== 'string');
    assert.equal(target.consent, undefined);
    assert.equal(target.display, 'redis://10.0.0.5:6379');
  });

  it("asks for a workspace's target, listing every read", () => {
    const target = captureTarget({ target: 'redis://10.0.0.5:6379', supplier: 'workspace', via: 'the workspace settings select it', env: {} });
    assert.ok(typeof target !== 'string' && target.consent);
    const lines = target.consent.question.lines.join('\n');
    assert.match(lines, /Target: redis:\/\/10\.0\.0\.5:6379 \(from the workspace settings/);
    assert.match(lines, new RegExp(`: ${CAPTURE_READS.join(', ')}`));
    assert.doesNotMatch(lines, /Writes|destroy/);
  });

  it('asks for a profile the workspace defines, and takes its password from the environment by name only', () => {
    const target = captureTarget({
      target: 'staging',
      supplier: 'user',
      via: 'you selected it',
      profiles: { staging: { url: 'redis://10.0.0.6:6379', passwordEnv: 'STAGING_PW' } },
      workspaceProfiles: ['staging'],
      env: { STAGING_PW: 'hunter2' },
    });
    assert.ok(typeof target !== 'string' && target.consent);
    assert.equal(target.connection.password, 'hunter2');
    assert.doesNotMatch(JSON.stringify(target.consent), /hunter2/);
    assert.match(target.consent.question.lines.join('\n'), /environment variable STAGING_PW/);
  });

  it('refuses the throwaway server, a password in settings and a target that is no URL, in plain words', () => {
    assert.match(String(captureTarget({ target: 'local', supplier: 'user', via: '', env: {} })), /capture reads a server that already runs/);
    assert.match(
      String(captureTarget({ target: 'p', supplier: 'user', via: '', profiles: { p: { url: 'redis://:pw@h:1' } }, env: {} })),
      /holds a password: remove it/,
    );
    assert.match(String(captureTarget({ target: 'nonsense', supplier: 'user', via: '', env: {} })), /no connection profile/);
  });
});
