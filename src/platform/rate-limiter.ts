import { systemClock, type Clock } from './clock.js';

const MINUTE_MS = 60_000;

/**
 * A sliding-window limiter: at most `perMinute` requests start in any 60 seconds. The platform counts per key
 * per minute, so a token bucket (which allows a full burst on top of a steady rate) could still trip it; a window
 * of the last N start times cannot.
 */
export class RateLimiter {
  readonly perMinute: number;
  readonly #clock: Clock;
  readonly #windowMs: number;
  /** Start times of the last `perMinute` requests, oldest first. */
  readonly #starts: number[] = [];
  /** Callers wait in line so concurrent requests are admitted in order. */
  #queue: Promise<void> = Promise.resolve();
  /** No request starts before this time (set by a 429: the server's limit is lower than ours). */
  #pausedUntil = 0;

  constructor(perMinute: number, clock: Clock = systemClock, windowMs = MINUTE_MS) {
    if (!Number.isFinite(perMinute) || perMinute <= 0)
      throw new RangeError(`rate limit must be a positive number, got ${perMinute}`);
    this.perMinute = Math.floor(perMinute) || 1;
    this.#clock = clock;
    this.#windowMs = windowMs;
  }

  /** Resolves when one more request may start, and counts it. */
  acquire(signal?: AbortSignal): Promise<void> {
    const turn = this.#queue.then(() => this.#admit(signal));
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Holds every request back for `ms`. After a 429 the whole client slows down, not only the request that got
   * it: the other lanes would otherwise keep the window full and starve the one retrying.
   */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + ms);
  }

  async #admit(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.#clock.now();
      if (now < this.#pausedUntil) {
        await this.#clock.sleep(this.#pausedUntil - now, signal);
        continue;
      }
      while (this.#starts.length > 0 && this.#starts[0]! <= now - this.#windowMs) this.#starts.shift();
      if (this.#starts.length < this.perMinute) {
        this.#starts.push(now);
        return;
      }
      await this.#clock.sleep(this.#starts[0]! + this.#windowMs - now, signal);
    }
  }
}
