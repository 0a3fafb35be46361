import { ApiError } from './envelope.js';
import { systemClock, type Clock } from './clock.js';
import type { PlatformHealth } from './platform-health.js';

export interface RetryOptions {
  /** Attempts in all, the first included. Default 6. */
  readonly attempts?: number;
  /** Delay before the first retry, doubled each time. Default 500 ms. */
  readonly baseDelayMs?: number;
  /** Longest single wait. Default 30 s. */
  readonly maxDelayMs?: number;
  /** Total time one operation may spend, waits included; no retry starts past it. Default 120 s. */
  readonly maxTotalMs?: number;
  /** Source of jitter in [0, 1); injectable for tests. */
  readonly random?: () => number;
}

export type RetryPolicy = Required<RetryOptions>;

const DEFAULT_RETRY: RetryPolicy = {
  attempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxTotalMs: 120_000,
  random: Math.random,
};

export const retryPolicy = (options: RetryOptions = {}): RetryPolicy => ({ ...DEFAULT_RETRY, ...options });

/**
 * Wait before retry number `retry` (1 = first retry): exponential, capped, with "equal jitter" (half fixed,
 * half random) so many clients failing together do not come back in step. A Retry-After from the server is a
 * floor: coming back sooner would only earn another 429.
 */
export function backoffDelay(policy: RetryPolicy, retry: number, retryAfterMs?: number): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  const jittered = exponential / 2 + policy.random() * (exponential / 2);
  return Math.round(retryAfterMs !== undefined ? Math.max(retryAfterMs, jittered) : jittered);
}

/** Retry-After as delta-seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface RetryEvent {
  readonly error: ApiError;
  readonly attempt: number;
  readonly delayMs: number;
}

/**
 * Sleeps until `ms` pass or either signal aborts (AbortSignal.any is newer than Node 20.0); the listeners go with
 * the sleep, so a client that retries for hours does not pile them up on its long-lived signals.
 */
async function sleepUnless(
  clock: Clock,
  ms: number,
  a: AbortSignal | undefined,
  b: AbortSignal | undefined,
): Promise<void> {
  if (!a || !b) return clock.sleep(ms, a ?? b);
  const controller = new AbortController();
  const onA = () => controller.abort(a.reason);
  const onB = () => controller.abort(b.reason);
  if (a.aborted || b.aborted) controller.abort((a.aborted ? a : b).reason);
  a.addEventListener('abort', onA, { once: true });
  b.addEventListener('abort', onB, { once: true });
  try {
    await clock.sleep(ms, controller.signal);
  } finally {
    a.removeEventListener('abort', onA);
    b.removeEventListener('abort', onB);
  }
}

/**
 * Runs `attempt` until it succeeds, fails with a non-transient error, or the budget (attempts, total time) is
 * spent. The error thrown last carries the number of attempts made. Once `health` finds the platform gone, no
 * retry starts and a wait in progress ends: the request fails with that finding.
 */
export async function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  policy: RetryPolicy,
  {
    clock = systemClock,
    signal,
    onRetry,
    health,
  }: { clock?: Clock; signal?: AbortSignal; onRetry?: (event: RetryEvent) => void; health?: PlatformHealth } = {},
): Promise<T> {
  const started = clock.now();
  let correlationId: string | undefined;
  for (let n = 1; ; n++) {
    if (health?.gone) throw health.gone.withAttempts(Math.max(1, n - 1), correlationId);
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (health?.gone) throw health.gone.withAttempts(n, correlationId);
      correlationId = error.correlationId ?? correlationId;
      if (error.kind !== 'transient' || n >= policy.attempts) throw error.withAttempts(n, correlationId);
      const delayMs = backoffDelay(policy, n, error.retryAfterMs);
      if (clock.now() - started + delayMs > policy.maxTotalMs) {
        const why =
          error.retryAfterMs !== undefined && error.retryAfterMs === delayMs
            ? ` (the server asked to wait ${Math.ceil(delayMs / 1000)} s)`
            : '';
        throw new ApiError(
          `${error.message}; gave up after ${n} attempts: the retry time budget of ${Math.round(policy.maxTotalMs / 1000)} s is spent${why}`,
          {
            ...error,
            attempts: n,
            ...(correlationId ? { correlationId } : {}),
          },
        );
      }
      onRetry?.({ error, attempt: n, delayMs });
      try {
        await sleepUnless(clock, delayMs, signal, health?.signal);
      } catch (reason) {
        if (health?.gone && !signal?.aborted) throw health.gone.withAttempts(n, correlationId);
        throw reason;
      }
    }
  }
}
