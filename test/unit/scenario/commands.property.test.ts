// Properties of the classification over the whole command table: a computed subcommand is never less
// dangerous than a literal one, every command has a class, a scenario's classes cover its commands', and
// whatever reaches beyond its keys, in any spelling, is destructive.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { list } from '@ioredis/commands';
import { classifyCommand, COMMAND_CLASSES, isContainer, subcommandsOf, type CommandClass } from '../../../src/scenario/commands';
import { scenarioActions } from '../../../src/runner/safety';
import type { ArgTemplate, CommandTemplate, ScenarioPlan } from '../../../src/scenario/plan';
import { planOf } from '../editor/fixtures';

const nonRead = (classes: ReadonlySet<CommandClass>) => [...classes].filter((kind) => kind !== 'read');

/** A plan whose one test sends `commands` (made by hand: the table's every command, without the parser's arity checks). */
function planWith(commands: CommandTemplate[], cleanup?: string): ScenarioPlan {
  const plan = planOf('### s\nGET k\n');
  plan.points[0].phases[0].tests[0].commands = commands.map((command) => ({ weight: 1, command }));
  plan.cleanup = cleanup;
  return plan;
}

const argument: fc.Arbitrary<ArgTemplate> = fc.oneof(
  fc.stringMatching(/^[a-z:*]{0,6}$/).map((text) => [text]),
  fc.constantFrom<ArgTemplate>(
    [{ placeholder: 'key' }],
    ['bench:', { placeholder: 'key' }],
    [{ placeholder: 'value' }],
    [{ placeholder: 'rand_int' }],
    ['0'],
    ['1'],
  ),
);
const commandName = fc.constantFrom(...list);
const template: fc.Arbitrary<CommandTemplate> = fc
  .tuple(commandName, fc.option(fc.constantFrom(...list.flatMap((name) => subcommandsOf(name))), { nil: undefined }), fc.array(argument, { maxLength: 5 }))
  .map(([name, sub, args]) => ({ name: name.toUpperCase(), label: name.toUpperCase(), args: sub && isContainer(name) ? [[sub], ...args] : args }));

/** Random upper and lower case. */
const spelling = (name: string) =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((upper) => [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));

describe('command classes over the whole table', () => {
  it('every command and every subcommand has at least one class, all of them known', () => {
    for (const name of list) {
      for (const sub of [undefined, ...subcommandsOf(name)]) {
        const classes = classifyCommand(name, sub);
        assert.ok(classes.size > 0, `${name} ${sub ?? ''}`);
        for (const kind of classes) assert.ok(COMMAND_CLASSES.includes(kind), kind);
      }
    }
  });

  it('a computed subcommand is never less dangerous than any literal one, nor than an unknown one', () => {
    for (const name of list) {
      const computed = classifyCommand(name);
      for (const sub of [...subcommandsOf(name), 'no-such-subcommand', '']) {
        for (const kind of nonRead(classifyCommand(name, sub)))
          assert.ok(computed.has(kind), `${name} ${sub}: ${kind} missing from the computed subcommand's classes`);
      }
      if (isContainer(name)) assert.ok(!computed.has('read'), `${name} with a computed subcommand counts as a read`);
    }
  });

  it('a container with an admin subcommand is admin with a computed one', () => {
    for (const name of list.filter((name) => isContainer(name))) {
      if (subcommandsOf(name).some((sub) => classifyCommand(name, sub).has('admin'))) assert.ok(classifyCommand(name).has('admin'), name);
    }
  });

  it('the case of a command or subcommand does not change its classes', () => {
    fc.assert(
      fc.property(
        commandName.chain((name) => fc.tuple(fc.constant(name), spelling(name), fc.option(fc.constantFrom(...subcommandsOf(name), 'x'), { nil: undefined }))),
        ([name, spelled, sub]) => {
          assert.deepEqual([...classifyCommand(spelled, sub?.toUpperCase())].sort(), [...classifyCommand(name, sub)].sort());
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a scenario`s classes are a superset of each of its commands`, and its commands list names each one', () => {
    fc.assert(
      fc.property(fc.array(template, { minLength: 1, maxLength: 6 }), (commands) => {
        const actions = scenarioActions(planWith(commands));
        for (const command of commands) {
          const first = command.args[0]?.every((part) => typeof part === 'string') ? command.args[0].join('') : undefined;
          for (const kind of classifyCommand(command.name, first)) {
            assert.ok(actions.classes.has(kind), `${command.name} ${kind}`);
            assert.ok(
              actions.commands[kind]?.some((shown) => shown.startsWith(command.name)),
              `${command.name} missing from commands.${kind}`,
            );
            assert.equal(actions.examples[kind], actions.commands[kind]?.[0]);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('every command that reaches beyond its keys or runs code is destructive, in a scenario of any other commands', () => {
    const reaching = list
      .filter((name) => !isContainer(name) || name === 'debug')
      .filter((name) => {
        const classes = classifyCommand(name);
        return classes.has('dangerous') || classes.has('scripting');
      });
    assert.ok(reaching.includes('flushall') && reaching.includes('eval') && reaching.includes('swapdb') && reaching.includes('select'));
    fc.assert(
      fc.property(fc.constantFrom(...reaching).chain(spelling), fc.array(template, { maxLength: 4 }), fc.nat(4), (name, others, at) => {
        const commands = [...others];
        commands.splice(Math.min(at, commands.length), 0, { name: name.toUpperCase(), label: name, args: [['0'], ['1']] });
        assert.ok(
          scenarioActions(planWith(commands)).destructive.some((phrase) => phrase.startsWith(name.toUpperCase())),
          name,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('deleting, expiring or renaming a key the scenario does not create is destructive; one it creates is not', () => {
    const removers = ['DEL', 'UNLINK', 'GETDEL', 'EXPIRE', 'PEXPIRE', 'EXPIREAT', 'PEXPIREAT', 'RENAME', 'RENAMENX', 'GETEX'];
    const literalKey = fc.stringMatching(/^[a-z]{1,4}:[a-z0-9]{1,4}$/);
    fc.assert(
      fc.property(fc.constantFrom(...removers), literalKey, fc.boolean(), (remover, key, created) => {
        const target: ArgTemplate = [key];
        const commands: CommandTemplate[] = [
          { name: remover, label: remover, args: remover.startsWith('RENAME') ? [target, target] : remover.includes('EXPIRE') ? [target, ['10']] : [target] },
        ];
        if (created) commands.unshift({ name: 'SET', label: 'SET', args: [target, ['v']] });
        const destructive = scenarioActions(planWith(commands)).destructive;
        assert.equal(destructive.length > 0, !created, `${remover} ${key} created=${created}: ${destructive.join('; ')}`);
      }),
      { numRuns: 300 },
    );
  });

  it('a cleanup pattern wider than the scenario`s own prefix is destructive', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,5}:$/), fc.stringMatching(/^[a-z:]{0,6}$/), (prefix, other) => {
        const own: CommandTemplate = { name: 'SET', label: 'SET', args: [[prefix, { placeholder: 'key' }], ['v']] };
        assert.deepEqual(scenarioActions(planWith([own], `${prefix}*`)).destructive, []);
        assert.deepEqual(scenarioActions(planWith([own], `${prefix}${other}*`)).destructive, []);
        assert.equal(scenarioActions(planWith([own], `${other}*`)).destructive.length > 0, !`${other}`.startsWith(prefix));
        assert.ok(scenarioActions(planWith([own], `*${prefix}*`)).destructive.length > 0);
      }),
      { numRuns: 300 },
    );
  });
});
