import { ApiError, type FailureKind } from './api-error.js';
import { asRecord, asText } from './answers.js';
import { describeDenial, policySetsText } from './governance.js';

/**
 * The REST envelope (`status`, `data`, `metaData`, `correlationId`) and the errors built from it. Error bodies
 * are not specified; the platform's look like `{ status: 'ERROR', code, message, correlationId }`, and proxies in
 * front of it answer 5xx with HTML or nothing at all, so every field is optional here.
 */

export interface Envelope<T = unknown> {
  readonly status: string;
  readonly data: T;
  readonly metaData: unknown;
  readonly correlationId?: string;
  /** The ETag header, when the service sent one (projects: `W/<version>`, what `If-Match` takes back). */
  readonly etag?: string;
}

export { ApiError, type FailureKind } from './api-error.js';

const NOT_FOUND_CODES: ReadonlySet<string> = new Set([
  'ENTITY_NOT_FOUND',
  'RESOURCE_NOT_FOUND',
  'RESOURCE_NOT_FOUND_EXCEPTION',
]);
/** How input sets (and some updates of a missing id) word "not there" in an INVALID_REQUEST. */
const DOES_NOT_EXIST = /does not exist or has been deleted|doesn't exist|does not exist|not found|no \w+ exists with/i;

/**
 * "Not there", in every form the platform answers it (platform-facts-2.md §3): 404 with a NOT_FOUND code, 400
 * `RESOURCE_NOT_FOUND_EXCEPTION` (connectors, templates, services, ...), 400 `INVALID_REQUEST` saying it does not
 * exist (input sets). Never 401, 403, a Git problem (`HINT`, `EXPLANATION`, `SCM_*`), a 5xx, or a bare 404
 * without the platform's code: that is a wrong base URL or a proxy, and it fails loudly instead.
 */
export const isNotFound = (error: unknown): boolean =>
  error instanceof ApiError &&
  error.code !== undefined &&
  !isRouteMissing(error) &&
  ((error.status === 404 && NOT_FOUND_CODES.has(error.code)) ||
    (error.status === 400 && error.code === 'RESOURCE_NOT_FOUND_EXCEPTION') ||
    (error.status === 400 &&
      error.code === 'INVALID_REQUEST' &&
      DOES_NOT_EXIST.test(error.message) &&
      !LIMIT.test(error.message)));

/**
 * Jersey's words when no resource method matches the path (its NotFoundException, "HTTP 404 Not Found") or a
 * proxy's "no such route": the route is missing on this server, not the entity. The platform's
 * NotFoundExceptionMapper answers Jersey's exception as 400 FAILURE `RESOURCE_NOT_FOUND_EXCEPTION`, the code a
 * missing connector gets, so only the message tells them apart (platform-facts-2.md §3, "wrong URL"); a 404
 * carrying the same words is a server or proxy mapping it otherwise. Read as "not there", a whole dry run would
 * say every document fails.
 */
// Case-sensitive and at the end: the message pipewright composes starts "HTTP 404 not found <code>: " itself.
const ROUTE_MISSING = /(?:^|: )HTTP 404 Not Found$|no such route/;
export const isRouteMissing = (error: unknown): boolean =>
  error instanceof ApiError &&
  (error.status === 404 || (error.status === 400 && error.code === 'RESOURCE_NOT_FOUND_EXCEPTION')) &&
  ROUTE_MISSING.test(error.message.trim());

/**
 * The words of an account without the governance (policy as code) module, or a key the module is not licensed
 * for. The policy service answers its own goa errors (`{name, message, ...}`; harness-go-sdk
 * harness/policymgmt/api_evaluate.go declares them for 400, 401, 403, 404, 500 and 502), and its sources give no
 * fixed text for a missing module, so the words are matched loosely.
 */
const MODULE_ABSENT =
  /licen[cs]e|not enabled|not entitled|not available|module|upgrade your plan|OPA_PIPELINE_GOVERNANCE/i;

