// Issue 43: placeholders with their own number space in the language. The checker reads `__rand(…)__`,
// `__float(…)__` and `__range(…)__` into draws and refuses bad ones where they are written; a range is two
// arguments (key positions and arity are the server's); the writer writes them bare; completion and hover know
// them; the run's own keys and cluster hash tags take them into account.
import assert from 'node:assert/strict';
import { isOwnKey, keyShape, shapeCovers } from '../../../src/runner/ownKeys';
import { completions, hover } from '../../../src/scenario/features';
import { hashTag } from '../../../src/scenario/clusterKeys';
import type { ArgTemplate, CommandTemplate } from '../../../src/scenario/plan';
import { writeScenario } from '../../../src/scenario/writer';
import { withCaret } from '../features/helpers';
import { check, clean, errors } from './helpers';

function commandOf(line: string): CommandTemplate {
  return clean(`### t\n${line}\n`).scenarios[0].points[0].phases[0].tests[0].commands[0].command;
}

function problems(line: string): { code: string; message: string; at: number }[] {
  return errors(check(`### t\n${line}\n`)).map((d) => ({ code: d.code, message: d.message, at: d.range.start.character }));
}

describe('drawn placeholders in the language (issue 43)', () => {
  it('reads each placeholder of a command into its own draw: range, distribution, whole numbers or decimals', () => {
    const zadd = commandOf('ZADD lb:__rand(1..1000)__ __float(0..1000)__ member:__rand(1..10M,zipf)__');
    const [set, score, member] = zadd.args.map((arg) => arg.find((part) => typeof part !== 'string'));
    assert.deepEqual(
      [set, score, member].map(
        (part) => typeof part === 'object' && part.draw && [part.draw.form, part.draw.min, part.draw.max, part.draw.distribution, part.draw.decimals],
      ),
      [
        ['rand', 1, 1000, 'uniform', 0],
        ['float', 0, 1000, 'uniform', 3],
        ['rand', 1, 10_000_000, 'zipf', 0],
      ],
    );
    assert.deepEqual(zadd.args[0][0], 'lb:');
  });

  it('a range is two arguments sharing one draw, so ZRANGEBYSCORE has its arity and its key where the server has them', () => {
    const command = commandOf('ZRANGEBYSCORE lb __range(0..1000,100)__');
    assert.equal(command.args.length, 3);
    const [low, high] = command.args.slice(1).map((arg) => arg[0]);
    assert.ok(typeof low === 'object' && typeof high === 'object');
    assert.equal(low.side, 'min');
    assert.equal(high.side, 'max');
    assert.equal(low.draw, high.draw);
    assert.equal(low.draw?.width, 100);
    const floats = commandOf('ZRANGEBYSCORE lb __range(0..1.5,0.25)__').args[1][0];
    assert.ok(typeof floats === 'object' && floats.draw?.decimals === 3);
  });

  it('refuses bad draws where they are written: MIN > MAX, decimals in __rand, a width wider than the range, beyond 1e15, zipf decimals', () => {
    const cases: [string, string, RegExp][] = [
      ['SET k __rand(5..1)__', 'invalid-draw', /minimum 5 is above the maximum 1/],
      ['SET k __rand(1.5..3)__', 'invalid-draw', /whole numbers.*__float\(1\.5\.\.3\)__/],
      ['ZRANGEBYSCORE k __range(0..10,20)__', 'invalid-draw', /width 20 is wider than the range 0\.\.10/],
      ['ZRANGEBYSCORE k __range(0..10,-1)__', 'invalid-draw', /is not a number|negative/],
      ['SET k __rand(1..2000000000000000)__', 'invalid-draw', /beyond ±1e15/],
      ['ZADD k __float(0..1,zipf)__ m', 'invalid-draw', /drawn uniformly/],
      ['SET k __rand(1..10,pareto)__', 'invalid-draw', /not a distribution/],
      ['SET k __rand(1..10,zipf,2)__', 'invalid-draw', /one parameter too many/],
      ['SET k __rand(10)__', 'invalid-draw', /MIN\.\.MAX/],
      ['ZRANGEBYSCORE k __range(0..10)__', 'invalid-draw', /needs its width/],
      ['SET a__range(0..10,2)__ v', 'range-not-whole', /two arguments/],
      ['ZRANGEBYSCORE k __range(0..1000, 100)__', 'unclosed-draw', /one word without spaces/],
      ['SET k:__rand(1..5)____value__ v', 'draw-beside-value', /arguments of their own/],
    ];
    for (const [line, code, message] of cases) {
      const found = problems(line);
      assert.equal(found.length, 1, `${line}: ${JSON.stringify(found)}`);
      assert.equal(found[0].code, code, line);
      assert.match(found[0].message, message, line);
    }
    // Placed at the placeholder, not the line.
    assert.equal(problems('SET k __rand(5..1)__')[0].at, 6);
  });

  it('the scenario writer writes them bare, and they read back as the same draws', () => {
    const text = writeScenario([
      { kind: 'header', title: 'leaderboard' },
      { kind: 'command', name: 'ZADD', args: ['lb:__rand(1..1000)__', '__float(0..1000)__', 'm:__rand(1..10M,zipf)__'] },
      { kind: 'command', name: 'ZREVRANGEBYSCORE', args: ['lb:__rand(1..1000)__', '__range(0..1000,100)__'] },
      { kind: 'command', name: 'MSET', args: [{ group: ['k:__rand(1..100,sequential)__', 'v'], times: 3 }] },
    ]);
    assert.match(text, /^ZADD lb:__rand\(1\.\.1000\)__ __float\(0\.\.1000\)__ m:__rand\(1\.\.10M,zipf\)__$/m);
    assert.match(text, /^ZREVRANGEBYSCORE lb:__rand\(1\.\.1000\)__ __range\(0\.\.1000,100\)__$/m);
    assert.match(text, /^MSET \(k:__rand\(1\.\.100,sequential\)__ v\)\*3$/m);
    const tests = clean(text).scenarios[0].points[0].phases[0].tests;
    assert.equal(tests[2].commands[0].command.args.length, 6);
  });

  it('completion offers the forms and hover tells what one draws, or what is wrong with it', () => {
    const { text, position } = withCaret('### s\nZADD lb __‸');
    const labels = completions(text, position).map((item) => item.label);
    for (const form of ['__rand(1..1000)__', '__float(0..1000)__', '__range(0..1000,100)__']) assert.ok(labels.includes(form), form);
    const at = (marked: string) => {
      const caret = withCaret(marked);
      return hover(caret.text, caret.position)?.contents ?? '';
    };
    assert.match(at('### s\nZRANGEBYSCORE lb __ran‸ge(0..1000,100)__'), /a pair a a\+100 with a from 0 to 900, uniform/);
    assert.match(at('### s\nSET k:__rand(1..10‸0,sequential)__ v'), /whole numbers from 1 to 100, sequential/);
    assert.match(at('### s\nSET k __rand(9..‸1)__'), /minimum 9 is above the maximum 1/);
  });

  it('a key made of a whole-number draw is the run own: lb:1 … lb:1000, not lb:0 nor lb:1001; a narrower draw is inside it', () => {
    const load = { clients: 4 };
    const keys = { space: 1, distribution: 'uniform' as const, zipfExponent: 0.99, gaussianStddev: 1 / 6, size: 12 };
    const argOf = (line: string): ArgTemplate => commandOf(line).args[0];
    const wide = keyShape(argOf('SET lb:__rand(1..1000)__ v'), keys, load)!;
    assert.ok(wide);
    assert.deepEqual(
      ['lb:1', 'lb:500', 'lb:1000', 'lb:0', 'lb:1001', 'lb:0500', 'lb:x'].map((key) => isOwnKey([wide], key)),
      [true, true, true, false, false, false, false],
    );
    assert.ok(shapeCovers(wide, keyShape(argOf('DEL lb:__rand(5..10)__'), keys, load)!));
    assert.ok(!shapeCovers(wide, keyShape(argOf('DEL lb:__rand(0..10)__'), keys, load)!));
    // Decimals or negative numbers in a key: not a shape the clean-up matches.
    assert.equal(keyShape(argOf('SET f:__float(0..1)__ v'), keys, load), undefined);
    assert.equal(keyShape(argOf('SET n:__rand(-5..5)__ v'), keys, load), undefined);
  });

  it('a hash tag holding a draw changes with every argument: a cluster cannot share it', () => {
    assert.deepEqual(hashTag(commandOf('SET {t:__rand(1..9)__}:a v').args[0]), { text: 't:__rand(1..9)__', stable: false });
  });
});
