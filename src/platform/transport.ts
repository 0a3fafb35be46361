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
  /** Bytes of one answer at most (MAX_BODY_BYTES unless the client's options say). */
  readonly maxBodyBytes?: number;
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

/**
 * Bytes of one answer at most, after decompression. The largest answers are list pages of 100 items (the most
 * the services answer, platform-facts-3.md §3) that carry each item's YAML (services, environments, triggers);
 * the largest document of the corpus (../shared/corpus) is 59 KB, so a full page of them is about 6 MB. 32 MiB
 * leaves five times that, and keeps a process reading an endless or huge body far below any memory limit: past
 * it the read stops and the stream is cancelled.
 */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * Redirects followed within the base URL's origin. The platform's API answers where it is asked (its own clients
 * never need a redirect: docs/security.md, "Network"), but a proxy in front of a self-hosted install may move
 * a path (a trailing slash, a new prefix); a few hops allow that, more is a loop.
 */
export const MAX_REDIRECTS = 3;

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

/** A refusal that retrying cannot change (a redirect elsewhere, a body too large): not counted as unanswered. */
class Refused extends Error {
  readonly apiError: ApiError;
  constructor(error: ApiError) {
    super(error.message);
    this.apiError = error;
  }
}

/**
 * The request, following redirects only within the origin it was sent to: the key in its headers (or form) must
 * never reach another host, nor leave TLS (an https -> http redirect changes the origin too). fetch's own
 * following would send `x-api-key` wherever a `Location` points, so redirects are read with `redirect: 'manual'`.
 */
async function fetchWithinOrigin(
  request: HttpRequest,
  init: RequestInit,
  options: TransportOptions,
): Promise<Response> {
  const origin = new URL(request.url).origin;
  let url = request.url;
  let method = request.method;
  for (let hop = 0; ; hop++) {
    const withBody = method === request.method && request.body !== undefined;
    const response = await options.fetch(url, {
      ...init,
      method,
      redirect: 'manual',
      ...(withBody ? { body: request.body } : { body: null }),
    });
    // A browser hides a manual redirect's target (an opaque response): refused without knowing where.
    if (response.type === 'opaqueredirect')
      throw new Refused(redirectError(request, 'a place the browser does not reveal', 'redirected'));
    if (response.status < 300 || response.status > 399 || response.status === 304) return response;
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    let target: URL;
    try {
      target = new URL(location ?? '', url);
    } catch {
      throw new Refused(redirectError(request, 'an unreadable Location', 'redirected'));
    }
    if (location === null)
      throw new Refused(redirectError(request, 'nowhere (no Location header)', `answered HTTP ${response.status}`));
    if (target.origin !== origin)
      throw new Refused(
        redirectError(
          request,
          `${target.origin}, another origin than the base URL's ${origin}`,
          target.protocol === 'http:' && new URL(origin).protocol === 'https:'
            ? 'redirected from https to plain http'
            : 'redirected',
        ),
      );
    if (hop >= MAX_REDIRECTS)
      throw new Refused(redirectError(request, `${target.origin} more than ${MAX_REDIRECTS} times`, 'redirected'));
    // As fetch does: 303 (and 301/302 after a POST) continue as a GET without the body; 307 and 308 keep both.
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST'))
      method = 'GET';
    if (method !== request.method && request.method !== 'POST')
      throw new Refused(redirectError(request, `${target.origin} with a change of method`, 'redirected'));
    url = target.href;
  }
}

function redirectError(request: HttpRequest, where: string, how: string): ApiError {
  return new ApiError(
    `${request.label} was ${how} to ${where}: pipewright sends the API key only to the base URL's origin, so it did not follow; set the base URL to the address the platform answers at`,
    { kind: 'rejected', request: request.label },
  );
}

/**
 * The body as text, reading at most `limit` bytes: past it the stream is cancelled (the rest is never read, so an
 * endless body costs no memory) and the request fails naming the limit.
 */
async function readBounded(response: Response, request: HttpRequest, limit: number): Promise<string> {
  const tooLarge = () =>
    new Refused(
      new ApiError(
        `the answer to ${request.label} is larger than ${describeBytes(limit)}, the most pipewright reads of one answer: it stopped reading and cancelled it (a proxy or a fault may be sending an endless body)`,
        { kind: 'rejected', status: response.status, request: request.label },
      ),
    );
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

const describeBytes = (bytes: number): string =>
  bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0
    ? `${bytes / (1024 * 1024)} MiB`
    : bytes >= 1024 && bytes % 1024 === 0
      ? `${bytes / 1024} KiB`
      : `${bytes} bytes`;

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
    if (request.credentials) init.credentials = request.credentials;
    const response = await fetchWithinOrigin(request, init, options);
    const text = await readBounded(response, request, options.maxBodyBytes ?? MAX_BODY_BYTES);
    if (response.status >= 500) options.health?.serverError(options.clock.now(), response.status, request.label);
    else options.health?.answered(options.clock.now());
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
    if (error instanceof Refused) {
      options.health?.answered(options.clock.now());
      throw error.apiError;
    }
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

/** The error without the key in its message or correlationId (both are the server's text). */
const redacted = (error: ApiError, options: TransportOptions): ApiError =>
  new ApiError(options.redact(error.message), {
    ...error,
    ...(error.correlationId !== undefined ? { correlationId: options.redact(error.correlationId) } : {}),
  });

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
        const envelope = toEnvelope(status, text, request.label, retryAfterMs, etag);
        // A correlationId is the server's text like any other: one that echoes the key must not carry it further.
        return envelope.correlationId
          ? { ...envelope, correlationId: options.redact(envelope.correlationId) }
          : envelope;
      } catch (error) {
        throw error instanceof ApiError ? redacted(error, options) : error;
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
        throw error instanceof ApiError ? redacted(error, options) : error;
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
