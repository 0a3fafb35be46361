/**
 * How long `run` waits between two reads of an execution. At most one read a second (the rate limit is per key, shared
 * with whatever else the key does; the platform's MCP server waits 3 s between its reads), and fewer as the run
 * grows old: a deployment that has run for ten minutes will not end in the next second, so the wait grows to a
 * twentieth of the time elapsed (3 s after a minute), capped at `maxMs`: an hour's run costs a few hundred requests.
 */
export interface PollPacing {
  /** The shortest wait; default 1000 ms (one read a second at most). */
  readonly minMs: number;
  /** The longest wait; default 15 s, so a change is seen within 15 s however long the run. */
  readonly maxMs: number;
}

export const DEFAULT_PACING: PollPacing = { minMs: 1000, maxMs: 15_000 };

/** The wait before the next read, `elapsedMs` after the execution started. */
export function pollDelay(elapsedMs: number, pacing: PollPacing = DEFAULT_PACING): number {
  const grown = Math.max(0, elapsedMs) / 20;
  return Math.round(Math.min(pacing.maxMs, Math.max(pacing.minMs, grown)));
}
