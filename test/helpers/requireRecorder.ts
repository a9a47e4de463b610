// A preload (`node --require FILE`, or NODE_OPTIONS, which Node applies to worker threads too) that records every
// module a process requires: one line each on stderr, `RBENCH-REQUIRE <threadId> <request or resolved file>`,
// written at once (a thread may be terminated). The tests of what a run loads read them (issue 46).
export const REQUIRE_RECORDER = `
const Module = require('node:module');
const { writeSync } = require('node:fs');
const { threadId } = require('node:worker_threads');
const load = Module._load;
Module._load = function (request, parent) {
  let name = request;
  try {
    if (!request.startsWith('node:') && !Module.isBuiltin(request)) name = Module._resolveFilename(request, parent);
  } catch {}
  writeSync(2, 'RBENCH-REQUIRE ' + threadId + ' ' + name + '\\n');
  return load.apply(this, arguments);
};
`;
