/** A failed platform call and why, in the terms the caller acts on (envelope.ts reads answers into it). */

/** Why a request failed, in the terms the caller acts on. */
export type FailureKind =
  /** 4xx the caller must fix (400, 402, 404 that is not "not found", 405, 409, 415, ...): not retried. */
  | 'rejected'
  /** 401: the key is not valid. Stops a publish run. */
  | 'unauthorized'
  /** 403: the key lacks permission. Stops a publish run. */
  | 'forbidden'
  /** 429, 5xx, a reset, a timeout: retried until the retry budget is spent. */
  | 'transient'
  /** The TLS certificate is not trusted: retrying cannot help. */
  | 'untrusted-certificate'
  /** The host name does not resolve (DNS): retrying cannot help. */
  | 'unreachable'
  /** The platform stopped answering mid-run: many attempts in a row got no answer (platform-health.ts). */
  | 'gone'
  /**
   * A governance (OPA) policy denied the write, in any of its three forms: 200 SUCCESS with
   * `governanceMetadata.deny`, 400 `POLICY_EVALUATION_FAILURE`, or the deprecated pipeline calls' 400
   * `INVALID_REQUEST` "Pipeline does not follow the Policies in these Policy Sets: [...]" (platform-facts-3.md §2 D2).
   */
  | 'denied';

export interface ApiErrorDetails {
  readonly kind: FailureKind;
  /** HTTP status, absent for network errors. */
  readonly status?: number;
  /** The platform's error code, e.g. DUPLICATE_FIELD. */
  readonly code?: string;
  readonly correlationId?: string;
  /** `METHOD path` without the query (the query holds nothing secret, but is noise in a report). */
  readonly request: string;
  /** How many attempts were made before giving up. */
  readonly attempts?: number;
  /** Retry-After in ms, when the server sent one. */
  readonly retryAfterMs?: number;
}

/** A failed platform call: what the server said, and its correlationId for support. Never holds the key. */
export class ApiError extends Error {
  readonly kind: FailureKind;
  readonly status?: number;
  readonly code?: string;
  readonly correlationId?: string;
  readonly request: string;
  readonly attempts: number;
  readonly retryAfterMs?: number;
  constructor(message: string, details: ApiErrorDetails) {
    super(message);
    this.name = 'ApiError';
    this.kind = details.kind;
    if (details.status !== undefined) this.status = details.status;
    if (details.code !== undefined) this.code = details.code;
    if (details.correlationId !== undefined) this.correlationId = details.correlationId;
    this.request = details.request;
    this.attempts = details.attempts ?? 1;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }

  /**
   * The same error, after `attempts` tries. A final answer without a correlationId (an empty 503 from a proxy)
   * keeps the one an earlier attempt got: support can still find the request.
   */
  withAttempts(attempts: number, earlierCorrelationId?: string): ApiError {
    const { kind, status, code, request, retryAfterMs } = this;
    const correlationId = this.correlationId ?? earlierCorrelationId;
    return new ApiError(this.message, {
      kind,
      status,
      code,
      correlationId,
      request,
      attempts,
      retryAfterMs,
    } as ApiErrorDetails);
  }
}
