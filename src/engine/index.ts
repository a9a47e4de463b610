// The load engine's public face: runs one test of a phase against Redis and measures it. Code outside
// src/engine imports the engine from here only (tests may reach into its files to test them). One
// exception: src/views/latencyCharts.ts, part of the webview's browser bundle, imports ./measure/percentile
// itself, since this face names node-only modules (worker threads, sockets) a browser bundle cannot take.

// Running a load: the entry point, its errors, and how its connections and threads are spread.
export { runLoad } from './load';
// Engine threads the client groups of a phase share (a load of `threads auto` among others).
export { SharedThreads } from './sharedThreads';
export { LoadError } from './errors';
export { DEFAULT_SERVER_LOST_TIMEOUT_MS, splitRequests } from './loadPlan';
export { resolveThreads } from './threads';
// The CLI's thread has nothing else to do while a load runs: a one-thread load runs on it, and a fault thrown there
// ends the loads running on it as a worker's crash would.
export { letLoadsHoldThisThread } from './threads';
export { preparingLoads } from './optimizeWhileLoading';
export { failLoadsOnThisThread } from './inThreadLoad';
export { errorStatusWhy } from './verdicts';
// Whether this process and the server can hold a number of connections (client groups check their sum).
export { checkConnectionCapacity } from './capacity';
// A consumer group's load: blocked calls (BRPOP, XREADGROUP … BLOCK) taking the jobs other groups push.
export { runConsumers } from './consumers/consumerLoad';
// Loads that start sending together (a phase's client groups).
export { StartBarrier } from './startBarrier';

// What a load is asked and what it gives back: requests, options, progress ticks, results.
export type * from './types';
// A subscriber's channel bound (results/mergeGroupFigures.ts keeps a merged run inside it).
export { MAX_PUBSUB_CHANNELS } from './types';

// Latency histograms as the engine records them, summarized, and read at percentiles (merging runs, charts).
export { LatencyRecorder } from './measure/histogram';
export { summarize, toHdrHistogram } from './measure/summary';
export { valuesAtPercentiles } from './measure/percentile';

// Cluster routing the runner shares with the workers: a key's hash slot, and the TLS settings for a node.
export { slotOf } from './cluster/slot';
export { nodeTls } from './cluster/nodeTls';

// A raw connection beside the load, as the load's are opened (same gate, same framing of replies): the runner's
// count of the keys a run left reads SCAN replies' bytes on it.
export { openRawCommands, type RawCommands } from './fast/rawCommands';
export { openRawControl } from './fast/rawControl';
// How `__key__` and `__rand_int__` are written: the run's own keys are exactly these (src/runner/ownKeys.ts).
export { keyWidth } from './requests/batch';
export { RAND_INT_WIDTH } from './requests/templateEncoder';
// A subscriber group (Pub/Sub): its connections listen in this process until the publishers end.
export { runSubscribers, DRAIN_SILENCE_MS } from './pubsub/subscriberLoad';
// `__now__`: the send stamp a receiver (subscriber, queue consumer) reads back for its latency.
export { SEND_STAMP_DIGITS, monotonicMicros, stampAt, stampAge } from './sendStamp';
