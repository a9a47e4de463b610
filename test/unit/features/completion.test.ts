import assert from 'node:assert/strict';
import { COMMAND_NAMES, EXPECT_METRICS, KEY_DISTRIBUTIONS, PLACEHOLDERS, SETTINGS, SUITE_NAMES } from '../../../src/scenario';
import { completions, type CompletionItemData, type CompletionOptions } from '../../../src/scenario/features';
import { isOfferedCommand } from '../../../src/scenario/features/commandInfo';
import { DRAW_FORMS } from '../../../src/scenario/draws';
import { SHA_PLACEHOLDER } from '../../../src/scenario/settings';
import { withCaret } from './helpers';

function complete(marked: string, options: CompletionOptions = {}): CompletionItemData[] {
  const { text, position } = withCaret(marked);
  return completions(text, position, options);
}

function labels(items: CompletionItemData[], kind?: CompletionItemData['kind']): string[] {
  return items.filter((item) => !kind || item.kind === kind).map((item) => item.label);
}

function item(items: CompletionItemData[], label: string): CompletionItemData {
  const found = items.find((candidate) => candidate.label === label);
  assert.ok(found, `no item ${label} among ${labels(items).slice(0, 20).join(', ')}`);
  return found;
}

/** `[line, start, end]` of an item's range (single line). */
function span(completion: CompletionItemData): [number, number, number] {
  return [completion.range.start.line, completion.range.start.character, completion.range.end.character];
}

const settingsFor = (scope: 'file' | 'scenario' | 'phase') => SETTINGS.filter((info) => info.scopes.includes(scope)).map((info) => info.name);

