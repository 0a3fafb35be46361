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

  constructor(perMinute: number, clock: Clock = systemClock, windowMs = MINUTE_MS) {
    if (!Number.isFinite(perMinute) || perMinute <= 0) throw new RangeError(`rate limit must be a positive number, got ${perMinute}`);
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

  async #admit(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.#clock.now();
      while (this.#starts.length > 0 && this.#starts[0]! <= now - this.#windowMs) this.#starts.shift();
      if (this.#starts.length < this.perMinute) {
        this.#starts.push(now);
        return;
      }
      await this.#clock.sleep(this.#starts[0]! + this.#windowMs - now, signal);
    }
  }
}
