import type { Clock } from './clock.js';
import { ApiError, toEnvelope, type Envelope } from './envelope.js';
import type { PlatformHealth } from './platform-health.js';
import type { RateLimiter } from './rate-limiter.js';
import { parseRetryAfter, withRetry, type RetryEvent, type RetryPolicy } from './retry.js';

/** What the client needs from its environment; `fetch` is the web-standard one (Node >= 20, browsers). */
export interface TransportOptions {
  readonly fetch: typeof fetch;
  readonly limiter: RateLimiter;
  readonly retry: RetryPolicy;
  readonly clock: Clock;
  /** One attempt's limit, response body included. */
  readonly timeoutMs: number;
  /** Removes the key from any text that came from outside (server messages, network errors). */
  readonly redact: (text: string) => string;
  readonly onRetry?: (event: RetryEvent) => void;
  /** Aborts everything in flight and every wait (the client's `signal` option). */
  readonly signal?: AbortSignal;
  /** Whether the platform still answers at all, across every request of the client. */
  readonly health?: PlatformHealth;
  /** Counts the attempts sent (a run's report says how many requests it made). */
  readonly counter?: { requests: number };
}

export interface HttpRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly url: string;
  /** `METHOD /path` for messages. */
  readonly label: string;
  readonly headers: Headers;
  readonly body?: string | FormData;
  /** Browser mode: no cookies or HTTP auth, whatever the page's origin. */
  readonly credentials?: RequestCredentials;
}

/** Codes of TLS failures that no retry fixes: the certificate chain is not trusted. */
const UNTRUSTED_CERT = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH/;

/** The innermost `code` and message of a fetch failure (undici wraps the socket error in `cause`). */
function networkCause(error: unknown): { code?: string; message: string } {
  let current: unknown = error;
  let found: { code?: string; message: string } = { message: error instanceof Error ? error.message : String(error) };
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    found = {
      message: current.message,
      ...(typeof code === 'string' ? { code } : found.code ? { code: found.code } : {}),
    };
    current = current.cause;
  }
  return found;
}

/** One attempt: limiter, fetch with a timeout, body read, envelope or ApiError. */
async function attemptOnce(
  request: HttpRequest,
  options: TransportOptions,
): Promise<{ status: number; text: string; retryAfterMs?: number; etag?: string; contentType?: string }> {
  await options.limiter.acquire(options.signal);
  if (options.counter) options.counter.requests++;
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(options.signal!.reason);
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new Error('timeout')), options.timeoutMs);
  try {
    const init: RequestInit = { method: request.method, headers: request.headers, signal: controller.signal };
    if (request.body !== undefined) init.body = request.body;
    if (request.credentials) init.credentials = request.credentials;
    const response = await options.fetch(request.url, init);
    const text = await response.text();
    options.health?.answered(options.clock.now());
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), options.clock.now());
    const etag = response.headers.get('etag') ?? undefined;
    const contentType = response.headers.get('content-type') ?? undefined;
    return {
      status: response.status,
      text,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      ...(etag ? { etag } : {}),
      ...(contentType ? { contentType } : {}),
    };
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (controller.signal.aborted) {
      options.health?.unanswered(options.clock.now(), `no response within ${options.timeoutMs} ms`, request.label);
      throw new ApiError(`no response to ${request.label} within ${options.timeoutMs} ms`, {
        kind: 'transient',
        request: request.label,
      });
    }
    const cause = networkCause(error);
    options.health?.unanswered(options.clock.now(), cause.code ?? cause.message, request.label);
    const untrusted = cause.code !== undefined && UNTRUSTED_CERT.test(cause.code);
    // A name that does not resolve will not resolve on the next attempt either (EAI_AGAIN, a DNS hiccup, may).
    const unresolved = cause.code === 'ENOTFOUND';
    throw new ApiError(
      untrusted
        ? `the server's TLS certificate is not trusted (${cause.code}); if it is signed by a private CA, set NODE_EXTRA_CA_CERTS=/path/to/ca.pem`
        : `network error on ${request.label}: ${options.redact(cause.message)}${cause.code ? ` (${cause.code})` : ''}`,
      {
        kind: untrusted ? 'untrusted-certificate' : unresolved ? 'unreachable' : 'transient',
        request: request.label,
        ...(cause.code ? { code: cause.code } : {}),
      },
    );
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}

/** Retry plumbing shared by REST and GraphQL: a 429 pauses the whole client for the wait it causes. */
function retryHooks(options: TransportOptions) {
  return {
    clock: options.clock,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.health ? { health: options.health } : {}),
    onRetry: (event: RetryEvent) => {
      if (event.error.status === 429) options.limiter.pause(event.delayMs);
      options.onRetry?.(event);
    },
  };
}

