import assert from 'node:assert/strict';
import { hover, type HoverData, type HoverOptions } from '../../../src/scenario/features';
import { withCaret } from './helpers';

function hoverAt(marked: string, options: HoverOptions = {}): HoverData | undefined {
  const { text, position } = withCaret(marked);
  return hover(text, position, options);
}

function contents(marked: string, options: HoverOptions = {}): string {
  const found = hoverAt(marked, options);
  assert.ok(found, `no hover at ${marked}`);
  return found.contents;
}

function span(found: HoverData | undefined): [number, number, number] | undefined {
  return found && [found.range.start.line, found.range.start.character, found.range.end.character];
}

describe('hover', () => {
  it('documents a setting from the settings table, over the keyword', () => {
    const found = hoverAt('### s\n  pipe‸line 10\nGET k');
    assert.deepEqual(span(found), [1, 2, 10]);
    assert.match(found!.contents, /^\*\*pipeline\*\* — `pipeline N`/);
    assert.match(found!.contents, /Default: `1`/);
    assert.match(found!.contents, /Example: `pipeline 10`/);
  });

  it('documents a Redis command: arity, keys, flags and a link to redis.io', () => {
    const text = contents('### s\n80% hs‸et h f v');
    assert.match(text, /\*\*HSET\*\* — Redis command/);
    assert.match(text, /Arity -4: at least 3 arguments/);
    assert.match(text, /1 key/);
    assert.match(text, /flags: write, denyoom, fast/);
    assert.match(text, /\(https:\/\/redis\.io\/commands\/hset\/\)/);
    assert.match(contents('### s\n8‸0% GET k'), /share of the mix/);
  });

  it('documents placeholders in commands and variable values', () => {
    const found = hoverAt('### s\nSET bench:__ke‸y__ __value__');
    assert.deepEqual(span(found), [1, 10, 17]);
    assert.match(found!.contents, /\*\*__key__\*\* — placeholder/);
    assert.match(contents('@k = x:__cli‸ent__'), /connection index/);
  });

  it('documents expect metrics and the command an expectation is about', () => {
    assert.match(contents('expect GET p9‸9 < 2ms'), /99th percentile latency.*duration/s);
    assert.match(contents('expect G‸ET p99 < 2ms'), /applies to the `GET` results only/);
    assert.match(contents('ex‸pect p99 < 2ms'), /METRIC OP VALUE/);
  });

  it('documents sweep axes and suite tests', () => {
    assert.match(contents('### s\nsweep cli‸ents 1, 2\nGET k'), /\*\*clients\*\*/);
    const suite = hoverAt('### s\nsuite set,lran‸ge_100');
    assert.deepEqual(span(suite), [1, 10, 20]);
    assert.match(suite!.contents, /LPUSH \(needed to benchmark LRANGE\)/, 'the list fill that comes with it');
    assert.match(suite!.contents, /`LRANGE mylist 0 99`/);
  });

  it('shows the resolved value of a variable and where it is defined', () => {
    const text = '@prefix = bench\n@key = {{prefix}}:__key__\n### s\n@prefix = local\nSET {{ke‸y}} v\n';
    const found = hoverAt(text);
    assert.deepEqual(span(found), [4, 4, 11]);
    assert.match(found!.contents, /\*\*\{\{key\}\}\*\* = `local:__key__`/, "the scenario's @prefix overrides the file's");
    assert.match(found!.contents, /Defined on line 2 at file level: `\{\{prefix\}\}:__key__`/);
  });

  it('reports an undefined variable and a cycle', () => {
    assert.match(contents('### s\nGET {{nop‸e}}'), /not defined — define it with `@nope = value`/);
    assert.match(contents('@a = {{b}}\n@b = {{a}}\n### s\nGET {{‸a}}'), /refers to itself/);
  });

  it('masks variables whose name, or whose source, looks secret', () => {
    assert.match(contents('@redis-password = hunter2\n### s\nAUTH {{redis-pass‸word}}'), /= `••••••`/);
    const derived = contents('@auth = ${env:API_TOKEN}\n### s\nGET {{au‸th}}', { env: { API_TOKEN: 'abc123' } });
    assert.ok(!derived.includes('abc123'));
    const fromEnv = contents('@url = ${env:REDIS_URL}\n### s\nGET {{u‸rl}}', { env: { REDIS_URL: 'redis://db:6379' } });
    assert.match(fromEnv, /= `redis:\/\/db:6379`/);
    assert.match(contents('@key = bench:__key__\n### s\nGET {{k‸ey}}'), /= `bench:__key__`/, 'a plain `key` is a key pattern, not a secret');
  });

  it('shows the value of ${env:NAME}, its default, or that it is unset', () => {
    const env = { REDIS_URL: 'redis://db:6379', REDIS_PASSWORD: 'hunter2' };
    assert.match(contents('target ${env:REDIS_U‸RL}', { env }), /\*\*REDIS_URL\*\* \(environment variable\) = `redis:\/\/db:6379`/);
    assert.match(contents('target ${env:MISS‸ING:-redis://localhost}', { env }), /not set — the default `redis:\/\/localhost` applies/);
    assert.match(contents('target ${env:MISS‸ING}', { env }), /not set — set it, or give a default/);
    const secret = contents('@p = ${env:REDIS_PASS‸WORD}', { env });
    assert.ok(!secret.includes('hunter2') && secret.includes('••••••'));
  });

  it('says nothing over comments, blank lines, headers and plain values', () => {
    for (const marked of ['# a com‸ment', '‸', '### na‸me', 'requests 1‸00', 'GET k # no‸te']) assert.equal(hoverAt(marked), undefined, marked);
  });
});
