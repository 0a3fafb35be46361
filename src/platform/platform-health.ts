import { ApiError } from './api-error.js';

/** When a run of server errors counts as a failing platform (PlatformHealth). */
export interface ServerErrorStorm {
  /** 5xx answers in a row. */
  readonly threshold?: number;
  /** Different requests among them, at least. */
  readonly requests?: number;
  /** Time without any other answer, at least. */
  readonly quietMs?: number;
}

/**
 * 10 server errors in a row from 3 requests or more, over 3 s without a good answer: one document's 6 attempts
 * alone never reach it, a blip of a second does not, and a platform failing every request is found in seconds
 * (with 4 documents in flight, about the third attempt of each).
 */
const DEFAULT_SERVER_ERROR_STORM: Required<ServerErrorStorm> = { threshold: 10, requests: 3, quietMs: 3_000 };

/**
 * Whether the platform is still there, seen from every request of one client. Retrying one request through its
 * backoff is right for a blip; doing it for every document when the platform has gone away turned a dead
 * platform into minutes of waiting (4 min 15 s for 73 documents). After `threshold` attempts in a row got no answer
 * at all (refused, reset, timed out) and nothing has answered for `quietMs`, the platform counts as gone: every
 * request still retrying stops at once with that error, and a publish run stops (the rest is "not attempted").
 * Any HTTP answer, a 5xx included, resets that count: the platform, or a proxy in front of it, is there.
 *
 * A platform that answers every request with a server error is no better: a storm of 503s kept publish retrying
 * every document through its own backoff for minutes. After `serverErrors.threshold` 5xx answers in a row, from at
 * least `serverErrors.requests` different requests (one request retrying is its own retry budget's business), with
 * no other answer for `serverErrors.quietMs`, the platform counts as failing and the run stops the same way.
 */
export class PlatformHealth {
  readonly threshold: number;
  readonly quietMs: number;
  readonly serverErrors: Required<ServerErrorStorm>;
  #consecutive = 0;
  #serverErrors = 0;
  readonly #failingRequests = new Set<string>();
  #lastStatus = 0;
  #lastGoodAnswerAt: number;
  #lastAnswerAt: number;
  #lastCause = '';
  #gone: ApiError | undefined;
  readonly #controller = new AbortController();

  constructor(
    now: number,
    {
      threshold = 5,
      quietMs = 2_000,
      serverErrors = {},
    }: { threshold?: number; quietMs?: number; serverErrors?: ServerErrorStorm } = {},
  ) {
    this.threshold = threshold;
    this.quietMs = quietMs;
    this.serverErrors = { ...DEFAULT_SERVER_ERROR_STORM, ...serverErrors };
    this.#lastAnswerAt = now;
    this.#lastGoodAnswerAt = now;
  }

  /** Aborts when the platform is found gone: waits between retries end early. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The error every request gets once the platform is gone; undefined while it is not. */
  get gone(): ApiError | undefined {
    return this.#gone;
  }

  /** An answer that is not a server error (a 4xx too: the platform is working, the request was wrong). */
  answered(now: number): void {
    this.#consecutive = 0;
    this.#lastAnswerAt = now;
    this.#serverErrors = 0;
    this.#failingRequests.clear();
    this.#lastGoodAnswerAt = now;
  }

  /** An answer with a 5xx status to `request` (`METHOD /path`). */
  serverError(now: number, status: number, request: string): void {
    this.#consecutive = 0;
    this.#lastAnswerAt = now;
    this.#serverErrors++;
    this.#lastStatus = status;
    // The set only needs to reach `requests` entries; a storm across thousands of documents keeps it small.
    if (this.#failingRequests.size < this.serverErrors.requests) this.#failingRequests.add(request);
    const storm = this.serverErrors;
    if (
      this.#gone ||
      this.#serverErrors < storm.threshold ||
      this.#failingRequests.size < storm.requests ||
      now - this.#lastGoodAnswerAt < storm.quietMs
    )
      return;
    const seconds = Math.max(1, Math.round((now - this.#lastGoodAnswerAt) / 1000));
    this.#gone = new ApiError(
      `the platform is failing: ${this.#serverErrors} answers in a row were server errors (last: HTTP ${this.#lastStatus}), from ${this.#failingRequests.size} or more different requests, and nothing else came back for ${seconds} s`,
      { kind: 'gone', status, request },
    );
    this.#controller.abort(this.#gone);
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
