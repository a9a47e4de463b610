// The checks a load request passes before anything connects: the plan's figures, and what the target's
// kind forbids (a group straddling cluster slots, RESP3 on the ioredis client).
import { GROUP_SLOT_FIX, groupCrossSlotReason } from '../scenario/clusterKeys';
import { isReplyDrivenTest } from '../scenario/replyForms';
import { LoadError } from './errors';
import type { LoadRequest } from './types';

/** Throws a LoadError naming every problem of the request. */
export function validateLoad(request: LoadRequest): void {
  const { load } = request.phase;
  const problems: string[] = [];
  if (!(load.clients >= 1) || !Number.isInteger(load.clients)) problems.push(`clients must be a whole number ≥ 1 (got ${load.clients})`);
  if (!(load.pipeline >= 1) || !Number.isInteger(load.pipeline)) problems.push(`pipeline must be a whole number ≥ 1 (got ${load.pipeline})`);
  if ((load.requests === undefined) === (load.durationMs === undefined)) problems.push('exactly one of requests and duration must be set');
  if (load.requests !== undefined && !(load.requests >= 0 && Number.isInteger(load.requests)))
    problems.push(`requests must be a whole number ≥ 0 (got ${load.requests})`);
  if (load.durationMs !== undefined && !(load.durationMs > 0)) problems.push(`duration must be > 0 (got ${load.durationMs} ms)`);
  if (load.rate !== undefined && !(load.rate > 0)) problems.push(`rate must be > 0 (got ${load.rate})`);
  if (request.test.commands.length === 0) problems.push(`test ${request.test.name} has no command`);
  if (!(request.phase.keys.space >= 1)) problems.push(`the key space must be ≥ 1 (got ${request.phase.keys.space})`);
  // A group's unit goes whole to one master: its keys must share a slot (`check` says so with the fix).
  const straddles = request.connection.cluster && request.test.group ? groupCrossSlotReason(request.test) : undefined;
  if (straddles) problems.push(`group ${request.test.name}: on a Redis Cluster all keys of a unit must be in one hash slot: ${straddles}. ${GROUP_SLOT_FIX}`);
  if (load.reconnectEvery !== undefined && !(load.reconnectEvery >= 1 && Number.isInteger(load.reconnectEvery)))
    problems.push(`reconnect every must be a whole number ≥ 1 (got ${load.reconnectEvery})`);
  if (load.idleConnections !== undefined && !(load.idleConnections >= 0 && Number.isInteger(load.idleConnections)))
    problems.push(`idle-connections must be a whole number ≥ 0 (got ${load.idleConnections})`);
  const ramp = load.ramp;
  if (ramp) {
    if (!(ramp.from >= 1 && ramp.step >= 1 && ramp.to > ramp.from && [ramp.from, ramp.to, ramp.step].every(Number.isInteger)))
      problems.push(`ramp clients must run from a whole number ≥ 1 up to a larger one, in whole steps ≥ 1 (got ${ramp.from}..${ramp.to} step ${ramp.step})`);
    if (!(ramp.everyMs >= 1000 && ramp.everyMs % 1000 === 0)) problems.push(`ramp steps last whole seconds (got ${ramp.everyMs} ms)`);
    if (load.clients !== ramp.to) problems.push(`a ramp's clients are its last step's (${ramp.to}), not ${load.clients}`);
    if (load.durationMs === undefined) problems.push('a ramp runs for a duration (its steps), not a request count');
    if (load.rate !== undefined) problems.push('a ramp runs in the closed loop: remove `rate`');
    if (load.shard) problems.push('a ramp cannot be split into shards');
  }
  if (request.client === 'ioredis' && request.connection.resp === 3) {
    problems.push('the ioredis client speaks RESP2 only: use `resp 2`, or `client fast` for RESP3');
  }
  // Reply-driven commands wait for each reply on one connection (`check` says so where the setting is written).
  if (isReplyDrivenTest(request.test)) {
    if (load.pipeline > 1) problems.push('reply-driven commands (__cursor__, __ids__, __sha(…)__) wait for each reply: use `pipeline 1`');
    if (request.client !== 'fast') problems.push('reply-driven commands run on the fast client path only: remove `client ioredis`');
    if (request.connection.cluster) problems.push('reply-driven commands are not supported on a cluster target yet: run them against one node');
    if (load.rate !== undefined) problems.push('reply-driven commands run in the closed loop: remove `rate`');
    if (load.reconnectEvery !== undefined) problems.push('reply-driven commands keep their state on one connection: remove `reconnect every`');
  }
  if (problems.length > 0) throw new LoadError(problems.join('; '));
}
