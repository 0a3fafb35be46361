/**
 * The platform client and publishing, as the package entry (src/index.ts) and the browser bundle of the GraphQL
 * test take them: REST upsert of every kind of the table of kinds, and GraphQL. Web-standard APIs only (fetch,
 * Headers, FormData, AbortController): it runs in Node >= 20 and in browsers.
 */
export { createClient, type Client, type ClientOptions } from '../platform/client.js';
export { ApiError, isAlreadyExists, isNotFound } from '../platform/envelope.js';
export { parseBaseUrl } from '../platform/base-url.js';
export { publishDocument, stripLeadingComments } from '../platform/document.js';
export type { GraphqlOptions } from '../platform/graphql.js';
export { publishDocuments, type PublishReport } from './publish.js';
export { RateLimiter } from '../platform/rate-limiter.js';
export { backoffDelay, parseRetryAfter } from '../platform/retry.js';
export { semanticDiff } from './semantic-diff.js';
