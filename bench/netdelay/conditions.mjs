// The shaping conditions of bench/physics.mjs and the physics they imply.
//
// A condition is written `none` (no shaping at all), `Dms` (every packet held D ms, each way),
// `Dms~Jms` (held normal(D, J) ms, cut at 0) and any of them with `/P%` (each packet lost with
// probability P). The round trip of a request is its packet's delay plus its reply's: 2D for a constant
// delay, the sum of two draws with jitter; a lost segment waits for TCP to send it again.

const SPEC = /^(\d+(?:\.\d+)?)ms(?:~(\d+(?:\.\d+)?)ms)?(?:\/(\d+(?:\.\d+)?)%)?$/;

/** Parses one condition; throws a plain message naming the form for a malformed one. */
export function parseCondition(text) {
  const spec = text.trim();
  if (spec === 'none') return { spec, shaped: false, delayMs: 0, jitterMs: 0, loss: 0 };
  const match = SPEC.exec(spec);
  if (!match) throw new Error(`--conditions: "${spec}" is not a condition; write none, 1ms, 2ms~1ms (normal jitter) or 0.5ms/1% (loss)`);
  const loss = match[3] === undefined ? 0 : Number(match[3]) / 100;
  if (loss >= 1) throw new Error(`--conditions: "${spec}" loses every packet; give a loss below 100%`);
  return { spec, shaped: true, delayMs: Number(match[1]), jitterMs: match[2] === undefined ? 0 : Number(match[2]), loss };
}

export function describeCondition(c) {
  if (!c.shaped) return 'no shaping';
  const parts = [c.jitterMs > 0 ? `${c.delayMs} ms ± ${c.jitterMs} ms (normal) each way` : `${c.delayMs} ms each way`];
  if (c.loss > 0) parts.push(`${+(c.loss * 100).toFixed(3)} % of packets lost`);
  return parts.join(', ');
}

// Linux TCP with one segment in flight: the first resend after about the minimum RTO (200 ms) plus a
// round trip (tail-loss probe or RTO, whichever fires first), doubling on each further loss.
const RTO_MIN_MS = 200;

/** xorshift128+: the model's samples repeat from run to run. */
function random(seed) {
  let s0 = seed >>> 0 || 1;
  let s1 = 0x9e3779b9;
  return () => {
    let x = s0;
    const y = s1;
    s0 = y;
    x ^= x << 23;
    x ^= x >>> 17;
    x ^= y ^ (y >>> 26);
    s1 = x >>> 0;
    return ((s0 + s1) >>> 0) / 4294967296;
  };
}

/**
 * The round trip of one request (its packet there, the reply back), sampled. `floor` leaves loss out: its
 * quantiles are the least any client can measure, since a resend or the client's own time only add to
 * them. `model` adds TCP's resends of lost segments: what a client should see, before its own overhead.
 */
export function roundTripModel(c, samples = 200_000) {
  if (!c.shaped) return { floor: summary(new Float64Array(1)), model: summary(new Float64Array(1)) };
  const next = random(20_201);
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const oneWay = () => Math.max(0, c.jitterMs > 0 ? c.delayMs + c.jitterMs * normal() : c.delayMs);
  const floor = new Float64Array(samples);
  for (let i = 0; i < samples; i++) floor[i] = oneWay() + oneWay();
  // A draw can come out at 0 each way: with jitter the floor of the least round trip is 0, not the least sample.
  const floorSummary = { ...summary(floor), minMs: c.jitterMs > 0 ? 0 : 2 * c.delayMs };
  if (c.loss === 0) return { floor: floorSummary, model: floorSummary };
  const resendAfter = RTO_MIN_MS + floorSummary.meanMs;
  const withLoss = () => {
    let wait = 0;
    for (let backoff = resendAfter; next() < c.loss; backoff *= 2) wait += backoff;
    return wait + oneWay();
  };
  const model = new Float64Array(samples);
  for (let i = 0; i < samples; i++) model[i] = withLoss() + withLoss();
  return { floor: floorSummary, model: summary(model) };
}

/** Mean and quantiles of samples in ms (sorted in place). */
function summary(values) {
  values.sort();
  const n = values.length;
  const at = (q) => values[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))];
  let sum = 0;
  for (const v of values) sum += v;
  return { minMs: values[0], meanMs: sum / n, p50Ms: at(0.5), p99Ms: at(0.99), p999Ms: at(0.999), maxMs: values[n - 1] };
}