/** A REST call with retries; resolves to the SUCCESS envelope or rejects with an ApiError. */
export function sendRest(request: HttpRequest, options: TransportOptions): Promise<Envelope> {
  return withRetry(
    async () => {
      const { status, text, retryAfterMs, etag } = await attemptOnce(request, options);
      try {
        return toEnvelope(status, text, request.label, retryAfterMs, etag);
      } catch (error) {
        throw error instanceof ApiError ? new ApiError(options.redact(error.message), { ...error }) : error;
      }
    },
    options.retry,
    retryHooks(options),
  );
}

/**
 * A call with retries to a service whose answers are its own JSON rather than the NG envelope (GraphQL, the
 * policy-management API); GraphQL answers 200 with `errors` for query mistakes, those are the caller's to read.
 * HTTP failures become ApiErrors like REST ones.
 */
export function sendJson(request: HttpRequest, options: TransportOptions): Promise<unknown> {
  return withRetry(
    async () => {
      const { status, text, retryAfterMs } = await attemptOnce(request, options);
      if (status >= 200 && status < 300) {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw new ApiError(`${request.label} answered HTTP ${status} with a body that is not JSON`, {
            kind: 'rejected',
            status,
            request: request.label,
          });
        }
      }
      try {
        toEnvelope(status, text, request.label, retryAfterMs);
      } catch (error) {
        throw error instanceof ApiError ? new ApiError(options.redact(error.message), { ...error }) : error;
      }
      throw new ApiError(`HTTP ${status} from ${request.label}`, { kind: 'rejected', status, request: request.label });
    },
    options.retry,
    retryHooks(options),
  );
}

/** What one unretried request found at the base URL: the platform (any answer in its JSON shape), or not. */
export type Probe =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly problem:
        'refused' | 'unresolved' | 'tls' | 'timeout' | 'network' | 'blocked-port' | 'not-json' | 'bare-404';
      readonly detail: string;
    };

/**
 * One request, no retries: answers whether the platform is at the address at all. Any JSON answer counts (a 401
 * or a NOT_FOUND code is the platform speaking); 5xx and 429 count too, retries deal with them later. Refused
 * connections, unknown hosts, TLS failures, HTML pages and a 404 without the platform's error shape do not.
 */
export async function probe(request: HttpRequest, options: TransportOptions): Promise<Probe> {
  try {
    const { status, text, contentType } = await attemptOnce(request, options);
    if (status >= 500 || status === 429) return { ok: true };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const shaped =
      body !== null && typeof body === 'object' && typeof (body as { status?: unknown }).status === 'string';
    if (shaped) return { ok: true };
    if (status === 404)
      return {
        ok: false,
        problem: 'bare-404',
        detail: `HTTP 404 without the platform's error body (${describeBody(contentType, text)})`,
      };
    return {
      ok: false,
      problem: 'not-json',
      detail: `HTTP ${status} with ${describeBody(contentType, text)}, not the platform's JSON`,
    };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const code = error.code;
    if (error.kind === 'untrusted-certificate') return { ok: false, problem: 'tls', detail: error.message };
    if (code === 'ECONNREFUSED')
      return {
        ok: false,
        problem: 'refused',
        detail: 'the connection was refused (ECONNREFUSED): nothing listens there',
      };
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return { ok: false, problem: 'unresolved', detail: `the host name does not resolve (${code})` };
    if (code && /^(ERR_TLS|ERR_SSL|EPROTO)/.test(code))
      return { ok: false, problem: 'tls', detail: `the TLS handshake failed (${code})` };
    // The Fetch standard's blocked ports (9, 25, 6000, ...): fetch refuses them before connecting.
    if (/bad port/i.test(error.message))
      return {
        ok: false,
        problem: 'blocked-port',
        detail: "fetch refuses to connect to this port (one of the Fetch standard's blocked ports)",
      };
    if (/within \d+ ms/.test(error.message)) return { ok: false, problem: 'timeout', detail: error.message };
    return { ok: false, problem: 'network', detail: error.message };
  }
}

/** `an HTML page` / `a text/plain body` / `an empty body`: what came back, never the body itself. */
function describeBody(contentType: string | undefined, text: string): string {
  if (text.trim() === '') return 'an empty body';
  const mime = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mime === 'text/html' || /^\s*<(!doctype|html)/i.test(text)) return 'an HTML page';
  return `a ${mime ?? 'non-JSON'} body`;
}
