// Redis modules for the tests of the server's own command table: Debian's RediSearch (redis-redisearch), and
// a tiny module compiled here with gcc (no headers needed) whose commands carry the flags RediSearch has
// none of (`admin`). The tests that need them fail, never skip, without them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDISEARCH = '/usr/lib/redis/modules/redisearch.so';

/** The module's source: the module API is reached through the pointer Redis puts first in the context, as redismodule.h does. */
const SOURCE = `
typedef struct RedisModuleCtx RedisModuleCtx;
typedef struct RedisModuleString RedisModuleString;
typedef int (*CmdFunc)(RedisModuleCtx *, RedisModuleString **, int);
static int (*GetApi)(const char *, void *);
static int (*SetModuleAttribs)(RedisModuleCtx *, const char *, int, int);
static int (*CreateCommand)(RedisModuleCtx *, const char *, CmdFunc, const char *, int, int, int);
static int (*ReplyWithSimpleString)(RedisModuleCtx *, const char *);
static int Ok(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) { (void)argv; (void)argc; return ReplyWithSimpleString(ctx, "OK"); }
int RedisModule_OnLoad(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
  (void)argv; (void)argc;
  GetApi = (int (*)(const char *, void *))(unsigned long)((void **)ctx)[0];
  GetApi("RedisModule_SetModuleAttribs", &SetModuleAttribs);
  GetApi("RedisModule_CreateCommand", &CreateCommand);
  GetApi("RedisModule_ReplyWithSimpleString", &ReplyWithSimpleString);
  SetModuleAttribs(ctx, "rbtest", 1, 1);
  if (CreateCommand(ctx, "rbtest.admin", Ok, "admin", 0, 0, 0) != 0) return 1;
  if (CreateCommand(ctx, "rbtest.write", Ok, "write", 1, 1, 1) != 0) return 1;
  return 0;
}
`;

/** Call inside a `describe`: the tiny module built before the suite (its path), removed after. */
export function useTinyModule(): () => string {
  let dir: string | undefined;
  before(function () {
    this.timeout(30_000);
    dir = mkdtempSync(join(tmpdir(), 'rbench-module-'));
    writeFileSync(join(dir, 'rbtest.c'), SOURCE);
    try {
      execFileSync('gcc', ['-shared', '-fPIC', '-nostdlib', '-O1', '-o', join(dir, 'rbtest.so'), join(dir, 'rbtest.c')], { stdio: 'pipe' });
    } catch (error) {
      throw new Error(`cannot build the test module (install gcc: apt-get install gcc): ${(error as Error).message}`, { cause: error });
    }
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (!dir) throw new Error('the test module is not built yet');
    return join(dir, 'rbtest.so');
  };
}

/** Fails the suite (never skips it) when RediSearch is not installed. */
export function requireRediSearch(): void {
  if (!existsSync(REDISEARCH)) throw new Error(`${REDISEARCH} is missing: apt-get install redis-redisearch`);
}
