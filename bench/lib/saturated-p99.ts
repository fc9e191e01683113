/**
 * What a p99 limit asks of a server under a saturating closed loop, from the run's own figures: with
 * `connections` requests always in flight, a request's mean latency is connections ÷ throughput (Little's
 * law), and the tail sits at a multiple of that mean for every server, routes that do no work included.
 */
import { perSecond } from './format.js';

export interface SaturatedReading {
  readonly name: string;
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  /** p99 of the same server in an open loop at half the ceiling's rate, without the queue. */
  readonly pacedP99Ms: number;
}

export interface SaturatedP99 {
  readonly limitMs: number;
  readonly connections: number;
  readonly cores: number;
  /** The endpoints the target is about. */
  readonly endpoints: readonly SaturatedReading[];
  /** The routes that do no work, measured beside them. */
  readonly references: readonly SaturatedReading[];
}

export function saturatedP99Explanation({
  limitMs,
  connections,
  cores,
  endpoints,
  references,
}: SaturatedP99): string {
  const meanMs = (r: SaturatedReading) => (connections / r.requestsPerSecond) * 1000;
  const all = [...endpoints, ...references];
  const tails = all.map((r) => r.p99Ms / meanMs(r));
  const lowestTail = Math.min(...tails);
  const needed = (connections * lowestTail * 1000) / limitMs;
  const fastest = all.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  const reach =
    needed > fastest.requestsPerSecond
      ? `more than any server reached here, ${fastest.name} included (${perSecond(fastest.requestsPerSecond)})`
      : `which ${fastest.name} reached here (${perSecond(fastest.requestsPerSecond)})`;
  const list = (readings: readonly SaturatedReading[], of: (r: SaturatedReading) => string) =>
    readings.map((r) => `${of(r)} for ${r.name}`).join(', ');
  return (
    `With ${connections} connections each sending its next request as soon as the last is answered, the ` +
    `server is saturated and a request's mean latency is ${connections} ÷ throughput (Little's law): ` +
    `${list(endpoints, (r) => `${meanMs(r).toFixed(1)} ms at ${perSecond(r.requestsPerSecond)}`)}. ` +
    `Every server's p99 was ${lowestTail.toFixed(1)}–${Math.max(...tails).toFixed(1)} times its mean in this run, ` +
    `the routes that do no work included, so a p99 of ${limitMs} ms needs at least ${perSecond(needed)} at this ` +
    `load: ${reach}, on ${cores} cores shared with the load generator. ` +
    "Without the queue, in an open loop at half the ceiling's rate, p99 read " +
    `${list(all, (r) => `${r.pacedP99Ms.toFixed(1)} ms`)}.`
  );
}
