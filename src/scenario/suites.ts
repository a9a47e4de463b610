// redis-benchmark's built-in tests (src/redis-benchmark.c, Redis 7.0), in its order, with its key
// names and payloads: `suite default` or `suite set,get` expands to these.

export interface SuiteTest {
  /** As redis-benchmark prints it and rbench reports it (`LRANGE_100 (first 100 elements)`). */
  title: string;
  /** The result label used by per-command expectations: the title before any parenthesis. */
  label: string;
  /** The command line, in `.rbench` argument syntax (placeholders, `(…)*N` groups). */
  command: string;
  /** The command when a key space is set (redis-benchmark's `-r`), if it differs. */
  randomKeysCommand?: string;
  /** Sent inline (`PING\r\n`) rather than as a RESP array. */
  inline?: boolean;
  /** `-t` names that select this test (redis-benchmark's `test_is_selected` calls). */
  selectors: readonly string[];
}

const LRANGE_SELECTORS = ['lrange', 'lrange_100', 'lrange_300', 'lrange_500', 'lrange_600'];

export const SUITE_TESTS: readonly SuiteTest[] = [
  { title: 'PING_INLINE', label: 'PING_INLINE', command: 'PING', inline: true, selectors: ['ping_inline', 'ping'] },
  { title: 'PING_MBULK', label: 'PING_MBULK', command: 'PING', selectors: ['ping_mbulk', 'ping'] },
  { title: 'SET', label: 'SET', command: 'SET key:__rand_int__ __value__', selectors: ['set'] },
  { title: 'GET', label: 'GET', command: 'GET key:__rand_int__', selectors: ['get'] },
  { title: 'INCR', label: 'INCR', command: 'INCR counter:__rand_int__', selectors: ['incr'] },
  { title: 'LPUSH', label: 'LPUSH', command: 'LPUSH mylist __value__', selectors: ['lpush'] },
  { title: 'RPUSH', label: 'RPUSH', command: 'RPUSH mylist __value__', selectors: ['rpush'] },
  { title: 'LPOP', label: 'LPOP', command: 'LPOP mylist', selectors: ['lpop'] },
  { title: 'RPOP', label: 'RPOP', command: 'RPOP mylist', selectors: ['rpop'] },
  { title: 'SADD', label: 'SADD', command: 'SADD myset element:__rand_int__', selectors: ['sadd'] },
  { title: 'HSET', label: 'HSET', command: 'HSET myhash element:__rand_int__ __value__', selectors: ['hset'] },
  { title: 'SPOP', label: 'SPOP', command: 'SPOP myset', selectors: ['spop'] },
  // The score is `__rand_int__` only with `-r` (a `keys` setting here), as in redis-benchmark.
  {
    title: 'ZADD',
    label: 'ZADD',
    command: 'ZADD myzset 0 element:__rand_int__',
    randomKeysCommand: 'ZADD myzset __rand_int__ element:__rand_int__',
    selectors: ['zadd'],
  },
  { title: 'ZPOPMIN', label: 'ZPOPMIN', command: 'ZPOPMIN myzset', selectors: ['zpopmin'] },
  // redis-benchmark fills the list before its LRANGE tests, and reports the fill as a test.
  { title: 'LPUSH (needed to benchmark LRANGE)', label: 'LPUSH', command: 'LPUSH mylist __value__', selectors: LRANGE_SELECTORS },
  { title: 'LRANGE_100 (first 100 elements)', label: 'LRANGE_100', command: 'LRANGE mylist 0 99', selectors: ['lrange', 'lrange_100'] },
  { title: 'LRANGE_300 (first 300 elements)', label: 'LRANGE_300', command: 'LRANGE mylist 0 299', selectors: ['lrange', 'lrange_300'] },
  { title: 'LRANGE_500 (first 450 elements)', label: 'LRANGE_500', command: 'LRANGE mylist 0 449', selectors: ['lrange', 'lrange_500'] },
  { title: 'LRANGE_600 (first 600 elements)', label: 'LRANGE_600', command: 'LRANGE mylist 0 599', selectors: ['lrange', 'lrange_600'] },
  { title: 'MSET (10 keys)', label: 'MSET', command: 'MSET (key:__rand_int__ __value__)*10', selectors: ['mset'] },
];

/** Every name `suite` accepts besides `default`, in a stable order (for completion and did-you-mean). */
export const SUITE_NAMES: readonly string[] = [...new Set(SUITE_TESTS.flatMap((test) => test.selectors))];

/** The tests selected by the given `-t` names (lower case), in redis-benchmark's order. */
export function selectSuiteTests(names: readonly string[]): SuiteTest[] {
  if (names.includes('default')) return [...SUITE_TESTS];
  return SUITE_TESTS.filter((test) => test.selectors.some((selector) => names.includes(selector)));
}
