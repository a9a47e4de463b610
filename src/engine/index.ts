// The load engine: runs one test of a phase against Redis and measures it.
export { runLoad, splitRequests, DEFAULT_SERVER_LOST_TIMEOUT_MS } from './load';
export { LoadError } from './errors';
export { resolveThreads } from './threads';
export type * from './types';
