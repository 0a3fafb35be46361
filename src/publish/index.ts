/**
 * The platform client: REST upsert of every kind of the table of kinds (projects, connectors, services, ...,
 * triggers), and GraphQL. Web-standard APIs only (fetch, Headers, FormData, AbortController): it runs in Node >= 20
 * and in browsers.
 */
export {
  createClient,
  DEFAULT_RATE_LIMIT,
  type Client,
  type ClientOptions,
  type RemoteResource,
  type WriteResult,
} from '../platform/client.js';
export {
  ApiError,
  isAlreadyExists,
  isGitConflict,
  isLimit,
  isNotFound,
  isVersionConflict,
  type Envelope,
  type FailureKind,
} from '../platform/envelope.js';
export { defaultGitFile, type GitTarget, type GitVersion, type Storage } from '../platform/endpoints.js';
export { BaseUrlError, isLoopbackHost, parseBaseUrl } from '../platform/base-url.js';
export { DocumentError, publishDocument, stripLeadingComments, type PublishDocument } from '../platform/document.js';
export type { GraphqlOptions } from '../platform/graphql.js';
export {
  publishDocuments,
  countOutcomes,
  commitMessage,
  DEFAULT_WEBHOOK_PAUSE_MS,
  DocumentRefusal,
  type DocumentResult,
  type FailureReason,
  type GitSettings,
  type Outcome,
  type PublishOptions,
  type PublishReport,
} from './publish.js';
export type { PublishItem } from './publish-item.js';
export { RateLimiter } from '../platform/rate-limiter.js';
export { backoffDelay, parseRetryAfter, type RetryOptions } from '../platform/retry.js';
export { semanticDiff, formatChanges, type Change } from './semantic-diff.js';
