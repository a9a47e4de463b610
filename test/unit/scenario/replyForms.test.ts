// Reply-driven commands in the language (issue 43): `__cursor__`, `__ids__` and `__sha(…)__` read into the plan as
// placeholders; each only where its form is (diagnostics name the fix), and a test holding one only where its
// connections can wait for each reply.
import assert from 'node:assert/strict';
import { check, clean, codes, errors } from './helpers';
import { partText } from '../../../src/scenario/draws';
import { completions, hover } from '../../../src/scenario/features';
import { withCaret } from '../features/helpers';

const commandsOf = (text: string) => clean(text).scenarios[0].points[0].phases[0].tests.flatMap((test) => test.commands.map((c) => c.command));

describe('reply-driven commands: language', () => {
  it('reads __cursor__, __ids__ and __sha(SCRIPT)__ as placeholders, the script without its quotes', () => {
    const [scan] = commandsOf('### s\npipeline 1\nSCAN __cursor__ MATCH k:* COUNT 100\n');
    assert.deepEqual(scan.args[0], [{ placeholder: 'cursor' }]);
    const [evalsha] = commandsOf(`### s\nEVALSHA __sha("return redis.call('GET', KEYS[1])")__ 1 k:__key__\n`);
    assert.deepEqual(evalsha.args[0], [{ placeholder: 'sha', script: "return redis.call('GET', KEYS[1])" }]);
    assert.equal(partText(evalsha.args[0][0]), "__sha(return redis.call('GET', KEYS[1]))__");
    const [, xack] = commandsOf('### s\ngroup consume\n  XREADGROUP GROUP g c COUNT 10 STREAMS s >\n  XACK s g __ids__\nend\n');
    assert.deepEqual(xack.args[2], [{ placeholder: 'ids' }]);
  });

  it('__cursor__ outside the cursor of a SCAN-family command is an error naming the form', () => {
    for (const line of ['GET __cursor__', 'SCAN 0 MATCH __cursor__', 'HSCAN __cursor__ 0', 'SCAN c__cursor__']) {
      const resolved = check(`### s\n${line}\n`);
      assert.ok(codes(resolved).includes('cursor-misplaced'), `${line}: ${codes(resolved).join(', ')}`);
      assert.match(errors(resolved).find((d) => d.code === 'cursor-misplaced')!.message, /SCAN __cursor__ MATCH/);
    }
    clean('### s\nHSCAN h __cursor__ COUNT 10\n');
    clean('### s\nZSCAN z __cursor__\n');
  });

  it('__ids__ without an XREADGROUP before it in the same group is an error', () => {
    const alone = check('### s\nXACK s g __ids__\n');
    assert.ok(codes(alone).includes('ids-without-xreadgroup'), codes(alone).join(', '));
    assert.match(errors(alone)[0].message, /one `group … end`, the XREADGROUP first/);
    const after = check('### s\ngroup g\n  XACK s g __ids__\n  XREADGROUP GROUP g c COUNT 10 STREAMS s >\nend\n');
    assert.ok(codes(after).includes('ids-without-xreadgroup'));
    const elsewhere = check('### s\ngroup g\n  XREADGROUP GROUP g c COUNT 10 STREAMS s >\n  DEL __ids__\nend\n');
    assert.ok(codes(elsewhere).includes('ids-misplaced'));
  });

  it('__sha(…)__ only as the first argument of EVALSHA, with a script', () => {
    assert.ok(codes(check('### s\nEVAL __sha("return 1")__ 0\n')).includes('sha-misplaced'));
    assert.ok(codes(check('### s\nEVALSHA 0 __sha("return 1")__\n')).includes('sha-misplaced'));
    // A script with spaces, unquoted, is two words: the form is broken, and said so.
    const broken = check('### s\nEVALSHA __sha(return 1)__ 0\n');
    assert.ok(codes(broken).includes('sha-unclosed'), codes(broken).join(', '));
    assert.match(errors(broken).find((d) => d.code === 'sha-unclosed')!.message, /__sha\("return 1"\)__/);
    assert.ok(codes(check('### s\nEVALSHA __sha()__ 0\n')).includes('sha-empty-script'));
    clean('### s\nEVALSHA_RO __sha("return 1")__ 0\n');
  });

  it('refuses pipeline > 1, client ioredis, cluster, rate and reconnect with a reply-driven command, naming the fix', () => {
    const cases: [string, string, RegExp][] = [
      ['pipeline 10', 'reply-driven-pipeline', /use `pipeline 1`/],
      ['client ioredis', 'reply-driven-client', /remove `client ioredis`/],
      ['cluster on', 'reply-driven-cluster', /against one node/],
      ['rate 1000/s', 'reply-driven-rate', /remove `rate`/],
      ['reconnect every 10', 'reply-driven-reconnect', /remove `reconnect every`/],
    ];
    for (const [setting, code, fix] of cases) {
      const resolved = check(`### s\n${setting}\nSCAN __cursor__ COUNT 10\n`);
      const found = errors(resolved).find((d) => d.code === code);
      assert.ok(found, `${setting}: ${codes(resolved).join(', ')}`);
      assert.match(found.message, fix);
      assert.equal(found.range.start.line, 1, 'at the setting');
    }
    // A plain command keeps its pipeline.
    clean('### s\npipeline 10\nSCAN 0 COUNT 10\n');
  });

  it('refuses placeholders the reply-driven path does not write (data-file fields, drawn numbers) in such a test', () => {
    const resolved = check('### s\ngroup g\n  XREADGROUP GROUP g c COUNT 10 STREAMS s >\n  XACK s g __ids__\n  SET k __rand(1..10)__\nend\n');
    assert.ok(codes(resolved).includes('reply-driven-placeholder'), codes(resolved).join(', '));
  });

  it('completion offers __cursor__, __ids__ and __sha("SCRIPT")__; hover documents each, the whole __sha(…)__ span', () => {
    const { text, position } = withCaret('SCAN ‸');
    const labels = completions(text, position, {}).map((item) => item.label);
    for (const name of ['__cursor__', '__ids__', '__sha("SCRIPT")__']) assert.ok(labels.includes(name), `${name} in ${labels.join(' ')}`);
    const at = (marked: string) => {
      const caret = withCaret(marked);
      return hover(caret.text, caret.position, {});
    };
    assert.match(at('### s\nSCAN __cur‸sor__ COUNT 10')!.contents, /previous reply of this SCAN/);
    assert.match(at('### s\ngroup g\n  XACK s g __i‸ds__\nend')!.contents, /IDs the connection's previous XREADGROUP returned/);
    const line = `EVALSHA __sha("return redis.call('GET', KEYS[1])")__ 1 k`;
    const found = at(`### s\nEVALSHA __sha("return redis.call('G‸ET', KEYS[1])")__ 1 k`)!;
    assert.match(found.contents, /SCRIPT LOAD/);
    assert.deepEqual([found.range.start.character, found.range.end.character], [8, line.indexOf(' 1 k')]);
  });
});