/**
 * A policy evaluation the account cannot have: the policy service is not there (a route missing, any 404: a
 * self-hosted install without it), or it refuses the account for want of the module (402, or a 400/403 saying so).
 * `--policy-check` then warns that evaluation is unavailable instead of failing every document. A plain 403 (the
 * key lacks a permission) or 401 stays an error.
 */
export const isGovernanceUnavailable = (error: unknown): boolean =>
  error instanceof ApiError &&
  (isRouteMissing(error) ||
    error.status === 404 ||
    error.status === 402 ||
    ((error.status === 403 || error.status === 400) && MODULE_ABSENT.test(error.message)));

/** Licence and plan limits (`LimitExceededException`, `FeatureNotSupportedException`): 400 INVALID_REQUEST, never retried. */
const LIMIT = /limit|exceeded|licen[cs]e|not supported in your plan|upgrade your plan/i;
/** `feature ... not available`, found by two searches: `feature .*not available` is quadratic on a message of the platform's. */
const featureNotAvailable = (message: string): boolean => {
  const lower = message.toLowerCase();
  const feature = lower.indexOf('feature ');
  return feature >= 0 && lower.includes('not available', feature + 'feature '.length);
};
export const isLimit = (error: unknown): boolean =>
  error instanceof ApiError &&
  error.status === 400 &&
  error.code === 'INVALID_REQUEST' &&
  (LIMIT.test(error.message) || featureNotAvailable(error.message));

/** A stale `If-Match`: someone else updated the project since it was read. */
export const isVersionConflict = (error: unknown): boolean =>
  error instanceof ApiError && error.code === 'OPTIMISTIC_LOCKING_EXCEPTION';

/** The Git file changed since it was read (HTTP 409, `SCM_CONFLICT_ERROR_V2`, possibly wrapped in a HINT). */
export const isGitConflict = (error: unknown): boolean =>
  error instanceof ApiError && (error.status === 409 || error.code === 'SCM_CONFLICT_ERROR_V2');

/** "Already exists": 400 DUPLICATE_FIELD, or INVALID_REQUEST whose message says it exists. */
export const isAlreadyExists = (error: unknown): boolean =>
  error instanceof ApiError &&
  error.status === 400 &&
  (error.code === 'DUPLICATE_FIELD' ||
    (error.code === 'INVALID_REQUEST' && /already (exists|present)|is already present|duplicate/i.test(error.message)));

/**
 * Git Experience enforced in the scope (GitXSettingsHelper.java L50-63): every create or update of an inline
 * pipeline, template, service or environment is refused.
 */
export const isGitEnforced = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 400 && /Git Experience is enforced/i.test(error.message);

/** The scope's default store type made an inline create remote, and it has no file (GitAwareEntityHelper.java L125, L150). */
export const isNoFilePath = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 400 && /No file path provided/i.test(error.message);

/** An input set must be stored where its pipeline is (InputSetValidationHelper.java L55-62). */
export const isStoreTypeMismatch = (error: unknown): boolean =>
  error instanceof ApiError &&
  error.status === 400 &&
  /should have the same Store Type as the Pipeline/i.test(error.message);

/** A trigger of a Git-stored pipeline without `pipelineBranchName` (NGTriggerServiceImpl.java L1033-1038). */
export const isMissingPipelineBranch = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 400 && /pipelineBranchName is missing/i.test(error.message);

/** "Already exists" that also names deleted resources: a soft-deleted identifier still holds its place. */
export const mentionsSoftDelete = (error: unknown): boolean =>
  error instanceof ApiError && /or (has been|was|is soft) deleted/i.test(error.message);

/** The deprecated pipeline calls' form of a denial: the policy set identifiers, no messages (PipelineGovernanceServiceImpl.java L74-87). */
const LEGACY_DENIAL = /does not follow the Policies in these Policy Sets/i;

const TRANSIENT_STATUS = new Set([408, 429, 500, 502, 503, 504]);

export function failureKind(status: number): FailureKind {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  return TRANSIENT_STATUS.has(status) ? 'transient' : 'rejected';
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'bad request',
  401: 'unauthorized',
  402: 'request cannot be processed',
  403: 'forbidden',
  404: 'not found',
  415: 'unsupported media type',
  429: 'rate limit exceeded',
  500: 'internal server error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
};