describe('completion', () => {
  describe('at the start of a line', () => {
    it('offers file-level settings and no commands before the first header', () => {
      const items = complete('‸\n### one\nGET k\n');
      assert.deepEqual(labels(items, 'setting').sort(), settingsFor('file').sort());
      assert.deepEqual(labels(items, 'command'), []);
      assert.ok(!labels(items).includes('sweep'), 'sweep is written in a scenario');
    });

    it('offers scenario settings and every Redis command inside a scenario, with value syntax and docs', () => {
      const items = complete('### one\n‸\nGET k\n');
      assert.deepEqual(labels(items, 'setting').sort(), settingsFor('scenario').sort());
      assert.equal(labels(items, 'command').length, COMMAND_NAMES.filter((name) => isOfferedCommand(name)).length);
      assert.ok(labels(items, 'command').length > 200);
      const pipeline = item(items, 'pipeline');
      assert.equal(pipeline.detail, 'pipeline N');
      assert.match(pipeline.documentation!, /redis-benchmark's `-P`/);
      assert.equal(pipeline.insertText, undefined, 'no trailing space: the space typed next asks for the values (issue 22: no double space)');
    });

    it('after a phase line, offers phase settings and another phase, but not scenario-wide ones', () => {
      const items = complete('### one\nphase load\nSET k v\n‸\n');
      const settings = labels(items, 'setting');
      assert.ok(settings.includes('clients') && settings.includes('phase') && settings.includes('prefill') && settings.includes('suite'));
      for (const scenarioOnly of ['expect', 'sweep', 'target', 'repeat', 'cleanup']) assert.ok(!settings.includes(scenarioOnly), scenarioOnly);
    });

    it('treats a file without headers as one scenario: commands are offered', () => {
      assert.ok(labels(complete('clients 4\n‸')).includes('GET'));
    });

    it('replaces the whole first word, inserting the word alone', () => {
      const items = complete('### one\npip‸line 10\n');
      const pipeline = item(items, 'pipeline');
      assert.deepEqual(span(pipeline), [1, 0, 7]);
      assert.equal(pipeline.insertText, undefined, 'the value already follows: no extra space');
      assert.equal(item(complete('### one\ncl‸'), 'client').insertText, undefined);
    });

    it('ranks common data commands first: SE offers SET before SELECT, and no module commands such as SADDEX', () => {
      const items = complete('### one\nSE‸');
      // As the editor's list does for one typed prefix: by sortText, then label.
      const ranked = items
        .filter((i) => i.kind === 'command' && i.label.startsWith('SE'))
        .sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label))
        .map((i) => i.label);
      assert.equal(ranked[0], 'SET');
      assert.ok(ranked.indexOf('SET') < ranked.indexOf('SELECT'), ranked.join(' '));
      const all = labels(complete('### one\nS‸'), 'command');
      for (const absent of ['SADDEX', 'SEXPIRE', 'VADD']) assert.ok(!all.includes(absent), absent);
      for (const present of ['SADD', 'SETEX', 'SPOP', 'SELECT']) assert.ok(all.includes(present), present);
    });

    it('describes commands from the command table: arity, access and keys', () => {
      const items = complete('### one\n‸');
      assert.equal(item(items, 'SET').detail, 'arity -3 · write · 1 key');
      assert.equal(item(items, 'GET').detail, 'arity 2 · readonly · 1 key');
      assert.equal(item(items, 'MSET').detail, 'arity -3 · write · keys from argument 1, every 2nd');
    });

    it('offers nothing in comments, headers, variable names and weights being typed', () => {
      for (const marked of ['# a comm‸ent', '### na‸me', '@na‸me = 1', '8‸0% GET k', 'GET k # note‸']) assert.deepEqual(complete(marked), [], marked);
    });

    it('offers commands after a weight', () => {
      const items = complete('### mix\n80% G‸');
      assert.deepEqual(span(item(items, 'GET')), [1, 4, 5]);
      assert.deepEqual(labels(items, 'setting'), []);
    });
  });

  describe('setting values', () => {
    it('on/off, choices and auto', () => {
      assert.deepEqual(labels(complete('cluster ‸')), ['on', 'off']);
      assert.deepEqual(labels(complete('client ‸')), ['fast', 'ioredis']);
      assert.deepEqual(labels(complete('resp ‸')), ['2', '3']);
      assert.deepEqual(labels(complete('threads ‸')), ['auto']);
      assert.deepEqual(labels(complete('cluster on ‸')), [], 'one value only');
    });

    it('key distributions after the key count, replacing the word being typed', () => {
      assert.deepEqual(labels(complete('keys ‸')), [], 'the count comes first');
      const items = complete('keys 1M zi‸');
      assert.deepEqual(labels(items), [...KEY_DISTRIBUTIONS]);
      assert.deepEqual(span(item(items, 'zipf')), [0, 8, 10]);
      assert.match(item(items, 'zipf').detail!, /0\.99/);
    });

    it("sweep axes after `sweep`, with the axis setting's docs", () => {
      const items = complete('### s\nsweep ‸');
      assert.deepEqual(labels(items), ['value', 'key-size', 'pipeline', 'clients', 'requests', 'keys', 'threads', 'rate']);
      assert.match(item(items, 'clients').documentation!, /connections/);
    });

    it('suite test names in a comma list, skipping those already listed', () => {
      const first = complete('### s\nsuite ‸');
      assert.deepEqual(labels(first), ['default', ...SUITE_NAMES]);
      assert.match(item(first, 'lrange_100').documentation!, /LRANGE mylist 0 99/);
      const next = complete('### s\nsuite set,g‸');
      assert.ok(!labels(next).includes('set') && !labels(next).includes('default'));
      assert.deepEqual(span(item(next, 'get')), [1, 10, 11], 'only the item after the comma is replaced');
      const middle = complete('### s\nsuite set,‸,lpush');
      assert.ok(!labels(middle).includes('lpush') && labels(middle).includes('get'));
    });

    it('`env:` and `secret` after `password`, then environment names after `env:`', () => {
      const env = { REDIS_PASSWORD: 'hunter2', HOME: '/srv/me', 'not-a-name': 'x' };
      const forms = complete('password ‸', { env });
      assert.deepEqual(labels(forms), ['env:', 'secret']);
      assert.equal(item(forms, 'env:').retrigger, true);
      const names = complete('password env:RE‸', { env });
      assert.deepEqual(labels(names), ['HOME', 'REDIS_PASSWORD']);
      assert.deepEqual(span(item(names, 'REDIS_PASSWORD')), [0, 13, 15]);
      assert.ok(!JSON.stringify(names).includes('hunter2'), 'values are never shown');
    });

    it('profile names and a local URL after `target`', () => {
      const items = complete('target ‸', { profiles: ['staging', 'prod'] });
      assert.deepEqual(labels(items, 'profile'), ['staging', 'prod']);
      assert.ok(labels(items).includes('redis://127.0.0.1:6379'));
    });

    it("offers a server table's commands only when a line holds the name as it is (issue 42)", () => {
      const spec = (name: string) => ({ name, arity: -1, flags: [], categories: [], firstKey: 0, lastKey: 0, step: 0 });
      const items = complete('### s\nGE‸', { commandTable: { origin: 'a test server', specs: [spec('get'), spec('getx\ncleanup *'), spec('ge\u202et')] } });
      assert.deepEqual(labels(items, 'command'), ['GET']);
    });

    it("offers only profile names a target line can hold: a workspace's `x\\ncleanup *` would insert a line (issue 42)", () => {
      const items = complete('target ‸', { profiles: ['staging', 'x\ncleanup *', 'a\u202eb', 'two words'] });
      assert.deepEqual(labels(items, 'profile'), ['staging']);
    });

    it('expect: metrics and measured commands, then operators, then an example value', () => {
      const doc = (line: string) => `### s\nsuite set,lrange_100\n${line}\n`;
      const first = complete(doc('expect ‸'));
      assert.deepEqual(
        labels(first, 'metric'),
        EXPECT_METRICS.map((info) => info.name),
      );
      assert.deepEqual(labels(first, 'label').sort(), ['LPUSH', 'LRANGE_100', 'SET'], 'the labels the suite measures');
      assert.deepEqual(
        labels(complete(doc('expect LRANGE_100 ‸')), 'metric'),
        EXPECT_METRICS.map((info) => info.name),
      );
      assert.deepEqual(labels(complete(doc('expect p99 ‸'))), ['<=', '>=', '!=', '==', '<', '>', '=']);
      assert.deepEqual(labels(complete(doc('expect SET p99 ‸'))), ['<=', '>=', '!=', '==', '<', '>', '=']);
      assert.deepEqual(labels(complete(doc('expect p99 < ‸'))), ['2ms']);
      assert.deepEqual(labels(complete(doc('expect throughput > ‸'))), ['100k/s']);
      assert.deepEqual(labels(complete(doc('expect SET nonsense ‸'))), [], 'not a metric: nothing to follow it');
      assert.deepEqual(labels(complete(doc('expect p99 < 2ms ‸'))), [], 'complete');
    });
  });

  describe('inside command arguments', () => {
    it('offers the placeholders after a space and while typing `__`, replacing the fragment', () => {
      assert.deepEqual(labels(complete('GET ‸')), [...PLACEHOLDERS.map((info) => info.name), SHA_PLACEHOLDER.name, ...DRAW_FORMS.map((form) => form.example)]);
      const items = complete('SET bench:__k‸ v');
      assert.deepEqual(span(item(items, '__key__')), [0, 10, 13]);
      assert.deepEqual(span(item(complete('SET bench:__k‸ey__ v'), '__key__')), [0, 10, 17], 'the rest of the placeholder is replaced too');
    });

    it('offers nothing in the middle of a plain word', () => {
      assert.deepEqual(complete('SET bench:‸'), []);
    });

    it('offers the variables defined in the file after `{{`, closing the braces when needed', () => {
      const text = '@prefix = bench\n@api-token = abc\n### one\n@local = 1\nSET {{‸\n### two\n@other = 2\n';
      const items = complete(text);
      assert.deepEqual(labels(items).sort(), ['api-token', 'local', 'prefix']);
      assert.equal(item(items, 'prefix').insertText, 'prefix}}');
      assert.equal(item(items, 'prefix').detail, 'bench');
      assert.equal(item(items, 'api-token').detail, '••••••', 'a secret-looking value is masked');
      const closed = complete('@prefix = bench\n### one\nSET {{pr‸}}:x v\n');
      assert.equal(item(closed, 'prefix').insertText, 'prefix');
      assert.deepEqual(span(item(closed, 'prefix')), [2, 6, 8]);
    });

    it('file-level lines see only file-level variables', () => {
      assert.deepEqual(labels(complete('@a = 1\nrequests {{‸\n### one\n@b = 2\nGET k\n')), ['a']);
    });

    it('offers `env:` after `${`, then environment names after `${env:`', () => {
      assert.deepEqual(labels(complete('target ${‸')), ['env:']);
      const items = complete('target ${env:RE‸', { env: { REDIS_URL: 'redis://x', USER: 'me' } });
      assert.deepEqual(labels(items), ['REDIS_URL', 'USER']);
      assert.equal(item(items, 'REDIS_URL').insertText, 'REDIS_URL}');
      assert.equal(item(complete('target ${env:R‸:-redis://localhost}', { env: { REDIS_URL: 'x' } }), 'REDIS_URL').insertText, 'REDIS_URL');
      assert.deepEqual(complete('target ${env:REDIS_URL:-redis‸', { env: { REDIS_URL: 'x' } }), [], 'typing the default');
    });
  });

  it('never throws, whatever the text and position', () => {
    const texts = ['', '\n\n', '###', '{{', '${', '80%', 'expect', 'suite ,,,', '"unterminated', 'SET (a b)*', '@', 'keys 1 zipf 1 2 3'];
    for (const text of texts) {
      for (let character = 0; character <= text.length + 2; character++) {
        assert.doesNotThrow(() => completions(text, { line: 0, character }), `${JSON.stringify(text)} at ${character}`);
      }
      assert.deepEqual(completions(text, { line: 5, character: 0 }), [], 'a line past the end');
    }
  });
});
