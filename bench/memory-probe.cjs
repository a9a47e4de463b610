// Preload for bench/memory-flat.mjs (RBENCH_MEMORY_PROBE=1; NODE_OPTIONS=--require reaches worker threads too):
// per thread, the peak of each process.memoryUsage() part and of V8's new space, rewritten at every sample into
// RBENCH_MEMORY_PROBE_DIR/probe-t<threadId>.txt (a terminated worker runs no exit handler). Not part of RBench.
const { threadId } = require('node:worker_threads');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const v8 = require('node:v8');

const file = join(process.env.RBENCH_MEMORY_PROBE_DIR || '.', `probe-t${threadId}.txt`);
const peak = {};
function sample() {
  const usage = process.memoryUsage();
  for (const part of ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers']) peak[part] = Math.max(peak[part] || 0, usage[part]);
  const newSpace = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  peak.newSpace = Math.max(peak.newSpace || 0, newSpace.space_size);
  writeFileSync(
    file,
    Object.entries(peak)
      .map(([part, bytes]) => `${part} ${(bytes / 1048576).toFixed(1)}`)
      .join(', ') + ' MiB\n',
  );
}
sample();
setInterval(sample, 50).unref();
process.on('exit', sample);
