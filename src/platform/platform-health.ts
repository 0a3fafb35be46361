import { ApiError } from './envelope.js';

/**
 * Whether the platform is still there, seen from every request of one client. Retrying one request through its
 * backoff is right for a blip; doing it for every document when the platform has gone away turned a dead
 * platform into minutes of waiting (4 min 15 s for 73 documents). After `threshold` attempts in a row got no answer
 * at all (refused, reset, timed out) and nothing has answered for `quietMs`, the platform counts as gone: every
 * request still retrying stops at once with that error, and a publish run stops (the rest is "not attempted").
 * Any HTTP answer, a 5xx included, resets the count: the platform, or a proxy in front of it, is there.
 */
export class PlatformHealth {
  readonly threshold: number;
  readonly quietMs: number;
  #consecutive = 0;
  #lastAnswerAt: number;
  #lastCause = '';
  #gone: ApiError | undefined;
  readonly #controller = new AbortController();

  constructor(now: number, { threshold = 5, quietMs = 2_000 }: { threshold?: number; quietMs?: number } = {}) {
    this.threshold = threshold;
    this.quietMs = quietMs;
    this.#lastAnswerAt = now;
  }

  /** Aborts when the platform is found gone: waits between retries end early. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The error every request gets once the platform is gone; undefined while it is not. */
  get gone(): ApiError | undefined {
    return this.#gone;
  }

  answered(now: number): void {
    this.#consecutive = 0;
    this.#lastAnswerAt = now;
  }

  /** An attempt that got no answer; `cause` is what the network said (ECONNREFUSED, a timeout). */
  unanswered(now: number, cause: string, request: string): void {
    this.#consecutive++;
    this.#lastCause = cause;
    if (this.#gone || this.#consecutive < this.threshold || now - this.#lastAnswerAt < this.quietMs) return;
    const seconds = Math.max(1, Math.round((now - this.#lastAnswerAt) / 1000));
    this.#gone = new ApiError(
      `the platform stopped answering: ${this.#consecutive} requests in a row got no answer, none for ${seconds} s (last: ${this.#lastCause})`,
      { kind: 'gone', request },
    );
    this.#controller.abort(this.#gone);
  }
}