/** The body parsed as JSON, or undefined (HTML error pages, empty 502s). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Turns a response into the envelope, or an ApiError. A 200 whose status is not SUCCESS is an error too: the
 * spec promises SUCCESS on success, and acting on anything else would report a write that did not happen.
 */
export function toEnvelope(
  status: number,
  text: string,
  request: string,
  retryAfterMs?: number,
  etag?: string,
): Envelope {
  const body = asRecord(parseJson(text));
  const correlationId = asText(body?.correlationId);
  if (status >= 200 && status < 300 && body && body.status === 'SUCCESS')
    return {
      status: 'SUCCESS',
      data: body.data,
      metaData: body.metaData ?? null,
      ...(correlationId ? { correlationId } : {}),
      ...(etag ? { etag } : {}),
    };
  const code = asText(body?.code);
  const serverMessage = withExplanation(asText(body?.message) ?? asText(body?.detailedMessage), body?.responseMessages);
  const isOk = status >= 200 && status < 300;
  const denied =
    !isOk &&
    (code === 'POLICY_EVALUATION_FAILURE' ||
      (status === 400 && code === 'INVALID_REQUEST' && LEGACY_DENIAL.test(serverMessage ?? '')));
  const message = isOk
    ? `unexpected response to ${request}: HTTP ${status} without status SUCCESS`
    : denied
      ? denialMessage(status, code!, serverMessage, body?.metadata)
      : `HTTP ${status} ${REASONS[status] ?? 'error'}${code ? ` ${code}` : ''}${serverMessage ? `: ${serverMessage}` : body ? '' : ' (no JSON body)'}`;
  return throwing(
    new ApiError(message, {
      kind: isOk ? 'rejected' : denied ? 'denied' : failureKind(status),
      status,
      ...(code ? { code } : {}),
      ...(correlationId ? { correlationId } : {}),
      request,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    }),
  );
}

/**
 * A 4xx denial: the policy messages when the answer carries the evaluation (`metadata.governanceMetadata` of a
 * `GovernanceMetadataErrorDTO`, harness-core PR #56683), else the server's words, which name the policy sets.
 */
function denialMessage(status: number, code: string, serverMessage: string | undefined, metadata: unknown): string {
  const governance = asRecord(asRecord(metadata)?.governanceMetadata);
  if (governance && governance.deny === true) {
    const { message, policySets } = describeDenial(governance);
    return `denied by policy: ${message}${policySetsText(policySets)}; nothing was stored (HTTP ${status} ${code})`;
  }
  return `denied by policy: ${serverMessage ?? 'the answer gives no reason'}; nothing was stored (HTTP ${status} ${code})`;
}

/**
 * Git Experience errors wrap the cause: `HINT` / `EXPLANATION` on top, the SCM error (`SCM_BAD_REQUEST` "File not
 * found", `SCM_CONFLICT_ERROR_V2`) last. The top message alone ("Please check the requested file path...") hides
 * what happened, so the other messages are added once each.
 */
function withExplanation(message: string | undefined, responseMessages: unknown): string | undefined {
  if (!Array.isArray(responseMessages)) return message;
  const parts = message ? [message] : [];
  for (const item of responseMessages) {
    const text = asText(asRecord(item)?.message);
    if (text && !parts.some((p) => p.includes(text))) parts.push(text);
  }
  return parts.length ? parts.join(' | ') : undefined;
}

function throwing(error: Error): never {
  throw error;
}

/**
 * The failures that say something about the key or the platform as a whole, not about one document: a run stops
 * at the first of them (the rest would fail the same way). Publish and pull both read this one set.
 */
const STOPPING_KINDS = ['unauthorized', 'forbidden', 'untrusted-certificate', 'unreachable', 'gone'] as const;
export type StoppingKind = (typeof STOPPING_KINDS)[number];

/** Whether a failure stops the run (see {@link STOPPING_KINDS}). */
export const isStopping = (kind: FailureKind): kind is StoppingKind =>
  (STOPPING_KINDS as readonly FailureKind[]).includes(kind);
