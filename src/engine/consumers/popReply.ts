// The jobs one blocked call returned, read from the reply's shape (one reader for every blocking pop):
//   nil                                   → nothing (the wait timed out)
//   value                                 → BLMOVE, BRPOPLPUSH: one job
//   [key, value] / [key, member, score]   → BLPOP, BRPOP, BZPOPMIN, BZPOPMAX: one job
//   [key, [value…]] / [key, [[m, s]…]]    → BLMPOP, BZMPOP: a job per element
//   [[stream, [[id, [field, value…]]…]]…] → XREAD, XREADGROUP: a job per entry, its first field's value
//   (RESP3: a map, stream → entries)
import { RespErrorReply, type RespValue } from '../../protocol/respValue';

/** The jobs' values (a job without text: ''), or an error reply's text. Empty: the wait returned nothing. */
export function jobsIn(reply: RespValue): string[] | RespErrorReply {
  if (reply instanceof RespErrorReply) return reply;
  if (reply === null) return [];
  if (!Array.isArray(reply)) return [text(reply)];
  if (reply.length === 0) return [];
  if (Array.isArray(reply[0])) return reply.flatMap(streamJobs);
  // RESP3 answers the stream reads with a map: [stream, entries, stream, entries…].
  if (isEntries(reply[1])) return pairs(reply).flatMap(streamJobs);
  if (Array.isArray(reply[1])) return reply[1].map((element) => text(Array.isArray(element) ? element[0] : element));
  return [text(reply[1])];
}

/** One stream's entries: `[name, [[id, [field, value, …]], …]]` → each entry's first value. */
function streamJobs(stream: RespValue): string[] {
  if (!Array.isArray(stream) || !Array.isArray(stream[1])) return [];
  return stream[1].map((entry) => {
    const fields = Array.isArray(entry) ? entry[1] : undefined;
    return Array.isArray(fields) ? text(fields[1]) : '';
  });
}

/** A stream's entries: `[[id, [field, value, …]], …]`. */
function isEntries(value: RespValue | undefined): boolean {
  return Array.isArray(value) && Array.isArray(value[0]) && Array.isArray(value[0][1]);
}

function pairs(flat: RespValue[]): RespValue[] {
  const result: RespValue[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) result.push([flat[i], flat[i + 1]]);
  return result;
}

function text(value: RespValue | undefined): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** The stream entry IDs a stream read returned (XREADGROUP's reply, RESP2 or RESP3), in order: what XACK acknowledges. */
export function entryIdsIn(reply: RespValue): string[] {
  if (!Array.isArray(reply) || reply.length === 0) return [];
  const streams = Array.isArray(reply[0]) ? reply : isEntries(reply[1]) ? pairs(reply) : [];
  return streams.flatMap((stream) =>
    Array.isArray(stream) && Array.isArray(stream[1])
      ? stream[1].flatMap((entry) => (Array.isArray(entry) && typeof entry[0] === 'string' ? [entry[0]] : []))
      : [],
  );
}
